// The WWDC session examples land here in the next commit.
