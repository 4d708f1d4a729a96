extension Aligner {
    /// What each edit costs, in words: what a listener forgives costs little, what changes the
    /// meaning costs much.
    enum Costs {
        static let filler: Float = 0.25
        /// A word the catalog says may be said anywhere (`skip:`): next to nothing.
        static let skipWord: Float = 0.05
        static let extraWord: Float = 0.9
        static let droppedSmallWord: Float = 0.5
        static let droppedWord: Float = 1.0
        static let nearWord: Float = 0.35
        /// A different word in a word's place costs nearly as much as dropping one and adding
        /// another: "sell tickets" is not "buy tickets" misheard.
        static let otherWord: Float = 1.8
        static let swappedWords: Float = 0.6
        /// A phrase's command word, or a word next to free text, dropped or replaced: "sell" is not
        /// "buy" misheard, and without "add" there is no telling where "add ${title}" starts.
        static let missedAnchor: Float = 2.5
        static let droppedApplicationName: Float = 0.6
        static let nearApplicationNameWord: Float = 0.3
        static let missingValue: Float = 0.55
        static let unknownValue: Float = 0.8
        /// Words an open set may know; charged in full if its query does not know them either.
        static let unknownOpenValue: Float = 0.45
        static let unknownValueExtraWord: Float = 0.15
        /// On top of an unknown name for a closed set whose last word is no word of the set's
        /// own names: "open the kitchen blinds" names a cover the app does not know, "open the
        /// kitchen window" more likely a thing it does not have.
        static let unknownKind: Float = 0.35
        /// On top of an unknown name for a closed set that opens with one of its known names in
        /// full ("the kitchen a bit dimmer" is the kitchen and words about it, not a room of that
        /// name), and again if it says where inside ("the heating in the bedroom" is a thing and
        /// its place, not a light of that name).
        static let knownNameSaidOn: Float = 0.9
        static let placeWords: Set<String> = ["in", "on", "at"]

        /// A question word that opens the sentence and that the phrase does not say: "is the
        /// garage door open" asks, and "the garage door open" commands. Charged on top of the
        /// edit that leaves it out, after the cheapest alignment is found.
        static let unsaidQuestion: Float = 1.1

        /// Words that make a sentence they open a question, as normalised ("what's" is "what
        /// is"). Not "do": "do not" is how "don't" is normalised.
        static let questionWords: Set<String> = [
            "is", "are", "was", "were", "does", "did", "has", "have", "what", "how", "why", "when",
            "where", "which", "who",
        ]

        /// Words that name something other than what the reading takes them for: a word said on
        /// after a known name ("the bedroom fan" is not the bedroom), a word only another
        /// thing's name has left out ("tv"), or an unknown name whose last word, the kind of thing
        /// it is, only names of other things have ("living room tv" as a light). Charged on top of the
        /// edit, after the cheapest alignment is found.
        static let anotherThing: Float = 0.9

        static let fillers: Set<String> = [
            "uh", "um", "er", "erm", "ah", "hmm", "mm", "please", "the", "a", "an", "like", "so", "okay",
            "ok", "hey", "just", "well", "now", "oh", "could", "can", "you", "would", "kindly",
        ]
        static let smallWords: Set<String> = [
            "the", "a", "an", "to", "in", "on", "at", "for", "with", "of", "from", "my", "me", "is",
            "and", "by", "into", "up", "some", "please",
        ]
    }
}
