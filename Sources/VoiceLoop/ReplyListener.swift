import Dispatch
import Foundation
import Logging
import PhraseMatching
import Synchronization
import VoiceAudio
import VoiceIntents
import VoiceRecognition
import VoiceUnderstanding

/// A reply playing on a thread of its own, shared with the listener beside it: whether it has
/// ended, whether it is turned down for someone speaking over it, and whether to stop it.
final class ReplyPlayback: Sendable {
    private let stopped = Atomic(false)
    private let ducked = Atomic(false)
    private let finished = Atomic(false)
    private let started = Mutex<ContinuousClock.Instant?>(nil)
    private let ended = Mutex<ContinuousClock.Instant>(.now)
    private let failure = Mutex<(any Error)?>(nil)
    private let done = DispatchSemaphore(value: 0)

    /// Starts saying `text` through `mouth`, at ``BargeIn/duckedVolume`` while ``isDucked``,
    /// until it is said out, ``stop()`` is called or `cancelled` is set.
    init(_ text: String, mouth: Mouth, cancelled: CancelFlag) {
        BlockingThreads.shared.run { [self] in
            do {
                try mouth.say(
                    text, started: { self.started.withLock { $0 = .now } },
                    interrupted: { self.stopped.load(ordering: .relaxed) || cancelled.isSet() },
                    volume: { self.ducked.load(ordering: .relaxed) ? BargeIn.duckedVolume : 1 })
            } catch {
                failure.withLock { $0 = error }
            }
            ended.withLock { $0 = .now }
            finished.store(true, ordering: .relaxed)
            done.signal()
        }
    }

    /// Whether the reply has been said out or stopped.
    var hasFinished: Bool { finished.load(ordering: .relaxed) }

    /// Whether the reply plays turned down.
    var isDucked: Bool {
        get { ducked.load(ordering: .relaxed) }
        set { ducked.store(newValue, ordering: .relaxed) }
    }

    /// Stops the reply where it is.
    func stop() { stopped.store(true, ordering: .relaxed) }

    /// Waits for the reply to end; when it started to sound (`nil` when it never did) and when
    /// it ended (the mouth done with it: played out, cut short or failed). Throws what the
    /// mouth threw.
    func waitForTheEnd() throws -> (started: ContinuousClock.Instant?, ended: ContinuousClock.Instant) {
        done.wait()
        if let error = failure.withLock({ $0 }) { throw error }
        return (started.withLock { $0 }, ended.withLock { $0 })
    }
}

/// Listening to the microphone while a reply plays (barge-in), and what it came to.
///
/// The cancel words are listened for; when the mouth cancels its echo, the app's commands too
/// (``VoiceChannel/commandsOverReply``), and a cancel word or a command is taken only for a
/// person's (``BargeIn/isPerson(_:window:speechEnd:turnDown:)``: where the canceller let most of
/// the sound through, or, once the reply is turned down, where it did not fall with it). The
/// reply is turned down (``BargeIn/duckedVolume``) from the moment a person is heard over it
/// (``BargeIn/speakingOverEcho``) until what was said turns out to be nothing to act on. What
/// someone is still saying when the reply ends is given back to the recorder for whoever listens
/// next (unless the reply asked a question), and nothing is listened to before the canceller has
/// learnt the room. With a wake word, a command over the reply is taken only after it, as at any
/// other time: the wake word heard over the reply (where the canceller let it through) cuts the
/// reply short, and the command said after it is heard next; the cancel words need none. Without
/// a canceller the grammar holds the reply's own words too (its echo), and a cancel word the
/// reply says itself does not stop it.
struct ReplyListener {
    /// What the reply says, and whether it asks a question: what someone is still saying when a
    /// question ends is not given back.
    let text: String
    let asking: Bool
    let capture: ContinuousCapture
    let mouth: Mouth
    let recognizer: SpeechRecognizer
    let playback: ReplyPlayback
    let logger: Logger?
    /// Whether the mouth cancels its echo: then the reply is turned down for a person speaking
    /// over it, and what is left of the echo is told from a person by how much of it the
    /// canceller let through.
    let ducks: Bool
    /// With the echo cancelled, the app's commands heard over the reply; `nil` for the cancel
    /// words alone.
    let commands: VoiceChannel.CommandsOverReply?
    /// With the echo cancelled, the wake word that brings a command over the reply: the commands'
    /// grammar still takes in what is said over the reply (less of it is forced onto a cancel
    /// word), but only the wake word brings a command.
    let wakeWord: WakeWordDetector?
    /// The reply's own words: without a canceller, a cancel word among them is its echo.
    let replyWords: Set<String>

    /// What cut the reply short, `nil` while nothing has.
    private(set) var interruption: Interruption?
    /// Whether the words of someone still speaking (or what followed the wake word) were given
    /// back to the recorder.
    private(set) var handedBack = false
    /// The command said over the reply, for the loop to run next.
    private(set) var command: RecognitionResult?

    typealias Interruption = VoiceChannel.Interruption
    typealias HeardCommand = VoiceChannel.HeardCommand

    init(
        _ text: String, asking: Bool, capture: ContinuousCapture, mouth: Mouth, recognizer: SpeechRecognizer,
        playback: ReplyPlayback, commands: VoiceChannel.CommandsOverReply?, wakeWord: WakeWordDetector?,
        logger: Logger?
    ) {
        self.text = text
        self.asking = asking
        self.capture = capture
        self.mouth = mouth
        self.recognizer = recognizer
        self.playback = playback
        self.logger = logger
        ducks = mouth.cancelsEcho
        self.commands = ducks ? commands : nil
        self.wakeWord = ducks ? wakeWord : nil
        replyWords = Set(SpeechGrammar.spokenWords(text))
    }

    /// One utterance heard over the reply: what was read of it and how loud, and where the reply
    /// was turned down for it.
    struct Hearing {
        /// Whether the reply ended before the utterance did.
        var cut = false
        /// What followed the wake word in the chunk it was heard in, with the chunk's energy.
        var afterWakeWord: ContinuousCapture.MeasuredChunk?
        /// The chunks read since a little before speech started (all, until it has).
        var read: [ContinuousCapture.MeasuredChunk] = []
        var speaking = false
        /// Each chunk heard: its energy as recorded and as the canceller let it through...
        var energies: [(recorded: Double, heard: Double)] = []
        /// ...and what was played as it was recorded.
        var played: [Double] = []
        /// Where the reply was turned down, in `energies`, as counted from the decision.
        var turnDown: BargeIn.TurnDown?

        /// Where the reply was turned down, heard where what was played shows it
        /// (``BargeIn/turnDownHeard(played:decided:)``), else as counted.
        var turnedDown: BargeIn.TurnDown? {
            turnDown.map {
                BargeIn.TurnDown(
                    decided: $0.decided,
                    heardFrom: BargeIn.turnDownHeard(played: played, decided: $0.decided) ?? $0.heardFrom)
            }
        }

        /// The first chunk of `read`, counted in `energies`.
        var readFrom: Int { energies.count - read.count }
    }

    /// Listens until the reply has been said out or something said over it cut it short.
    mutating func listen() throws {
        try recognizer.useGrammar(
            ducks
                ? commands?.grammar()
                    ?? SpeechGrammar(answers: [.phrases(SpokenAnswer.cancelPhrases)], name: "barge_in_cancel")
                : SpeechGrammar(answers: [.echo(of: [text])], name: "barge_in"))
        while !playback.hasFinished {
            var hearing = Hearing()
            let heard = try recognizer.listen(
                timeout: 600, read: { read(into: &hearing) },
                speechStarted: { _ in
                    hearing.speaking = true
                    duckIfSpeaking(&hearing)
                })
            if hearing.cut, hearing.speaking, ducks { handBackIfStillSpeaking(hearing) }
            if hearing.afterWakeWord != nil {
                if wokenOverReply(hearing) { return }
                continue
            }
            guard let heard, !hearing.cut else { return }
            if let (acting, heard) = try acting(on: heard, hearing) {
                if case .command = acting { command = heard }
                interruption = acting
                playback.stop()
                return
            }
            playback.isDucked = false
        }
    }

    /// The next chunk the microphone recorded over the reply, noted in `hearing`; `nil` when the
    /// reply has ended (`cut`) or the wake word was heard in it.
    private func read(into hearing: inout Hearing) -> [Int16]? {
        while !playback.hasFinished, var measured = capture.readMeasured() {
            // Until the canceller has learnt the room, its echo is not listened to.
            guard mouth.echoCancellerHasLearnt else { continue }
            let chunk = measured.samples
            hearing.energies.append((measured.recordedEnergy, ContinuousCapture.energy(chunk)))
            hearing.played.append(measured.playedEnergy)
            if let wakeWord, let at = wakeWord.process(chunk) {
                measured.samples = Array(chunk[at...])
                hearing.afterWakeWord = measured
                return nil
            }
            hearing.read.append(measured)
            if !hearing.speaking, hearing.read.count > BargeIn.keptBeforeSpeech { hearing.read.removeFirst() }
            duckIfSpeaking(&hearing)
            return chunk
        }
        hearing.cut = true
        return nil
    }

    /// Turns the reply down once speech has started and a person's voice, not only what is left
    /// of the echo, has come through the canceller.
    private func duckIfSpeaking(_ hearing: inout Hearing) {
        guard ducks, hearing.speaking, !playback.isDucked,
            BargeIn.passed(hearing.energies.suffix(2)) > BargeIn.speakingOverEcho
        else { return }
        playback.isDucked = true
        let decided = hearing.energies.count - 1
        hearing.turnDown = BargeIn.TurnDown(
            decided: decided, heardFrom: decided + capture.backlog + BargeIn.turnDownDelay + 1)
        logger?.debug("someone speaks over the reply: turned down", metadata: ["reply": "\(text.prefix(40))"])
    }

    /// Someone still speaking when the reply ended: what was read of a person's words goes back
    /// to the recorder, and whoever listens next hears them from their start (the next command).
    /// After a question, it is as likely the question's own last words as someone's, and is
    /// dropped (logged all the same); so is what is left of the echo.
    private mutating func handBackIfStillSpeaking(_ hearing: Hearing) {
        // `energies` ends with the chunks `read` holds.
        let energies = hearing.energies
        let verdict = BargeIn.isPerson(
            energies, window: hearing.readFrom..<energies.count, speechEnd: energies.count,
            turnDown: hearing.turnedDown)
        let seconds = Double(hearing.read.count * capture.chunk) / Double(AudioFormat.recognizerSampleRate)
        logger?.debug(
            "still speaking when the reply ended",
            metadata: verdict.metadata.merging(["seconds": "\(seconds)"]) { $1 })
        if verdict.isPerson, !asking {
            capture.unread(hearing.read)
            handedBack = true
        }
    }

    /// Whether the wake word heard over the reply was a person's rather than the reply's own
    /// saying it (the word is about a second long): then the reply stops, and what followed the
    /// word goes back to the recorder for the command to be heard next.
    private mutating func wokenOverReply(_ hearing: Hearing) -> Bool {
        guard let afterWakeWord = hearing.afterWakeWord, let wakeWord else { return false }
        let verdict = BargeIn.wakeWordIsAPersons(
            hearing.energies, window: max(0, hearing.energies.count - 10)..<hearing.energies.count,
            turnDown: hearing.turnedDown)
        logger?.debug(
            "heard the wake word over the reply",
            metadata: verdict.metadata.merging(["model": "\(wakeWord.model.name)"]) { $1 })
        guard verdict.isPerson else {
            playback.isDucked = false
            return false
        }
        capture.unread([afterWakeWord])
        handedBack = true
        interruption = .wakeWord
        playback.stop()
        return true
    }

    /// What `heard` over the reply does: a cancel word, or a command the loop would run at its
    /// bar over a reply, ends the reply; `nil` for nothing to act on.
    ///
    /// With a canceller, a cancel word is taken when the canceller let most of the utterance
    /// through (a person), not little of it (what is left of the echo); the utterance is the
    /// last chunks heard, with the silence that ended it. Without, a cancel word the reply says
    /// itself ("The first, Cancel.") is its echo as likely as the person: only the others cut it
    /// short. Where nothing is acted on and the reply was down for most of a person's words, the
    /// utterance is heard again from there (``heardAgain(_:hearing:command:speechEnd:verdict:)``).
    private func acting(on heard: RecognitionResult, _ hearing: Hearing) throws -> (
        Interruption, RecognitionResult
    )? {
        let chunkSeconds = Double(capture.chunk) / Double(AudioFormat.recognizerSampleRate)
        let seconds = Double(heard.frames) / 100 + BargeIn.endingSilence
        let energies = hearing.energies
        let spoken = max(0, energies.count - Int((seconds / chunkSeconds).rounded(.up)))..<energies.count
        let speechEnd = energies.count - Int((BargeIn.endingSilence / chunkSeconds).rounded())
        let verdict = BargeIn.isPerson(
            energies, window: spoken, speechEnd: speechEnd, turnDown: hearing.turnedDown)
        log(heard, hearing, verdict: verdict, speechEnd: speechEnd)
        let said = SpeechGrammar.withoutHesitation(heard.text)
        let command =
            if let commands, wakeWord == nil, !said.isEmpty, verdict.isPerson, !SpokenAnswer.isCancel(said) {
                Self.waitFor { await commands.read(heard) }
            } else {
                HeardCommand?.none
            }
        var acting: (Interruption, RecognitionResult)?
        if SpokenAnswer.isCancel(said), ducks ? verdict.isPerson : !replyWords.contains(said) {
            acting = (.cancel(heard.text), heard)
        } else if HeardCommand.runs(command, again: nil) {
            acting = (.command(heard.text), heard)
        }
        return try heardAgain(
            heard, hearing: hearing, command: command, acting: acting, speechEnd: speechEnd,
            verdict: verdict) ?? acting
    }

    /// What hearing an utterance again from where the reply went down decides, when it was down
    /// for most of a person's words and nothing was acted on: before that the recognizer heard
    /// the echo as much as the person. A cancel word there ends the reply; a command the first
    /// hearing put between the two bars runs when heard the same again; no other command (words
    /// cut at the turn-down are heard as other commands). Over a question, a command is also
    /// heard again without what came before the words
    /// (``BargeIn/heardAgainOverAQuestionFrom(turnDown:_:start:speechEnd:)``), and a cancel
    /// word wins. Not with a wake word, nor over other replies. `nil` where hearing again
    /// changes nothing. Why, and what each costs: `Benchmarks/Recognition/echo-cancellation.md`.
    private func heardAgain(
        _ heard: RecognitionResult, hearing: Hearing, command: HeardCommand?,
        acting: (Interruption, RecognitionResult)?, speechEnd: Int, verdict: BargeIn.Verdict
    ) throws -> (Interruption, RecognitionResult)? {
        guard ducks, wakeWord == nil, verdict.isPerson, let down = hearing.turnedDown else { return nil }
        let start = hearing.readFrom
        let runsCommand = if case .command = acting?.0 { true } else { false }
        let from: [Int] =
            if acting == nil {
                BargeIn.heardAgainFrom(turnDown: down, start: start, speechEnd: speechEnd).map { [$0] } ?? []
            } else if asking, runsCommand {
                BargeIn.heardAgainOverAQuestionFrom(
                    turnDown: down, hearing.energies, start: start, speechEnd: speechEnd)
            } else {
                []
            }
        for first in from {
            let again = try recognizer.recognize(hearing.read[(first - start)...].flatMap(\.samples))
            logger?.debug(
                "heard again",
                metadata: [
                    "transcript": "\(again.text)", "from": "chunk \(first - start)",
                    "heard": "\(again.confidence.map { String(format: "%.3f", $0.value) } ?? "-")",
                ])
            let saidAgain = SpeechGrammar.withoutHesitation(again.text)
            if SpokenAnswer.isCancel(saidAgain) {
                return (.cancel(again.text), again)
            } else if command?.clears == .appBar, let commands, !saidAgain.isEmpty,
                HeardCommand.runs(command, again: Self.waitFor { await commands.read(again) })
            {
                logger?.debug("heard the same command again: run", metadata: ["transcript": "\(heard.text)"])
                return (.command(heard.text), heard)
            }
        }
        return nil
    }

    /// `heard` over the reply, at debug: with a canceller, how much it let through and how it
    /// stands, and where the reply was turned down, counted from the utterance's first chunk.
    private func log(_ heard: RecognitionResult, _ hearing: Hearing, verdict: BargeIn.Verdict, speechEnd: Int)
    {
        guard let logger else { return }
        var metadata: Logger.Metadata = ["transcript": "\(heard.text)"]
        if let confidence = heard.confidence {
            metadata["heard"] = "\(String(format: "%.3f", confidence.value))"
        }
        if ducks {
            let metrics = mouth.echoMetrics
            metadata.merge(verdict.metadata) { $1 }
            metadata["held_back"] = "\(Int(((metrics?.heldBack ?? 0) * 1000).rounded())) ms"
            if let erle = metrics?.echoReturnLossEnhancement { metadata["erle"] = "\(erle) dB" }
            if let down = hearing.turnedDown {
                let from = hearing.readFrom
                metadata["chunks"] =
                    "\(hearing.read.count), turned down at \(down.decided - from), heard down at \(down.heardFrom - from), speech to \(speechEnd - from)"
            }
        }
        logger.debug("heard over the reply", metadata: metadata)
    }

    /// What `body` gives, waited for on this thread (the channel's own, never one of
    /// Swift's cooperative threads).
    private static func waitFor<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
        let result = Mutex<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let value = await body()
            result.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        return result.withLock { $0! }
    }
}
