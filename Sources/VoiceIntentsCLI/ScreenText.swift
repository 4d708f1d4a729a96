import VoiceIntents

/// What the terminal shows for an intent's outcome when it is the app's screen: a header when
/// the intent brought the app forward (its `supportedModes` allowed it), then the snippet, each
/// line behind a bar.
enum ScreenText {
    /// The lines to print before the spoken dialog, each ending in a newline; empty when the
    /// outcome has nothing to show.
    static func text(for outcome: IntentOutcome, appName: String) -> String {
        var text = ""
        if outcome.ranInForeground { text += "┌ \(appName): \(outcome.title)\n" }
        if let snippet = outcome.snippetText {
            text += snippet.split(separator: "\n").map { "│ \($0)\n" }.joined()
        }
        return text
    }
}
