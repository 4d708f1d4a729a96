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
        /// Runs each shortcut of a sentence that joins several ("turn off the kitchen light and
        /// lock the front door"; ``PhraseMatcher/matchJoined(_:context:whole:)``), in the order
        /// said: one that does not complete (a question declined, a failure) stops the rest.
        case runInOrder([PhraseMatch])

        /// The shortcuts it runs, in order; none when it runs nothing.
        package var matches: [PhraseMatch] {
            switch self {
            case .ignore, .answer: []
            case .run(let match): [match]
            case .runInOrder(let matches): matches
            }
        }
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
        if let best = understanding.command, best.score >= 1 { return (.run(best), understanding) }
        // Two commands or more in one breath, each as sure as one alone would have to be.
        let joinable = understanding.rejection.map { $0 == .noMatch || $0.isLowConfidence } ?? true
        if joinable,
            let parts = await matcher.matchJoined(
                heard.commandText, context: context, whole: understanding.match)
        {
            let heardParts = parts.map {
                Understanding(
                    heard: heard, match: $0, minimumConfidence: policy.minimumConfidence,
                    valueMargin: policy.valueMargin)
            }
            if heardParts.allSatisfy({ $0.rejection == nil }) {
                return (.runInOrder(heardParts.compactMap(\.command)), understanding)
            }
        }
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
        if let parts = await matcher.matchJoined(text, context: context, whole: result) {
            return (.runInOrder(parts.compactMap(\.best)), result)
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
        /// What each shortcut that ran did, in order: one for a single command, up to the one
        /// that did not complete for several.
        package let outcomes: [IntentOutcome]

        package init(plan: Plan, outcomes: [IntentOutcome] = []) {
            self.plan = plan
            self.outcomes = outcomes
        }

        /// What the shortcut did, when one ran; of several, the first that did not complete,
        /// else the last.
        package var outcome: IntentOutcome? { outcomes.thatDecides }

        /// Whether commands said after one that did not complete were left undone.
        package var leftTheRest: Bool { outcomes.count < plan.matches.count }

        /// Every step that ran, in order: each outcome's chain, one after another.
        package var steps: [IntentOutcome] { outcomes.flatMap(\.chain) }

        /// The sentences to say, in order: the answer when nothing ran, else what each step
        /// says (the full dialog when `voiceOnly`, else the supporting one), and, when commands
        /// were left undone, that they were; none when the command was ignored.
        package func replies(voiceOnly: Bool) -> [String] {
            switch plan {
            case .ignore: []
            case .answer(let reply, _): [reply]
            case .run, .runInOrder:
                steps.compactMap { $0.spokenText(voiceOnly: voiceOnly) }
                    + (leftTheRest ? [TurnReply.leftTheRest] : [])
            }
        }

        /// The turn's fields for the log: the intents that ran, how it ended and with what
        /// values, or why nothing ran.
        package var metadata: Logger.Metadata {
            switch plan {
            case .ignore(let rejection), .answer(_, let rejection):
                return ["intent": "none", "rejected": "\(rejection)"]
            case .run, .runInOrder:
                guard !outcomes.isEmpty else {
                    return ["intent": "\(plan.matches.map(\.intent).joined(separator: ", "))"]
                }
                // Several commands: each one's chain, separated by commas.
                return [
                    "intent":
                        "\(outcomes.map { $0.chain.map(\.intent).joined(separator: " > ") }.joined(separator: ", "))",
                    "status":
                        "\(outcomes.map { $0.chain.last?.status.rawValue ?? "" }.joined(separator: ", "))",
                    "parameters": "\(outcomes.map { "\($0.parameters)" }.joined(separator: ", "))",
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
        return (await carryOut(plan, with: runner, heard: heard), understanding)
    }

    /// One turn of a typed command: planned as ``plan(typed:)`` plans it, and the shortcut run
    /// with `runner` when it is to run.
    package func turn(typed text: String, runner: IntentRunner) async -> (Turn, MatchResult) {
        let (plan, result) = await self.plan(typed: text)
        return (await carryOut(plan, with: runner), result)
    }

    /// Runs what `plan` says to run, in order, until one does not complete. Of a command that
    /// was `heard`, free text that is none of its parameter's suggestions is read back first.
    private func carryOut(
        _ plan: Plan, with runner: IntentRunner, heard: RecognitionResult? = nil
    ) async -> Turn {
        var outcomes: [IntentOutcome] = []
        for match in plan.matches {
            var readBack: ReadBack?
            if let heard {
                // One command is read back in the person's words; one of several, by its values.
                let unsure = matcher.unsuggestedFreeText(in: match)
                let sentence =
                    plan.matches.count == 1 ? SpeechGrammar.withoutHesitation(heard.commandText) : nil
                readBack = unsure.isEmpty ? nil : ReadBack(sentence: sentence, values: unsure)
            }
            let outcome = await run(match, with: runner, readingBack: readBack)
            outcomes.append(outcome)
            guard outcome.status == .completed else { break }
        }
        return Turn(plan: plan, outcomes: outcomes)
    }

    /// Runs the shortcut `match` reached, reading the command back first when `readBack` says so.
    package func run(
        _ match: PhraseMatch, with runner: IntentRunner, readingBack readBack: ReadBack? = nil
    ) async -> IntentOutcome {
        await runner.run(
            description.shortcuts[match.shortcutIndex].intent, parameters: match.runnerParameters,
            readingBack: readBack)
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
    /// After one of several commands said together did not complete: the rest were not run.
    package static let leftTheRest = "I left the rest undone."
}
