import VoiceIntents
import VoiceRecognition
import VoiceUnderstanding

/// How sure the voice loop must be of what it heard before it acts: one bar for commands and
/// ordinary answers, a higher one for answers that confirm something or set off something that
/// cannot be undone. Below the bar, the loop ignores a command it was not addressed for (always
/// listening), and says "Sorry, I didn't understand that" when it was (after the wake phrase), or
/// "Sorry, I didn't catch that" and asks again in answer to its own question, rather than
/// guessing.
public struct ConfidencePolicy: Sendable, Hashable {
    /// The lowest confidence acted on for commands and answers (0: any utterance that fits).
    public var minimumConfidence: Double
    /// The lowest confidence taken as an answer to a confirmation, or to a question whose answer
    /// does something that cannot be undone.
    public var confirmation: Double

    /// Seconds of an answer to a confirmation (or to a question whose answer cannot be undone)
    /// that may lie outside its words beyond the trailing silence that ends every utterance;
    /// `nil` for no limit. A yes or a no is short: a longer sentence forced onto one (the
    /// television, talk in the room) has seconds of it heard as silence around the words.
    /// Chosen by `answer-benchmark` (`Benchmarks/Recognition/README.md`, "Answers to a
    /// confirmation").
    public var confirmationSlack: Double? = 0.7
    /// The same for an answer to any other question (a value, a choice): names and numbers are
    /// longer than a yes, and a name's grammar covers more of a sentence. Chosen by
    /// `answer-benchmark --question landmark` and `number` (`Benchmarks/Recognition/README.md`,
    /// "Answers to a confirmation").
    public var answerSlack: Double? = 1.0
    /// The silence that ends an utterance (`--silence`, the manifest's `trailingSilence`).
    public var trailingSilence = 0.5
    /// How much worse per frame than the rest of its sentence a value's words may fit the sound
    /// before the loop asks for the value rather than taking it
    /// (``RecognitionResult/valueMisfitMargin``); `nil` takes every value heard.
    public var valueMargin: Double? = RecognitionResult.valueMisfitMargin

    /// The policy for a command said over one of the loop's replies, which cuts the reply short:
    /// the confirmation bar, not the commands' own. What is left of the echo mixed with a voice
    /// was once heard as a command at 0.82 (a canceller out of step on a busy machine, the
    /// commands' bar 0.75). A command under it but over the commands' own bar runs when heard
    /// the same again from where the reply was turned down (`VoiceChannel.HeardCommand`).
    package var overReply: ConfidencePolicy {
        var policy = self
        policy.minimumConfidence = confirmation
        return policy
    }

    /// Acts on everything the grammar fits, whatever its confidence (answers still have
    /// ``confirmationSlack`` and ``answerSlack``).
    public static let off = ConfidencePolicy(minimumConfidence: 0, confirmation: 0)

    /// A policy with `minimumConfidence` for commands and, unless given, a confirmation bar halfway from
    /// it to certainty (0.5 → 0.75).
    public init(minimumConfidence: Double, confirmation: Double? = nil) {
        self.minimumConfidence = minimumConfidence
        self.confirmation = max(
            minimumConfidence, confirmation ?? (minimumConfidence == 0 ? 0 : (1 + minimumConfidence) / 2))
    }

    /// Why `heard` is not taken as an answer to `question`: a confidence under
    /// ``bar(for:)``, or more sound around the words than ``confirmationSlack`` (for a
    /// confirmation) or ``answerSlack`` allows; `nil` when it is taken.
    package func rejection(ofAnswer heard: RecognitionResult, to question: ConversationQuestion)
        -> Understanding.Rejection?
    {
        if let rejection = rejection(of: heard, bar: bar(for: question)) { return rejection }
        guard let slack = demandsMore(question) ? confirmationSlack : answerSlack else {
            return nil
        }
        let limit = trailingSilence + slack
        return heard.secondsOutsideWords > limit
            ? .tooMuchAroundTheWords(heard.secondsOutsideWords, limit: limit) : nil
    }

    /// The bar an answer to `question` must clear.
    package func bar(for question: ConversationQuestion) -> Double {
        demandsMore(question) ? confirmation : minimumConfidence
    }

    /// Whether `question` confirms something or sets off something that cannot be undone.
    private func demandsMore(_ question: ConversationQuestion) -> Bool {
        question.kind == .confirmation || question.isDestructive
    }

    /// Why `heard` is not acted on when its confidence is under `bar` (``minimumConfidence`` unless given);
    /// `nil` when it clears it.
    package func rejection(of heard: RecognitionResult, bar: Double? = nil) -> Understanding.Rejection? {
        let bar = bar ?? minimumConfidence
        guard let confidence = heard.confidence?.value, confidence < bar else { return nil }
        return .lowConfidence(confidence, minimumConfidence: bar)
    }
}
