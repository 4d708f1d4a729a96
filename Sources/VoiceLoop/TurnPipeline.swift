import Logging
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

    /// What a turn came to: what a front end says, shows and logs of it.
    package struct Turn: Sendable {
        /// What was done with the command.
        package let plan: Plan
        /// What the shortcut did, when one ran.
        package let outcome: IntentOutcome?

        /// The sentences to say, in order: the answer when nothing ran, else what each step of
        /// the outcome says (the full dialog when `voiceOnly`, else the supporting one); none when
        /// the command was ignored.
        package func replies(voiceOnly: Bool) -> [String] {
            switch plan {
            case .ignore: []
            case .answer(let reply, _): [reply]
            case .run: outcome?.chain.compactMap { $0.spokenText(voiceOnly: voiceOnly) } ?? []
            }
        }

        /// The turn's fields for the log: the intents that ran, how it ended and with what
        /// values, or why nothing ran.
        package var metadata: Logger.Metadata {
            switch plan {
            case .ignore(let rejection), .answer(_, let rejection):
                return ["intent": "none", "rejected": "\(rejection)"]
            case .run(let match):
                guard let outcome else { return ["intent": "\(match.intent)"] }
                return [
                    "intent": "\(outcome.chain.map(\.intent).joined(separator: " > "))",
                    "status": "\(outcome.chain.last?.status.rawValue ?? "")",
                    "parameters": "\(outcome.parameters)",
                ]
            }
        }
    }

    /// One turn of a command the recognizer heard: planned as ``plan(heard:addressed:)`` plans
    /// it, and the shortcut run with `runner` when it is to run.
    ///
    /// - Parameter beforeRunning: Told the plan before anything runs, so that the front end can
    ///   show what was heard before the runner asks its first question.
    package func turn(
        heard: RecognitionResult, addressed: Bool, runner: IntentRunner,
        beforeRunning: (Plan) -> Void = { _ in }
    ) async -> (Turn, Understanding) {
        let (plan, understanding) = await self.plan(heard: heard, addressed: addressed)
        beforeRunning(plan)
        return (await carryOut(plan, with: runner), understanding)
    }

    /// One turn of a typed command: planned as ``plan(typed:)`` plans it, and the shortcut run
    /// with `runner` when it is to run.
    package func turn(typed text: String, runner: IntentRunner) async -> (Turn, MatchResult) {
        let (plan, result) = await self.plan(typed: text)
        return (await carryOut(plan, with: runner), result)
    }

    /// Runs what `plan` says to run.
    private func carryOut(_ plan: Plan, with runner: IntentRunner) async -> Turn {
        guard case .run(let match) = plan else { return Turn(plan: plan, outcome: nil) }
        return Turn(plan: plan, outcome: await run(match, with: runner))
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
