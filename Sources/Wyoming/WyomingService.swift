import Dispatch
import Foundation
import Logging
import PhraseMatching
import VoiceAudio
import VoiceIntents
import VoiceLoop
import VoiceRecognition
import VoiceSynthesis
import VoiceUnderstanding

/// One connection's conversation: reads its events in order and says what to send back.
///
/// - `describe` → `info`.
/// - `transcribe`, then `audio-start`, `audio-chunk`s at any rate, width and channel count, and
///   `audio-stop` → `transcript`, heard under the app's grammar. What is heard with less
///   confidence than `listen` acts on comes back as an empty transcript. It is streamed too:
///   `transcript-start`, `transcript-chunk`s of the words that have held (``StablePartials``),
///   then `transcript` and `transcript-stop`.
/// - `recognize` (text) → `intent` with its name and entities, or `not-recognized`.
/// - `transcript` (text, as Home Assistant's conversation agent sends it) → the command run:
///   `handled` with what the intent says, or `not-handled` with why not.
/// - `synthesize` (text) → `audio-start`, `audio-chunk`s of 16-bit mono, `audio-stop`.
/// - `synthesize-start`, `synthesize-chunk`s, `synthesize-stop` (text in pieces) → each whole
///   sentence as audio of its own as soon as it is whole, then `synthesize-stopped`.
/// - `detect` (wake-word names), then audio → `detection` each time a trained wake word is heard
///   (``WakeWordDetector``), and `not-detected` at `audio-stop` when none was.
/// - `run-pipeline` (from a satellite) → a whole conversation, from the microphone audio that
///   follows to the spoken reply (``SatellitePipeline``); `played` says a reply has been heard.
/// - `ping` → `pong`. Events of other types are ignored, as the protocol asks.
public final class WyomingSession: @unchecked Sendable {  // used by one connection's task at a time
    let app: WyomingApp
    let logger: Logger
    private let send: @Sendable (WyomingEvent) -> Void
    private var recognizer: SpeechRecognizer?
    /// The app's grammar generation the recognizer hears (``VoiceLoop/Preparation/generation``).
    private var grammarGeneration = 0
    /// The utterance's audio, converted to 16 kHz as it arrives.
    private var converter: ChunkConverter?
    /// How many 16 kHz samples the utterance has had.
    private var frames = 0
    /// The utterance being decoded as it arrives.
    private var streamed: StreamedUtterance?
    /// Which of its words have been sent as `transcript-chunk`s.
    private var partials = StablePartials()
    /// Text to speak that arrives in pieces (`synthesize-start` to `synthesize-stop`): its voice,
    /// and what has come of it that is no whole sentence yet.
    private var textStream: (voice: String, pending: String)?
    /// A satellite's conversation, while it lasts: the audio is its microphone's.
    private var pipeline: SatellitePipeline?
    /// Wake-word detection, from `detect` to `audio-stop`: the audio is heard for wake words.
    private var wake: WakeListening?
    /// The area the satellite on this connection says it is in (its `info`).
    private var satelliteArea: String?
    /// The conversations started, for ``runConversations()`` to run.
    private let started = AsyncStream.makeStream(of: SatellitePipeline.self)
    /// The device the connection's commands come from, for the timers they start
    /// (``VoiceTimers/device``): their events are sent back on this connection.
    let device = "wyoming-\(UUID().uuidString)"
    /// How what is heard or sent on this connection is planned and run: with the app's bar, value
    /// margin and context (a satellite's room), as the voice loop plans it.
    private var turns: TurnPipeline {
        TurnPipeline(
            description: app.app.description, matcher: app.matcher, policy: app.policy,
            context: app.configuration.context)
    }
    /// The most audio one utterance may hold, in seconds.
    static let longestUtterance = 30
    /// The most text sent in pieces that is held while it ends no sentence, in characters.
    static let longestPendingText = 2_000

    /// - Parameter send: Handed the events that go out as they come rather than as
    ///   ``handle(_:)``'s answer: a satellite conversation's, and a reply's audio, sentence by
    ///   sentence, before `handle` returns its `audio-stop`. The connection sends them in order
    ///   with the answers.
    public init(app: WyomingApp, logger: Logger, send: @escaping @Sendable (WyomingEvent) -> Void = { _ in })
    {
        self.app = app
        self.logger = logger
        self.send = send
    }

    /// Whether no conversation is under way: no utterance being streamed, no satellite's
    /// conversation running.
    var isIdle: Bool { converter == nil && streamed == nil && (pipeline?.hasEnded ?? true) }

    /// Runs the satellites' conversations that ``handle(_:)`` starts, each as a child task, until
    /// the session is closed: the connection runs it beside its reading.
    ///
    /// Meanwhile the timers the connection's commands started (the app's ``VoiceTimers``) are
    /// sent as they start, change and run out (`timer-started`, `timer-updated`,
    /// `timer-cancelled`, `timer-finished`), for the satellite to show and ring.
    public func runConversations() async {
        let timers = app.app.dependencies.resolve(VoiceTimers.self)
        await withDiscardingTaskGroup { group in
            if let events = timers?.events() {
                let (device, send) = (device, send)
                group.addTask {
                    for await event in events where event.timer.device == device { send(.timer(event)) }
                }
            }
            for await pipeline in started.stream {
                group.addTask { await pipeline.run() }
            }
            group.cancelAll()
        }
    }

    /// Ends what the connection left running (a satellite's conversation, an utterance).
    public func close() async {
        await pipeline?.stop()
        pipeline = nil
        started.continuation.finish()
        discardStreamed()
    }

    /// What to send back for `event`. An event of a type the server does not take is ignored.
    public func handle(_ event: WyomingEvent) async -> [WyomingEvent] {
        let request = WyomingRequest(event)
        if pipeline != nil, case .audio(let audio) = request { return toPipeline(audio) }
        if wake != nil, case .audio(let audio) = request { return await toWakeWords(audio) }
        switch request {
        case .info(.describe):
            return [app.info]
        case .info(.ping(let text)):
            return [.pong(text)]
        case .satellite(.runPipeline(let stages, let data)):
            await pipeline?.stop()
            pipeline = nil
            switch stages {
            case .failure(let reason):
                return [WyomingEvent.error(reason.description)]
            case .success(let stages):
                if let wakeWord = stages.wakeWord {
                    do {
                        _ = try WakeWordDetector.model(named: wakeWord, among: app.wakeWords)
                    } catch {
                        return [WyomingEvent.error("\(error)")]
                    }
                }
                logger.info(
                    "running a satellite's pipeline", metadata: ["stages": "\(JSONValue.object(data))"])
                let conversation = SatellitePipeline(
                    app: app, stages: stages, peer: "\(logger[metadataKey: "peer"] ?? "?")",
                    area: satelliteArea, device: device,
                    logger: logger, send: send)
                pipeline = conversation
                started.continuation.yield(conversation)
                return []
            }
        case .satellite(.played):
            pipeline?.microphone.unmute()
            return []
        case .satellite(.info(let area)):
            satelliteArea = area.flatMap { $0.isEmpty ? nil : $0 }
            if let area = satelliteArea { logger.info("the satellite is in \(area)") }
            return []
        case .wake(.detect(let names)):
            await pipeline?.stop()
            pipeline = nil
            converter = nil
            discardStreamed()
            do {
                wake = try WakeListening(
                    names: names, installed: app.wakeWords,
                    checkMargin: app.configuration.checksWakeWord ? app.configuration.wakeWordMargin : nil)
                return []
            } catch {
                wake = nil
                return [WyomingEvent.error("\(error)")]
            }
        case .asr(.transcribe):
            await pipeline?.stop()
            pipeline = nil
            wake = nil
            converter = nil
            frames = 0
            discardStreamed()
            return []
        case .audio(.start(let format)):
            guard let format else { return [Self.noFormat] }
            return await startUtterance(format)
        case .audio(.chunk(let format, let bytes)):
            // Audio with no audio-start before it starts the utterance.
            var started: [WyomingEvent] = []
            if streamed == nil, let format, format != converter?.format {
                started = await startUtterance(format)
                if streamed == nil { return started }
            }
            guard let samples = converted(bytes, format: format) else { return started + [Self.noStream] }
            guard frames / AudioFormat.recognizerSampleRate < Self.longestUtterance else { return started }
            return started + (await feed(samples))
        case .audio(.stop):
            return await transcript()
        case .intent(.handle(let text)):
            // A conversation agent's request (Home Assistant sends the text it heard): run it.
            guard let text else { return [WyomingEvent.error("transcript needs a text")] }
            return [await run(text)]
        case .intent(.recognize(let text)):
            guard let text else { return [WyomingEvent.error("recognize needs a text")] }
            return [await recognize(text)]
        case .tts(.synthesize(let text, let voice)):
            // Within text sent in pieces, the whole text comes too, for servers that take no
            // pieces: it is spoken already.
            guard textStream == nil else { return [] }
            guard let text else { return [WyomingEvent.error("synthesize needs a text")] }
            return await synthesize(text, voice: voice ?? app.voice)
        case .tts(.start(let voice)):
            textStream = (voice ?? app.voice, "")
            return []
        case .tts(.chunk(let text)):
            guard textStream != nil else {
                return [WyomingEvent.error("synthesize-chunk before synthesize-start")]
            }
            guard let text else { return [WyomingEvent.error("synthesize-chunk needs a text")] }
            textStream!.pending += text
            var (sentences, rest) = Self.wholeSentences(of: textStream!.pending)
            // Text that never ends a sentence is spoken once it is long, not held without end.
            if rest.count > Self.longestPendingText {
                sentences.append(rest)
                rest = ""
            }
            textStream!.pending = rest
            return await speak(sentences, voice: textStream!.voice)
        case .tts(.stop):
            guard let stream = textStream else {
                return [WyomingEvent.error("synthesize-stop before synthesize-start")]
            }
            textStream = nil
            return await speak(Self.sentences(of: stream.pending), voice: stream.voice) + [.synthesizeStopped]
        case .ignored(let type):
            logger.debug("ignoring an event the server does not take", metadata: ["type": "\(type)"])
            return []
        }
    }

    /// A satellite's microphone audio, for its conversation.
    private func toPipeline(_ audio: WyomingRequest.Audio) -> [WyomingEvent] {
        guard let pipeline, !pipeline.hasEnded else { return [] }
        switch audio {
        case .start(let format):
            guard let format else { return [Self.noFormat] }
            converter = ChunkConverter(format)
        case .chunk(let format, let bytes):
            guard let samples = converted(bytes, format: format) else { return [Self.noStream] }
            pipeline.microphone.append(samples)
        case .stop:
            // The satellite stopped streaming: the conversation ends after the turn under way.
            if converter != nil { pipeline.microphone.append(converter!.finish()) }
            converter = nil
            pipeline.microphone.end()
        }
        return []
    }

    /// Audio after `detect`: heard for the wake words; `detection` each time one is heard, and
    /// `not-detected` at the end when none was. The next `detect` starts again.
    private func toWakeWords(_ audio: WyomingRequest.Audio) async -> [WyomingEvent] {
        guard let wake else { return [] }
        // The models run on a thread for blocking work, not on one every connection needs.
        let box = WakeBox(wake: wake)
        let hear = { (samples: [Int16], ending: Bool) async -> [WyomingEvent] in
            let (events, toCheck) = await onThreadOfItsOwn { box.wake.hear(samples, ending: ending) }
            return events + (await self.checked(toCheck, in: wake))
        }
        switch audio {
        case .start(let format):
            guard let format else { return [Self.noFormat] }
            converter = ChunkConverter(format)
            wake.restart()
            return []
        case .chunk(let format, let bytes):
            guard let samples = converted(bytes, format: format) else { return [Self.noStream] }
            return await hear(samples, false)
        case .stop:
            let events = await hear(converter?.finish() ?? [], true)
            converter = nil
            self.wake = nil
            return events + (wake.detected ? [] : [.notDetected])
        }
    }

    /// `detection` for each of `wakes` that the recognizer's check lets through, heard on the
    /// connection's recognizer off the cooperative threads.
    private func checked(_ wakes: [WakeListening.ToCheck], in wake: WakeListening) async -> [WyomingEvent] {
        guard !wakes.isEmpty, let margin = wake.checkMargin else { return [] }
        do {
            let box = try await ready()
            var events: [WyomingEvent] = []
            for candidate in wakes {
                let check = WakeWordCheck(phrase: candidate.model.phrase, minimumMargin: margin)
                let verdict = try await onThreadOfItsOwn {
                    try box.recognizer.check(candidate.audio, wakeWord: check)
                }
                let metadata: Logger.Metadata = [
                    "model": "\(candidate.model.name)", "margin": "\(String(format: "%.1f", verdict.margin))",
                ]
                if verdict.accepted {
                    logger.debug("the check let the wake word through", metadata: metadata)
                    events.append(wake.letThrough(candidate))
                } else {
                    logger.info("the check turned the wake word away", metadata: metadata)
                }
            }
            return events
        } catch {
            logger.error("could not check the wake word", metadata: ["error": "\(error)"])
            return [WyomingEvent.error("\(error)")]
        }
    }

    /// An audio chunk's samples at 16 kHz (``ChunkConverter/convert(_:format:with:)``).
    private func converted(_ bytes: [UInt8], format: WyomingAudioFormat?) -> [Int16]? {
        ChunkConverter.convert(bytes, format: format, with: &converter)
    }

    static let noFormat = WyomingEvent.error(
        "audio-start needs a rate of 4,000 to 768,000 Hz, a width of 1, 2 or 4 bytes and 1 to 32 channels")
    static let noStream = WyomingEvent.error("audio-chunk without a format, and no audio-start before it")

    /// Starts decoding an utterance in `format`: `transcript-start`, or an error event when the
    /// recognizer cannot.
    private func startUtterance(_ format: WyomingAudioFormat) async -> [WyomingEvent] {
        converter = ChunkConverter(format)
        frames = 0
        discardStreamed()
        partials = StablePartials()
        do {
            let recognizer = try await ready()
            streamed = try recognizer.recognizer.startUtterance()
            return [.transcriptStart(language: app.locale)]
        } catch {
            return [WyomingEvent.error("\(error)")]
        }
    }

    /// Decodes `samples` of the utterance under way, off the cooperative threads: a
    /// `transcript-chunk` when words of it have held long enough to send.
    @discardableResult
    private func feed(_ samples: [Int16]) async -> [WyomingEvent] {
        guard let streamed, !samples.isEmpty else { return [] }
        frames += samples.count
        let box = UtteranceBox(utterance: streamed)
        do {
            let words = try await onThreadOfItsOwn {
                try box.utterance.feed(samples)
                return box.utterance.partialWords
            }
            let stable = partials.update(words, after: frames)
            return stable.isEmpty ? [] : [.transcriptChunk(partials.chunkText(stable))]
        } catch {
            self.streamed = nil
            return [WyomingEvent.error("\(error)")]
        }
    }

    /// What the audio since `audio-start` says: the rest of its pieces, the whole `transcript`,
    /// and `transcript-stop`.
    private func transcript() async -> [WyomingEvent] {
        var events: [WyomingEvent] = []
        if converter != nil { events += await feed(converter!.finish()) }
        converter = nil
        let streamed = self.streamed
        self.streamed = nil
        guard let streamed, frames > 0 else {
            if let streamed {
                _ = try? streamed.finish()
                return events + [.transcript(""), .transcriptStop]
            }
            return [.transcript("")]
        }
        frames = 0
        do {
            let box = UtteranceBox(utterance: streamed)
            let heard = try await onThreadOfItsOwn { try box.utterance.finish() }
            // Planned as the voice loop plans what it hears when always listening: with the
            // same bar, value margin and context, what it would ignore is sent as no transcript,
            // but for a negative phrase ("never mind"), which is the client's to answer.
            let (plan, _) = await turns.plan(heard: heard, addressed: false)
            var metadata: Logger.Metadata = ["transcript": "\(heard.text)"]
            if let confidence = heard.confidence?.value { metadata["confidence"] = "\(confidence)" }
            switch plan {
            case .ignore(.negativePhrase), .answer, .run:
                break
            case .ignore(let rejection):
                metadata["rejected"] = "\(rejection)"
                logger.info("heard, not taken as a command", metadata: metadata)
                return events + [.transcript("", language: app.locale), .transcriptStop]
            }
            logger.info("heard", metadata: metadata)
            let rest = partials.finish(heard.commandText.split(separator: " ").map(String.init))
            if !rest.isEmpty { events.append(.transcriptChunk(partials.chunkText(rest))) }
            return events + [.transcript(heard.commandText, language: app.locale), .transcriptStop]
        } catch {
            logger.error("could not hear", metadata: ["error": "\(error)"])
            return events + [WyomingEvent.error("\(error)"), .transcriptStop]
        }
    }

    /// Ends an utterance that was started and never stopped, so that the next can start.
    private func discardStreamed() {
        if let streamed { _ = try? streamed.finish() }
        streamed = nil
    }

    /// The connection's recognizer, made on first use off the cooperative threads: loading the
    /// models takes a while. When the app's names have changed since it last heard
    /// (``VoiceLoop/Preparation/followUpdates()``), it is given the grammar as they are now.
    private func ready() async throws -> RecognizerBox {
        let generation = app.preparation.generation
        if let recognizer {
            let box = RecognizerBox(recognizer: recognizer)
            if generation != grammarGeneration {
                let grammar = app.grammar
                try await onThreadOfItsOwn { try box.recognizer.useGrammar(grammar) }
                grammarGeneration = generation
            }
            return box
        }
        let app = self.app
        let box = try await onThreadOfItsOwn {
            RecognizerBox(recognizer: try Self.recognizer(for: app))
        }
        recognizer = box.recognizer
        grammarGeneration = generation
        return box
    }

    /// The intent `text` reaches, or `not-recognized`.
    private func recognize(_ text: String) async -> WyomingEvent {
        let result = await app.matcher.match(text)
        guard let best = result.best else {
            return .notRecognized(text)
        }
        let entities = best.values.sorted { $0.key < $1.key }.map { name, value in
            (name: name, value: value.title ?? value.words)
        }
        return .intent(best.intent, entities: entities, text: text)
    }

    /// Runs the command `text` and says how it went: `handled` with what the intent says, or
    /// `not-handled` with why not. One exchange holds no follow-up question: an intent that must
    /// ask for a value, a choice or a confirmation (every intent that requires authentication)
    /// does not run, and the question is the answer, so the person can say the command whole.
    private func run(_ text: String) async -> WyomingEvent {
        let conversation = NoFollowUp()
        let runner = IntentRunner(
            conversation: conversation, dependencies: app.app.dependencies, hasScreen: false,
            isAuthenticated: false)
        let (turn, _) = await VoiceTimers.$device.withValue(device) {
            await turns.turn(typed: text, runner: runner)
        }
        let spoken = turn.replies(voiceOnly: true).joined(separator: " ")
        var metadata = turn.metadata
        metadata["text"] = "\(text)"
        guard let outcome = turn.outcome else {
            logger.info("not run", metadata: metadata)
            return .notHandled(spoken)
        }
        logger.info("ran", metadata: metadata)
        switch outcome.status {
        case .completed:
            return .handled(spoken.isEmpty ? TurnReply.done : spoken)
        case .cancelled:
            let question = conversation.asked ?? "That needs more than one exchange."
            return .notHandled(question)
        case .failed:
            return .notHandled(spoken.isEmpty ? TurnReply.failed : spoken)
        }
    }

    /// `text` spoken by eSpeak NG, sent as audio events sentence by sentence: the first
    /// sentence's audio leaves while the rest is still being spoken, so a long reply starts as
    /// soon as a short one. Synthesis waits its turn for eSpeak NG's one engine, and it and
    /// cutting the audio into events take a while: off the cooperative threads, which every
    /// other connection needs. Returns an `error` when nothing could be spoken.
    private func synthesize(_ text: String, voice: String) async -> [WyomingEvent] {
        var format: WyomingAudioFormat?
        var sent = 0
        for sentence in Self.sentences(of: text) {
            let speech: SynthesizedSpeech
            do {
                speech = try await onThreadOfItsOwn { try SpeechSynthesizer(voice: voice).speak(sentence) }
            } catch {
                // Audio already under way ends where it is; the error follows it.
                guard let format else { return [WyomingEvent.error("\(error)")] }
                send(.audioStop(milliseconds: sent * 1000 / max(format.rate, 1)))
                return [WyomingEvent.error("\(error)")]
            }
            if format == nil {
                format = WyomingAudioFormat(rate: speech.sampleRate, width: 2, channels: 1)
                send(.audioStart(format!))
            }
            for event in Self.audioChunks(speech.samples, format: format!, from: sent) { send(event) }
            sent += speech.samples.count
        }
        // Nothing to say: no audio, as the stream's events say it.
        guard let format else {
            return Self.audioEvents([], sampleRate: (try? SpeechSynthesizer.sampleRate()) ?? 22_050)
        }
        return [.audioStop(milliseconds: sent * 1000 / max(format.rate, 1))]
    }

    /// Each of `sentences` spoken as audio of its own (`audio-start` … `audio-stop`), as text
    /// sent in pieces is answered; an `error` ends them.
    private func speak(_ sentences: [String], voice: String) async -> [WyomingEvent] {
        for sentence in sentences {
            let events = await synthesize(sentence, voice: voice)
            if events.contains(where: { $0.type == "error" }) { return events }
            for event in events { send(event) }
        }
        return []
    }

    /// The whole sentences at the start of `text` (each ended by `.`, `!` or `?` and a space),
    /// and what follows them, which may still go on.
    static func wholeSentences(of text: String) -> (sentences: [String], rest: String) {
        var sentences: [String] = []
        var rest = Substring(text)
        while let end = rest.indices.first(where: { index in
            ".!?".contains(rest[index]) && rest.index(after: index) < rest.endIndex
                && rest[rest.index(after: index)].isWhitespace
        }) {
            let sentence = rest[...end].trimmingCharacters(in: .whitespacesAndNewlines)
            if !sentence.isEmpty { sentences.append(sentence) }
            rest = rest[rest.index(after: end)...]
        }
        return (sentences, String(rest))
    }

    /// `text` cut after each sentence's end (`.`, `!` or `?` before a space), for speaking one
    /// at a time; text with no such end is one sentence.
    static func sentences(of text: String) -> [String] {
        let (sentences, rest) = wholeSentences(of: text)
        let last = rest.trimmingCharacters(in: .whitespacesAndNewlines)
        return last.isEmpty ? sentences : sentences + [last]
    }

    /// `samples` (16-bit mono) as `audio-chunk`s of 1024 samples in `format`, timed from `offset`
    /// samples into the stream.
    static func audioChunks(_ samples: [Int16], format: WyomingAudioFormat, from offset: Int = 0)
        -> [WyomingEvent]
    {
        var events: [WyomingEvent] = []
        let chunk = 1024
        var start = 0
        while start < samples.count {
            let end = min(start + chunk, samples.count)
            let milliseconds = (offset + start) * 1000 / max(format.rate, 1)
            events.append(
                .audioChunk(WAVFile.pcm16(samples[start..<end]), format: format, milliseconds: milliseconds))
            start = end
        }
        return events
    }

    /// `samples` (16-bit mono at `sampleRate`) as Wyoming sends audio: `audio-start`,
    /// `audio-chunk`s of 1024 samples, `audio-stop`, with the timestamps Home Assistant gives them.
    static func audioEvents(_ samples: [Int16], sampleRate: Int) -> [WyomingEvent] {
        let format = WyomingAudioFormat(rate: sampleRate, width: 2, channels: 1)
        return [WyomingEvent.audioStart(format)] + audioChunks(samples, format: format)
            + [.audioStop(milliseconds: samples.count * 1000 / max(sampleRate, 1))]
    }

    static func recognizer(for app: WyomingApp) throws(SpeechError) -> SpeechRecognizer {
        let recognizer = try SpeechRecognizer(app.recognizer)
        try recognizer.useGrammar(app.grammar)
        return recognizer
    }

}

/// A connection's recognizer, handed to the thread that decodes: only one decode runs at a time
/// per connection, as its events are handled in order.
private struct RecognizerBox: @unchecked Sendable {
    let recognizer: SpeechRecognizer
}

/// The utterance being streamed, handed to the thread that decodes, the same way.
private struct UtteranceBox: @unchecked Sendable {
    let utterance: StreamedUtterance
}

/// The connection's wake-word detectors, handed to a thread for blocking work while the
/// connection waits for it (one use at a time).
private struct WakeBox: @unchecked Sendable {
    let wake: WakeListening
}

/// A conversation of one exchange: every question is declined, and the first is kept to say.
private final class NoFollowUp: Conversation, @unchecked Sendable {  // `first` behind `lock`
    private let lock = NSLock()
    private var first: String?

    var asked: String? { lock.withLock { first } }

    func ask(_ question: ConversationQuestion) async throws -> ConversationReply {
        lock.withLock { if first == nil { first = question.dialog.full.defaultValue } }
        return .cancel
    }
}

/// The wake words one `detect` listens for, and where in its audio they were heard.
///
/// With a check (`serve --wake-word-check`), a wake word the model hears is not detected at once:
/// the audio around it (``WakeWordCheck/secondsBefore`` before, ``WakeWordCheck/secondsAfter``
/// after) is handed back to be heard again by the recognizer (``SpeechRecognizer/check(_:wakeWord:)``),
/// and only a wake it lets through is sent as `detection`.
final class WakeListening {
    private let detectors: [WakeWordDetector]
    /// The margin the recognizer's check asks for; `nil` for no check.
    let checkMargin: Double?
    /// 16 kHz samples heard since `audio-start`.
    private var samples = 0
    /// The last of them, for the check: `recent[0]` is sample `samples - recent.count`.
    private var recent: [Int16] = []
    /// Wakes waiting for the audio after them before they are checked: the model, and the sample
    /// it fired at.
    private var waiting: [(model: WakeWordDetector.Model, at: Int)] = []
    private(set) var detected = false

    /// A wake the model heard, for the recognizer to hear again: its model, the audio around it,
    /// and where in the stream it was (ms).
    struct ToCheck: Sendable {
        let model: WakeWordDetector.Model
        let audio: [Int16]
        let milliseconds: Int
    }

    /// Detectors for `names` (installed models' names, as `info` lists them), or for every one
    /// of `installed` when `names` is `nil` or empty.
    init(names: [String]?, installed: [WakeWordDetector.Model], checkMargin: Double? = nil)
        throws(SpeechError)
    {
        let models: [WakeWordDetector.Model]
        if let names, !names.isEmpty {
            models = try names.map { name throws(SpeechError) in
                try WakeWordDetector.model(named: name, among: installed)
            }
        } else {
            guard !installed.isEmpty else { throw WakeWordDetector.noneInstalled }
            models = installed
        }
        detectors = try models.map { model throws(SpeechError) in try WakeWordDetector(model: model) }
        self.checkMargin = checkMargin
    }

    /// A new stream of audio.
    func restart() {
        for detector in detectors { detector.reset() }
        samples = 0
        recent = []
        waiting = []
        detected = false
    }

    private static let rate = AudioFormat.recognizerSampleRate
    private static let before = Int(WakeWordCheck.secondsBefore * Double(rate))
    private static let after = Int(WakeWordCheck.secondsAfter * Double(rate))

    /// `detection` for each wake word heard in `chunk`, and, with a check, the wakes to check
    /// now that the audio after them has come (all that wait, when `ending`).
    func hear(_ chunk: [Int16], ending: Bool = false) -> (events: [WyomingEvent], toCheck: [ToCheck]) {
        var events: [WyomingEvent] = []
        for detector in detectors {
            guard let at = detector.process(chunk) else { continue }
            if checkMargin == nil {
                detected = true
                events.append(
                    .detection(detector.model.name, milliseconds: (samples + at) * 1000 / Self.rate))
            } else {
                waiting.append((detector.model, samples + at))
            }
        }
        samples += chunk.count
        guard checkMargin != nil else { return (events, []) }
        recent += chunk
        if recent.count > Self.before + Self.after + chunk.count {
            recent.removeFirst(recent.count - Self.before - Self.after - chunk.count)
        }
        let first = samples - recent.count
        var toCheck: [ToCheck] = []
        waiting.removeAll { wake in
            guard ending || samples >= wake.at + Self.after else { return false }
            let from = max(first, wake.at - Self.before) - first
            let to = min(samples, wake.at + Self.after) - first
            toCheck.append(
                ToCheck(
                    model: wake.model, audio: Array(recent[from..<to]),
                    milliseconds: wake.at * 1000 / Self.rate))
            return true
        }
        return (events, toCheck)
    }

    /// `detection` for a wake the check let through.
    func letThrough(_ wake: ToCheck) -> WyomingEvent {
        detected = true
        return .detection(wake.model.name, milliseconds: wake.milliseconds)
    }
}
