import Speech
import VoiceIntents

/// How sure the voice loop must be of what it heard before it acts: one bar for commands and
/// ordinary answers, a higher one for answers that confirm something or set off something that
/// cannot be undone. Below the bar, the loop ignores a command it was not addressed for (always
/// listening), and says "Sorry, I didn't catch that" when it was (after the wake phrase, or in
/// answer to its own question), asking again rather than guessing.
struct ConfidencePolicy: Sendable, Hashable {
    /// The lowest confidence acted on for commands and answers (0: any utterance that fits).
    var minimum: Double
    /// The lowest confidence taken as an answer to a confirmation, or to a question whose answer
    /// does something that cannot be undone.
    var confirmation: Double

    /// Acts on everything the grammar fits, whatever its confidence.
    static let off = ConfidencePolicy(minimum: 0, confirmation: 0)

    /// A policy with `minimum` for commands and, unless given, a confirmation bar halfway from
    /// it to certainty (0.5 → 0.75).
    init(minimum: Double, confirmation: Double? = nil) {
        self.minimum = minimum
        self.confirmation = max(minimum, confirmation ?? (minimum == 0 ? 0 : (1 + minimum) / 2))
    }

    /// The bar an answer to `question` must clear.
    func bar(for question: ConversationQuestion) -> Double {
        question.kind == .confirmation || question.isDestructive ? confirmation : minimum
    }

    /// Why `heard` is not acted on when its confidence is under `bar` (``minimum`` unless given);
    /// `nil` when it clears it.
    func rejection(of heard: RecognitionResult, bar: Double? = nil) -> Understanding.Rejection? {
        let bar = bar ?? minimum
        guard let confidence = heard.confidence?.value, confidence < bar else { return nil }
        return .lowConfidence(confidence, threshold: bar)
    }
}
