import PhraseMatching
import VoiceIntents
import VoiceRecognition
import VoiceUnderstanding

/// One turn, from the words of a command to the intent that runs or the sentence said instead,
/// written once for every front end: the voice loop, the typed session and Wyoming's `handle`.
///
/// Each front end hears (or reads) the command and says (or prints, or sends) the replies its
/// own way; what the words come to, and what is said when they come to nothing, is decided here.
package struct TurnPipeline: Sendable {
    package let description: AppDescription
    package let matcher: PhraseMatcher
    /// How sure it must be of a heard command to act on it.
    package var policy: ConfidencePolicy
    /// What the device knows without being told (`--context`, a satellite's room), for phrases
    /// that take a value from it.
    package var context: [String: String]

    package init(
        description: AppDescription, matcher: PhraseMatcher, policy: ConfidencePolicy = .off,
        context: [String: String] = [:]
    ) {
        self.description = description
        self.matcher = matcher
        self.policy = policy
        self.context = context
    }

    /// What a turn does with a command.
    package enum Plan: Sendable {
        /// Nothing, not even a reply: the sound was most likely not meant for the app.
        case ignore(Understanding.Rejection)
        /// Says `reply` and runs nothing.
        case answer(String, rejection: Understanding.Rejection)
        /// Runs the shortcut that `match` reached.
        case run(PhraseMatch)
    }

    /// The plan for a command the recognizer heard, with the ``Understanding`` it comes from.
    ///
    /// - Parameter addressed: Whether the person spoke to the app on purpose (after a wake
    ///   phrase). When not, a command rejected as most likely not meant for the app is ignored
    ///   rather than answered.
    package func plan(heard: RecognitionResult, addressed: Bool) async -> (Plan, Understanding) {
        let understanding = Understanding(
            heard: heard, match: await matcher.match(heard.commandText, context: context),
            minimumConfidence: policy.minimumConfidence, valueMargin: policy.valueMargin)
        guard let rejection = understanding.rejection else {
            return (.run(understanding.match.best!), understanding)
        }
        if !addressed, rejection.meansNotForTheApp { return (.ignore(rejection), understanding) }
        return (
            .answer(reply(to: understanding.match, rejection: rejection), rejection: rejection), understanding
        )
    }

    /// The plan for a typed command (always addressed; no confidence to bar it), with the
    /// matcher's result.
    package func plan(typed text: String) async -> (Plan, MatchResult) {
        let result = await matcher.match(text, context: context)
        if let negative = result.negativePhrase {
            return (
                .answer(
                    reply(to: result, rejection: .negativePhrase(negative)),
                    rejection: .negativePhrase(negative)), result
            )
        }
        guard let best = result.best else {
            return (.answer(reply(to: result, rejection: .noMatch), rejection: .noMatch), result)
        }
        return (.run(best), result)
    }

    /// Runs the shortcut `match` reached.
    package func run(_ match: PhraseMatch, with runner: IntentRunner) async -> IntentOutcome {
        await runner.run(
            description.shortcuts[match.shortcutIndex].intent, parameters: match.runnerParameters)
    }

    /// What is said to a command that runs nothing: the two shortcuts it could be, when it fits
    /// both about equally; "Okay." to a negative phrase; otherwise that it was not understood.
    package func reply(to result: MatchResult, rejection: Understanding.Rejection) -> String {
        if rejection == .noMatch, let question = MissedCommand.question(for: result, in: description) {
            return question
        }
        if case .negativePhrase = rejection { return TurnReply.negativePhrase }
        return TurnReply.notUnderstood
    }
}

/// The sentences every front end says when a turn does not go as asked.
package enum TurnReply {
    /// To a command that fits no phrase, or that was heard too unsurely to act on.
    package static let notUnderstood = "Sorry, I didn't understand that."
    /// To one of the app's negative phrases ("never mind"): acknowledged, nothing done.
    package static let negativePhrase = "Okay."
    /// To a command that ran and said nothing, where a reply must be sent (Wyoming's `handled`).
    package static let done = "Done."
    /// To an intent that failed and said nothing of why.
    package static let failed = "Sorry, something went wrong."
}
