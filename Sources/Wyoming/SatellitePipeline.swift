import Foundation
import Logging
import VoiceAudio
import VoiceLoop

/// A satellite's conversation on one connection, started by its `run-pipeline`: the voice loop,
/// hearing the microphone audio the satellite streams and speaking back to it.
///
/// - From the `asr` stage (the satellite heard its wake word) it holds one command: the
///   follow-up questions it needs, spoken back as audio, their answers heard under the answer
///   grammar, the intent run and the reply spoken. With `restart_on_end`, or from the `wake`
///   stage (a satellite that streams all the time), it goes on for as long as the audio does,
///   acting on what is said to the app (after its wake phrase, when it has one). From `wake`
///   with a `wake_word_name` the server hears (``WakeWordDetector``), each command waits for that
///   wake word, and `detection` tells the satellite when it is heard.
/// - Every reply goes back as `synthesize` with its text, then, when the pipeline ends at `tts`,
///   as audio (`audio-start`, `audio-chunk`s, `audio-stop`) at eSpeak NG's rate. While the
///   satellite plays it its microphone hears it too: that much audio is not listened to, or
///   until the satellite says `played`.
/// - At the end of each command's turn, a `transcript` with what was heard.
///
/// `audio-stop` from the satellite ends the pipeline after the turn under way.
///
/// The connection runs it (``run()``) as a child task of its own, beside its reading.
package final class SatellitePipeline: Sendable {
    let microphone = SatelliteMicrophone()
    private let app: WyomingApp
    private let stages: Stages
    private let peer: String
    /// The area the satellite is in, from its `info`: the context's area for its commands.
    private let area: String?
    /// The connection's device, for the timers its commands start (its session sends their
    /// events).
    private let device: String?
    private let logger: Logger
    private let send: @Sendable (WyomingEvent) -> Void
    /// Finished when ``run()`` has ended.
    private let ended = AsyncStream.makeStream(of: Never.self)

    /// `run-pipeline`'s stages, checked: a failure that says why when the server cannot run them.
    package struct Stages: Sendable {
        /// One command, then the pipeline ends.
        let once: Bool
        /// Replies are spoken (the pipeline ends at `tts`), not only given as text.
        let speaks: Bool
        /// The trained wake word heard before each command (from `wake`), `nil` for none.
        let wakeWord: String?

        static func of(_ event: WyomingEvent) -> Result<Stages, WyomingFrameError> {
            let start = event.data["start_stage"]?.string ?? ""
            let end = event.data["end_stage"]?.string ?? ""
            guard ["wake", "asr"].contains(start) else {
                return .failure(
                    WyomingFrameError(
                        "a pipeline starts here at \"wake\" or \"asr\" (audio), not \"\(start)\""))
            }
            guard ["handle", "tts"].contains(end) else {
                return .failure(
                    WyomingFrameError(
                        "a pipeline ends here at \"handle\" or \"tts\" (the command run), not \"\(end)\""))
            }
            let restarts = event.data["restart_on_end"] == .bool(true)
            // The wake word the satellite asks the server to hear; the first it names.
            let wakeWord =
                start == "wake"
                ? event.data["wake_word_name"]?.string
                    ?? event.data["wake_word_names"]?.array?.compactMap(\.string).first : nil
            return .success(
                Stages(once: start == "asr" && !restarts, speaks: end == "tts", wakeWord: wakeWord))
        }
    }

    /// A conversation to run; `send` is handed every event for the satellite, in order.
    init(
        app: WyomingApp, stages: Stages, peer: String, area: String? = nil, device: String? = nil,
        logger: Logger, send: @escaping @Sendable (WyomingEvent) -> Void
    ) {
        self.app = app
        self.stages = stages
        self.peer = peer
        self.area = area
        self.device = device
        self.logger = logger
        self.send = send
    }

    /// Holds the conversation until it ends: after one command, when the audio does, when it is
    /// stopped, or at graceful shutdown once the turn under way is over.
    func run() async {
        defer { ended.continuation.finish() }
        let microphone = microphone
        var configuration = app.configuration
        configuration.once = stages.once
        configuration.hasScreen = false
        // The satellite's own area wins over the server's `--context area=…`.
        if let area { configuration.context["area"] = area }
        // Its timers are the session's to send; the satellite rings them.
        configuration.device = device
        configuration.announcesTimers = false
        let (app, stages, peer, logger, send) = (app, stages, peer, logger, send)
        if let wakeWord = stages.wakeWord {
            configuration.wakeWord = wakeWord
            let setting = app.wakeWordSetting(for: wakeWord)
            configuration.wakeWordCutoff = setting.cutoff
            configuration.checksWakeWord = setting.checkMargin != nil
            if let margin = setting.checkMargin { configuration.wakeWordMargin = margin }
            configuration.onWakeWord = { name in send(.detection(name, milliseconds: nil)) }
        }
        let voice = app.voice
        let mouth = Mouth(
            replies: { text, speech in
                send(.synthesize(text, voice: voice))
                guard stages.speaks else { return }
                for event in WyomingSession.audioEvents(
                    speech.int16Samples, sampleRate: speech.sampleRate)
                { send(event) }
                microphone.mute(
                    for: Int(speech.duration * Double(AudioFormat.recognizerSampleRate))
                        + SatelliteMicrophone.echoMargin)
            }, logger: logger)
        let input = VoiceInput(name: "satellite \(peer)") { microphone.read() }
        let loop = VoiceLoop(
            app: app.app, input: input, mouth: mouth, configuration: configuration, logger: logger,
            preparation: app.preparation
        ) { turn in
            send(.transcript(turn.heard, language: app.locale))
        }
        do {
            try await loop.run()
        } catch {
            logger.error("the satellite's pipeline failed", metadata: ["error": "\(error)"])
            send(WyomingEvent.error("\(error)"))
        }
        microphone.close()
        logger.debug("pipeline ended")
    }

    /// Whether the conversation has ended: after one command, or when the audio did.
    var hasEnded: Bool { microphone.isClosed }

    /// Ends the conversation (the turn under way is finished) and waits for it.
    func stop() async {
        microphone.end()
        for await _ in ended.stream {}
    }
}

/// What a satellite's microphone streams, at 16 kHz, as the voice loop reads it: ``read()``
/// waits for the next chunk. Audio that comes while the satellite plays a reply is dropped.
final class SatelliteMicrophone: @unchecked Sendable {  // its state is behind `condition`
    private let condition = NSCondition()
    private var chunks: [[Int16]] = []
    private var queued = 0
    private var ended = false
    private var closed = false
    /// Samples still to drop: the satellite is playing a reply.
    private var muted = 0

    /// Heard past a reply's end: the satellite's speaker and buffers trail it (0.3 s).
    static let echoMargin = AudioFormat.recognizerSampleRate * 3 / 10
    /// The most audio held for a loop that has not read it (30 s); older audio is dropped.
    static let longest = AudioFormat.recognizerSampleRate * 30

    func append(_ samples: [Int16]) {
        condition.withLock {
            guard !ended else { return }
            var samples = samples[...]
            if muted > 0 {
                let dropped = min(muted, samples.count)
                muted -= dropped
                samples = samples.dropFirst(dropped)
            }
            guard !samples.isEmpty else { return }
            chunks.append(Array(samples))
            queued += samples.count
            while queued > Self.longest, let first = chunks.first {
                queued -= first.count
                chunks.removeFirst()
            }
            condition.signal()
        }
    }

    /// Drops the next `samples` samples that come (the satellite plays a reply that long).
    func mute(for samples: Int) {
        condition.withLock { muted = samples }
    }

    /// The satellite has played the reply: listen again.
    func unmute() {
        condition.withLock { muted = 0 }
    }

    /// No more audio comes: ``read()`` returns what is queued, then `nil`.
    func end() {
        condition.withLock {
            ended = true
            condition.broadcast()
        }
    }

    /// The conversation is over: what comes is dropped.
    func close() {
        condition.withLock {
            closed = true
            ended = true
            chunks = []
            queued = 0
            condition.broadcast()
        }
    }

    var isClosed: Bool { condition.withLock { closed } }

    /// The next chunk, waiting for it; `nil` once ended and read to the end.
    func read() -> [Int16]? {
        condition.withLock {
            while chunks.isEmpty && !ended { condition.wait() }
            guard !chunks.isEmpty else { return nil }
            let chunk = chunks.removeFirst()
            queued -= chunk.count
            return chunk
        }
    }
}
