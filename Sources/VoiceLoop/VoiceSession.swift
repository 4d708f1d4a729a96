import Foundation
import Logging
import PhraseMatching
import Synchronization
import VoiceAudio
import VoiceIntents
import VoiceRecognition
import VoiceUnderstanding

/// The voice loop: hears a command, matches it, runs the intent (asking out loud when it must)
/// and says the answer, until the input ends.
package struct VoiceSession: Sendable {
    package let description: AppDescription
    /// The app's matcher and command grammar, made again when its names change.
    package let preparation: VoiceLoop.Preparation
    /// The matcher as the app's names are now.
    package var matcher: PhraseMatcher { preparation.matcher }
    /// The command grammar as the app's names are now.
    package var commands: SpeechGrammar { preparation.commands }
    package let channel: VoiceChannel
    package let transcript: TextSink
    package let voiceOnly: Bool
    package let once: Bool
    package let logger: Logger
    /// How sure it must be of a command to act on it.
    package var policy = ConfidencePolicy.off
    /// What the device knows without being told (`--context`), for phrases that take a value
    /// from it.
    package var context: [String: String] = [:]
    /// Told to stop after a turn.
    var stop: LoopStop?
    /// Shows each intent's outcome, unless `voiceOnly`.
    package var display: @Sendable (IntentOutcome) -> Void = { _ in }
    /// Told of every turn when it ends.
    package var onTurn: @Sendable (VoiceTurn) -> Void = { _ in }
    /// Told the model's name each time the wake word is heard.
    package var onWakeWord: @Sendable (String) -> Void = { _ in }

    /// Runs until the input ends, after one command with `once`, or after the turn under way
    /// when told to stop; returns how many utterances were not understood.
    package func run(_ runner: IntentRunner) async throws -> Int {
        var misunderstood = 0
        while !channel.ended, stop?.isStopping != true, !Task.isCancelled {
            for announcement in channel.takeAnnouncements() { try await say(announcement) }
            // A command said over the last reply is run now, as said: it was addressed to the
            // app that was speaking.
            if let said = channel.takeCommandSaidOverAReply() {
                stop?.beginTurn()
                if try await !turn(said, runner: runner) { misunderstood += 1 }
                if stop?.endTurn() == false || once { break }
                continue
            }
            let generation = preparation.generation
            guard
                let heard = try await channel.hearAfterWakeWord(
                    under: commands,
                    woke: { [transcript, logger, onWakeWord] model in
                        transcript.write("(\(model.phrase))\n")
                        onWakeWord(model.name)
                        logger.debug("heard the wake word", metadata: ["model": "\(model.name)"])
                    },
                    // The app's names changed: listen again with them.
                    stale: { [preparation] in preparation.generation != generation })
            else { continue }
            stop?.beginTurn()
            let command = try await addressed(heard)
            if let command, try await !turn(command, runner: runner) { misunderstood += 1 }
            if stop?.endTurn() == false || (once && command != nil) { break }
        }
        return misunderstood
    }

    /// Whether the person spoke to the app on purpose: after a wake phrase or wake word, every
    /// command is addressed; always listening, any sound may be the room talking.
    private var isAddressed: Bool { commands.wakePhrase != nil || channel.wakeWord != nil }

    /// The command in `heard`: without the wake phrase when there is one, or what is said next
    /// when the wake phrase came alone; `nil` when the app was not spoken to.
    private func addressed(_ heard: RecognitionResult) async throws -> RecognitionResult? {
        guard let wake = commands.wakePhrase else { return heard }
        guard let command = Self.command(in: heard, after: wake) else {
            logger.debug("not spoken to", metadata: ["transcript": "\(heard.text)"])
            return nil
        }
        guard command.text.isEmpty else { return command }
        // The wake phrase alone is only a sound until it is heard clearly: a television saying
        // something like it must not make the app answer.
        if let rejection = policy.rejection(of: heard) {
            transcript.write("> \(heard.text) (ignored: \(rejection))\n")
            logger.debug(
                "not spoken to", metadata: ["transcript": "\(heard.text)", "rejected": "\(rejection)"])
            return nil
        }
        transcript.write("> \(heard.text)\n")
        try await say("Yes?")
        guard let next = try await channel.hear(under: commands), !next.text.isEmpty else { return nil }
        // Saying the wake phrase again before the command is fine too.
        let followUp = Self.command(in: next, after: wake) ?? next
        return followUp.text.isEmpty ? nil : followUp
    }

    /// `heard` without the leading `wake` words (empty text when it was the wake phrase alone);
    /// `nil` when it does not start with them.
    package static func command(in heard: RecognitionResult, after wake: [String]) -> RecognitionResult? {
        let words = heard.text.split(separator: " ").map(String.init)
        guard words.starts(with: wake) else { return nil }
        return RecognitionResult(
            text: words.dropFirst(wake.count).joined(separator: " "), score: heard.score,
            frames: heard.frames, words: heard.words, confidence: heard.confidence)
    }

    /// Matches and runs one command, says the outcome, and logs the turn on one line; `false`
    /// when no phrase fits.
    ///
    /// A command heard with too little confidence, or one of the app's negative phrases, is
    /// ignored when the loop is always listening (it was most likely not meant for the app);
    /// after the wake phrase, it is answered as ``TurnPipeline`` says: "Sorry, I didn't
    /// understand that", or "Okay." to a negative phrase. A command that fits two shortcuts about
    /// equally is asked about by name, as a typed one is (``MissedCommand``).
    private func turn(_ heard: RecognitionResult, runner: IntentRunner) async throws -> Bool {
        let recognized = ContinuousClock.now
        channel.startTurn()
        let pipeline = TurnPipeline(
            description: description, matcher: matcher, policy: policy, context: context)
        var matched = recognized
        // What was heard is shown before the runner asks its first question.
        let (turn, understanding) = await pipeline.turn(heard: heard, addressed: isAddressed, runner: runner)
        {
            plan in
            matched = ContinuousClock.now
            if case .ignore(let rejection) = plan {
                transcript.write("> \(heard.readableText) (ignored: \(rejection))\n")
            } else {
                transcript.write("> \(heard.readableText)\n")
            }
        }
        let done = ContinuousClock.now
        var metadata = turn.metadata.merging([
            "transcript": "\(heard.text)", "score": "\(heard.score)",
            "match": "\(Self.milliseconds(matched - recognized))",
        ]) { $1 }
        if let confidence = heard.confidence {
            metadata["confidence"] = "\(String(format: "%.2f", understanding.confidence))"
            metadata["heard"] = "\(String(format: "%.3f", confidence.value))"
        }
        var replies: [String] = []
        var rejection: String?
        /// When the first reply began, as the log tells it.
        let firstReply = { self.channel.firstReply.map { Self.milliseconds($0 - recognized) } ?? "-" }
        switch turn.plan {
        case .ignore(let reason):
            rejection = "\(reason)"
        case .answer(let reply, let reason):
            rejection = "\(reason)"
            replies.append(reply)
            try await say(reply)
            metadata["reply"] = "\(firstReply())"
        case .run, .runInOrder:
            var interrupted = false
            for step in turn.steps {
                if !voiceOnly { display(step) }
                // A question ended by a command said over it is not answered "cancelled": the
                // command runs next and answers for itself.
                if step.status == .cancelled && channel.hasCommandSaidOverAReply { interrupted = true }
                if !interrupted, let spoken = step.spokenText(voiceOnly: voiceOnly) {
                    replies.append(spoken)
                    interrupted = try await say(spoken)
                }
                if let detail = step.errorDetail { logger.error("\(step.intent) failed: \(detail)") }
            }
            if turn.leftTheRest, !interrupted {
                replies.append(TurnReply.leftTheRest)
                try await say(TurnReply.leftTheRest)
            }
            metadata["done"] = "\(Self.milliseconds(done - recognized))"
            metadata["reply"] = "\(firstReply())"
        }
        logger.debug("turn", metadata: metadata)
        onTurn(
            VoiceTurn(
                heard: heard.readableText, confidence: heard.confidence.map { _ in understanding.confidence },
                outcomes: turn.outcomes, rejection: rejection, replies: replies))
        return turn.outcome != nil
    }

    /// Says `text`; `true` when the person cut it short (a command said over it is run next).
    @discardableResult
    private func say(_ text: String) async throws -> Bool {
        transcript.write("< \(text)\n")
        switch try await channel.say(text) {
        case .cancel(let said):
            transcript.write("> \(said)\n")
            return true
        case .command, .wakeWord:
            return true
        case nil:
            return false
        }
    }

    /// `duration` as whole milliseconds with a unit ("12 ms").
    package static func milliseconds(_ duration: Duration) -> String {
        "\(duration.components.seconds * 1_000 + duration.components.attoseconds / 1_000_000_000_000_000) ms"
    }
}

extension Understanding.Rejection {
    /// Whether the sound was most likely not meant for the app at all (rather than meant and
    /// misunderstood): an always-listening loop stays quiet about it.
    package var meansNotForTheApp: Bool {
        switch self {
        case .lowConfidence, .negativePhrase, .nothingHeard, .notACommand, .tooMuchAroundTheWords: true
        case .noMatch: false
        }
    }

    /// Whether the words fit a command, but were heard too unsurely to act on.
    package var isLowConfidence: Bool {
        if case .lowConfidence = self { true } else { false }
    }
}

/// Set once, from a task's cancellation handler, and read on the thread that plays a reply.
final class CancelFlag: Sendable {
    private let flag = Atomic(false)

    func set() { flag.store(true, ordering: .relaxed) }

    @Sendable func isSet() -> Bool { flag.load(ordering: .relaxed) }
}
