/// How a run of an intent ended, and what to say and show about it.
///
/// ```swift
/// let outcome = await runner.run(ClosestLandmarkIntent())
/// print(outcome.spokenText(voiceOnly: true))   // the full dialog
/// ```
public struct IntentOutcome: Sendable, CustomStringConvertible {
    /// How the run ended.
    public enum Status: String, Sendable, Hashable {
        /// `perform()` returned a result.
        case completed
        /// The person cancelled at a prompt, or declined a confirmation.
        case cancelled
        /// `perform()` (or resolving its parameters) threw an error.
        case failed
    }

    /// The intent's identifier.
    public let intent: String
    /// The intent's title.
    public let title: String
    public let status: Status
    /// What to say: the result's dialog, the error's message, or the cancellation's
    /// acknowledgement. `nil` when there is nothing to say.
    public let dialog: IntentDialog?
    /// The returned value, if the result has one.
    public let value: (any Sendable)?
    /// The returned value as spoken (an entity's title).
    public let valueText: String?
    /// The text of the snippet, if the result shows one.
    public let snippetText: String?
    /// For a failure, the error as a person would hear it.
    public let errorMessage: String?
    /// For a failure, the error in detail, for logs.
    public let errorDetail: String?
    /// Whether the intent ran (or ended) in the foreground, with its screen shown.
    public let ranInForeground: Bool
    /// The parameter values at the end, as spoken, by parameter name.
    public let parameters: [String: String]
    /// The outcome of the intent the result opened next, if any.
    public let next: [IntentOutcome]
    /// How to undo what an ``UndoableIntent`` did, if it registered that.
    public var undoAction: UndoAction? = nil

    /// What to say for this outcome: the full dialog when voice is the only output, the
    /// supporting dialog when a snippet is shown on a screen.
    public func spokenText(voiceOnly: Bool) -> String? {
        guard let dialog else { return nil }
        let useSupporting = !voiceOnly && snippetText != nil
        return (useSupporting ? dialog.supporting : dialog.full).defaultValue
    }

    /// This outcome and every one it chained to, in the order they ran.
    public var chain: [IntentOutcome] {
        [self] + next.flatMap(\.chain)
    }

    public var description: String {
        var text = "\(intent) \(status)"
        if let spoken = dialog?.full.defaultValue { text += ": \"\(spoken)\"" }
        if let valueText { text += " value=\(valueText)" }
        if let errorDetail, status == .failed { text += " (\(errorDetail))" }
        return text
    }
}
