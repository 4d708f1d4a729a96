// An app executable imports VoiceIntentsCLI alone; the loop's types (`AppContext`, `VoiceLoop`)
// come with it.
@_exported import VoiceLoop
