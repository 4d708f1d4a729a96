import VoiceIntents

/// One command the voice loop heard, and what came of it: handed to the loop's `onTurn` at the
/// end of every turn, so that a program embedding the loop knows what ran without reading its
/// transcript.
///
/// ```swift
/// let loop = VoiceLoop(app: app, input: input, mouth: mouth, configuration: configuration,
///                      logger: logger) { turn in
///     print(turn.outcome?.intent ?? "nothing ran", turn.replies)
/// }
/// ```
public struct VoiceTurn: Sendable {
    /// What was heard, as the transcript writes it ("navigate to the map").
    public let heard: String
    /// How sure the loop was that it was this command, from 0 to 1 (the recognizer's confidence
    /// times the phrase match's score); `nil` when the recognizer measured none.
    public let confidence: Double?
    /// How each intent's run ended, with its dialog, parameters and any intents it chained to,
    /// in the order said: one for a command, several for commands said together ("… and …"),
    /// up to the first that did not complete; empty when no intent ran.
    public let outcomes: [IntentOutcome]
    /// How the intent's run ended; of several, the first that did not complete, else the last;
    /// `nil` when no intent ran.
    public var outcome: IntentOutcome? { outcomes.thatDecides }
    /// Why nothing ran ("confidence 0.41 below 0.75", "no match"); `nil` when an intent ran.
    public let rejection: String?
    /// What the loop said at the end of the turn, in order: the outcome's dialog, or "Sorry, I
    /// didn't understand that."; empty when it stayed quiet. Questions asked while the intent ran
    /// are not among them.
    public let replies: [String]

    public init(
        heard: String, confidence: Double?, outcomes: [IntentOutcome], rejection: String?, replies: [String]
    ) {
        self.heard = heard
        self.confidence = confidence
        self.outcomes = outcomes
        self.rejection = rejection
        self.replies = replies
    }
}

extension [IntentOutcome] {
    /// Of the outcomes of commands run in order, the one that says how the turn went: the first
    /// that did not complete (the rest were left undone), else the last.
    var thatDecides: IntentOutcome? { first { $0.status != .completed } ?? last }
}
