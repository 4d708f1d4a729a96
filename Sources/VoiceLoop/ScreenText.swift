import VoiceIntents

/// What a screen shows for an intent's outcome: a header when the intent brought the app
/// forward (its `supportedModes` allowed it and a screen is attached), then the snippet, each
/// line behind a bar. Nothing when there is no screen.
package enum ScreenText {
    /// The lines to print before the spoken dialog, each ending in a newline; empty when
    /// `voiceOnly` or when the outcome has nothing to show.
    package static func text(for outcome: IntentOutcome, appName: String, voiceOnly: Bool) -> String {
        guard !voiceOnly else { return "" }
        var text = ""
        if outcome.ranInForeground { text += "┌ \(appName): \(outcome.title)\n" }
        if let snippet = outcome.snippetText {
            text += snippet.split(separator: "\n").map { "│ \($0)\n" }.joined()
        }
        return text
    }
}
