import Library
import VoiceIntentsCLI

await LibraryApp.main()
