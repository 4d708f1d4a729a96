import Dispatch
import Foundation
import Logging
import PhraseMatching
import Synchronization
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
///
/// The session does one thing at a time (``Mode``): `transcribe`, `detect`, `run-pipeline` and
/// `synthesize-start` each end what was under way and start their own. Audio that comes with
/// nothing under way is transcribed. `describe`, `ping`, `recognize`, `transcript` and a whole
/// `synthesize` are answered whatever the mode, and leave it as it is.
///
/// A session belongs to its connection: one task reads the events and hands them to
/// ``handle(_:)`` in order, and the conversations it starts run beside it (``conversations``).
public final class WyomingSession {
    let app: WyomingApp
    let logger: Logger
    let send: @Sendable (WyomingEvent) -> Void
    /// What the connection is doing.
    private(set) var mode = Mode.idle
    private var recognizer: SpeechRecognizer?
    /// The app's grammar generation the recognizer hears (``VoiceLoop/Preparation/generation``).
    private var grammarGeneration = 0
    /// The area the satellite on this connection says it is in (its `info`).
    private var satelliteArea: String?
    /// The `context` of the last `transcribe`, for the utterance that follows it.
    private var transcribeContext: JSONValue?
    /// The protocol version the peer last wrote (``WyomingEvent/version``): what it takes, and
    /// what every event sent back to it says it speaks. Shared with what sends by itself.
    private let peer = PeerVersion()
    private var peerVersion: String? { peer.version }
    /// The conversations started, for ``Conversations/run()`` to run.
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
    /// The most SSML sent in pieces that is held for `synthesize-stop`, in characters; beyond it
    /// what has come is spoken as it is.
    static let longestSSML = 100_000

    /// - Parameter send: Handed the events that go out as they come rather than as
    ///   ``handle(_:)``'s answer: a satellite conversation's, and a reply's audio, sentence by
    ///   sentence, before `handle` returns its `audio-stop`. The connection sends them in order
    ///   with the answers.
    public init(app: WyomingApp, logger: Logger, send: @escaping @Sendable (WyomingEvent) -> Void = { _ in })
    {
        self.app = app
        self.logger = logger
        let peer = peer
        self.send = { event in send(peer.stamped(event)) }
    }

    /// Whether closing the connection now would cut nothing short: no utterance or text in pieces
    /// under way, no satellite's conversation running. Listening for a wake word is no
    /// conversation yet.
    var isIdle: Bool {
        switch mode {
        case .idle, .unheard, .detecting: true
        case .transcribing, .synthesizing: false
        case .conversation(let satellite): satellite.pipeline.hasEnded
        }
    }

    /// What the connection runs beside its reading: the satellites' conversations that
    /// ``handle(_:)`` starts, and the timers its commands start.
    public struct Conversations: Sendable {
        fileprivate let started: AsyncStream<SatellitePipeline>
        fileprivate let timers: VoiceTimers?
        fileprivate let device: String
        fileprivate let send: @Sendable (WyomingEvent) -> Void

        /// Runs each conversation as a child task, until the session is closed. Meanwhile the
        /// timers the connection's commands started (the app's ``VoiceTimers``) are sent as they
        /// start, change and run out (`timer-started`, `timer-updated`, `timer-cancelled`,
        /// `timer-finished`), for the satellite to show and ring.
        public func run() async {
            await withDiscardingTaskGroup { group in
                if let events = timers?.events() {
                    let (device, send) = (device, send)
                    group.addTask {
                        for await event in events where event.timer.device == device { send(.timer(event)) }
                    }
                }
                for await pipeline in started {
                    group.addTask { await pipeline.run() }
                }
                group.cancelAll()
            }
        }
    }

    /// The session's conversations, for the connection to ``Conversations/run()`` beside its
    /// reading.
    public var conversations: Conversations {
        Conversations(
            started: started.stream, timers: app.app.dependencies.resolve(VoiceTimers.self), device: device,
            send: send)
    }

    /// Ends what the connection left running (a satellite's conversation, an utterance), and the
    /// conversations.
    public func close() async {
        await endMode()
        started.continuation.finish()
    }

    /// What to send back for `event`, each written with the protocol version the peer speaks
    /// (the server's own, ``WyomingEvent/protocolVersion``, until the peer has said). An event
    /// of a type the server does not take is ignored.
    public func handle(_ event: WyomingEvent) async -> [WyomingEvent] {
        if let version = event.version { peer.version = version }
        return await answer(event).map(peer.stamped)
    }

    private func answer(_ event: WyomingEvent) async -> [WyomingEvent] {
        switch WyomingRequest(event) {
        case .audio(let audio):
            return await hear(audio)
        case .info(.describe):
            return [app.info]
        case .info(.ping(let text)):
            return [.pong(text)]
        case .satellite(.runPipeline(let stages, let data)):
            await endMode()
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
                mode = .conversation(Satellite(conversation))
                started.continuation.yield(conversation)
                return []
            }
        case .satellite(.played):
            if case .conversation(let satellite) = mode { satellite.pipeline.microphone.unmute() }
            return []
        case .satellite(.info(let area)):
            satelliteArea = area.flatMap { $0.isEmpty ? nil : $0 }
            if let area = satelliteArea { logger.info("the satellite is in \(area)") }
            return []
        case .wake(.detect(let names)):
            await endMode()
            do {
                let wake = try WakeListening(
                    names: names, installed: app.wakeWords, setting: app.wakeWordSetting(for:))
                mode = .detecting(Detection(wake))
                return []
            } catch {
                return [WyomingEvent.error("\(error)")]
            }
        case .asr(.transcribe(let context)):
            // The audio that follows is transcribed, as audio is with nothing under way.
            await endMode()
            transcribeContext = context
            return []
        case .intent(.handle(let text, let context)):
            // A conversation agent's request (Home Assistant sends the text it heard): run it.
            guard let text else { return [WyomingEvent.error("transcript needs a text")] }
            return [await run(text, context: context)]
        case .intent(.recognize(let text, let context)):
            guard let text else { return [WyomingEvent.error("recognize needs a text")] }
            return await recognize(text, context: context)
        case .tts(.synthesize(let text, let voice, let format)):
            // Within text sent in pieces, the whole text comes too, for servers that take no
            // pieces: it is spoken already.
            if case .synthesizing = mode { return [] }
            guard let text else { return [WyomingEvent.error("synthesize needs a text")] }
            if case .unknown(let name) = format { return [Self.unknownTextFormat(name)] }
            if format == .ssml { return await synthesize(ssml: text, voice: voice ?? app.voice) }
            return await synthesize(text, voice: voice ?? app.voice)
        case .tts(.start(let voice, let format)):
            await endMode()
            if case .unknown(let name) = format { return [Self.unknownTextFormat(name)] }
            mode = .synthesizing(TextInPieces(voice: voice ?? app.voice, ssml: format == .ssml))
            return []
        case .tts(.chunk(let text)):
            guard case .synthesizing(var stream) = mode else {
                return [WyomingEvent.error("synthesize-chunk before synthesize-start")]
            }
            guard let text else { return [WyomingEvent.error("synthesize-chunk needs a text")] }
            let sentences = stream.add(text)
            mode = .synthesizing(stream)
            if stream.ssml {
                return sentences.isEmpty ? [] : await synthesize(ssml: sentences[0], voice: stream.voice)
            }
            return await speak(sentences, voice: stream.voice)
        case .tts(.stop):
            guard case .synthesizing(let stream) = mode else {
                return [WyomingEvent.error("synthesize-stop before synthesize-start")]
            }
            mode = .idle
            if stream.ssml {
                let spoken =
                    stream.pending.isEmpty ? [] : await synthesize(ssml: stream.pending, voice: stream.voice)
                return spoken + [.synthesizeStopped]
            }
            return await speak(Self.sentences(of: stream.pending), voice: stream.voice) + [.synthesizeStopped]
        case .ignored(let type):
            logger.debug("ignoring an event the server does not take", metadata: ["type": "\(type)"])
            return []
        }
    }

    /// Ends the mode under way, as a request that starts another does: a satellite's conversation
    /// is stopped, an utterance dropped unanswered, wake-word listening and text in pieces end
    /// where they are.
    private func endMode() async {
        switch mode {
        case .conversation(let satellite): await satellite.pipeline.stop()
        case .transcribing(let utterance): _ = try? utterance.streamed.finish()
        case .idle, .unheard, .detecting, .synthesizing: break
        }
        mode = .idle
    }

    /// An audio event, for the mode under way.
    private func hear(_ audio: WyomingRequest.Audio) async -> [WyomingEvent] {
        switch (mode, audio) {
        case (.conversation(let satellite), _):
            return toPipeline(audio, satellite)
        case (.detecting(let detection), _):
            return await toWakeWords(audio, detection)
        case (.synthesizing, _):
            return [WyomingEvent.error("audio between synthesize-start and synthesize-stop")]
        case (.idle, .start(let format)), (.transcribing, .start(let format)), (.unheard, .start(let format)):
            guard let format else { return [Self.noFormat] }
            return await startUtterance(format)
        case (.idle, .chunk(let format, let bytes)):
            // Audio with no audio-start before it starts the utterance.
            guard let format else { return [Self.noStream] }
            let started = await startUtterance(format)
            guard case .transcribing(let utterance) = mode else { return started }
            return started + (await feed(bytes, format: format, to: utterance))
        case (.transcribing(let utterance), .chunk(let format, let bytes)):
            return await feed(bytes, format: format, to: utterance)
        case (.unheard, .chunk):
            return []
        case (.transcribing(let utterance), .stop):
            return await transcript(of: utterance)
        case (.idle, .stop), (.unheard, .stop):
            mode = .idle
            return [.transcript("")]
        }
    }

    /// A satellite's microphone audio, for its conversation.
    private func toPipeline(_ audio: WyomingRequest.Audio, _ satellite: Satellite) -> [WyomingEvent] {
        let pipeline = satellite.pipeline
        guard !pipeline.hasEnded else { return [] }
        switch audio {
        case .start(let format):
            guard let format else { return [Self.noFormat] }
            satellite.converter = ChunkConverter(format)
        case .chunk(let format, let bytes):
            guard let samples = ChunkConverter.convert(bytes, format: format, with: &satellite.converter)
            else {
                return [Self.noStream]
            }
            pipeline.microphone.append(samples)
        case .stop:
            // The satellite stopped streaming: the conversation ends after the turn under way.
            if satellite.converter != nil { pipeline.microphone.append(satellite.converter!.finish()) }
            satellite.converter = nil
            pipeline.microphone.end()
        }
        return []
    }

    /// Audio after `detect`: heard for the wake words; `detection` each time one is heard, and
    /// `not-detected` at the end when none was. The next `detect` starts again.
    private func toWakeWords(_ audio: WyomingRequest.Audio, _ detection: Detection) async -> [WyomingEvent] {
        let wake = detection.wake
        // The models run on a thread for blocking work, not on one every connection needs.
        let box = WakeBox(wake: wake)
        let hear = { (samples: [Int16], ending: Bool) async -> [WyomingEvent] in
            let (events, toCheck) = await onThreadOfItsOwn { box.wake.hear(samples, ending: ending) }
            return events + (await self.checked(toCheck, in: wake))
        }
        switch audio {
        case .start(let format):
            guard let format else { return [Self.noFormat] }
            detection.converter = ChunkConverter(format)
            wake.restart()
            return []
        case .chunk(let format, let bytes):
            guard let samples = ChunkConverter.convert(bytes, format: format, with: &detection.converter)
            else {
                return [Self.noStream]
            }
            return await hear(samples, false)
        case .stop:
            let events = await hear(detection.converter?.finish() ?? [], true)
            mode = .idle
            return events + (wake.detected ? [] : [.notDetected])
        }
    }

    /// `detection` for each of `wakes` that the recognizer's check lets through, heard on the
    /// connection's recognizer off the cooperative threads.
    private func checked(_ wakes: [WakeListening.ToCheck], in wake: WakeListening) async -> [WyomingEvent] {
        guard !wakes.isEmpty else { return [] }
        do {
            let box = try await ready()
            var events: [WyomingEvent] = []
            for candidate in wakes {
                let check = WakeWordCheck(phrase: candidate.model.phrase, minimumMargin: candidate.margin)
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

    /// The `error` for a `text_format` other than `text` and `ssml`.
    static func unknownTextFormat(_ name: String) -> WyomingEvent {
        WyomingEvent.error("text_format takes text or ssml, not \(name)")
    }

    static let noFormat = WyomingEvent.error(
        "audio-start needs a rate of 4,000 to 768,000 Hz, a width of 1, 2 or 4 bytes and 1 to 32 channels")
    static let noStream = WyomingEvent.error("audio-chunk without a format, and no audio-start before it")

    /// Starts transcribing an utterance in `format` (ending one under way): `transcript-start`,
    /// or an error event when the recognizer cannot, and the utterance's audio goes unheard.
    private func startUtterance(_ format: WyomingAudioFormat) async -> [WyomingEvent] {
        await endMode()
        do {
            let recognizer = try await ready()
            let context = transcribeContext
            transcribeContext = nil
            mode = .transcribing(
                Utterance(format, streamed: try recognizer.recognizer.startUtterance(), context: context))
            return [.transcriptStart(language: app.locale, context: context)]
        } catch {
            mode = .unheard
            return [WyomingEvent.error("\(error)")]
        }
    }

    /// An audio chunk of the utterance under way, converted to 16 kHz and decoded.
    private func feed(_ bytes: [UInt8], format: WyomingAudioFormat?, to utterance: Utterance) async
        -> [WyomingEvent]
    {
        guard let samples = ChunkConverter.convert(bytes, format: format, with: &utterance.converter) else {
            return [Self.noStream]
        }
        guard utterance.frames / AudioFormat.recognizerSampleRate < Self.longestUtterance else { return [] }
        return await feed(samples, to: utterance)
    }

    /// Decodes `samples` of the utterance under way, off the cooperative threads: a
    /// `transcript-chunk` when words of it have held long enough to send. When the decoder fails,
    /// the rest of the utterance goes unheard.
    private func feed(_ samples: [Int16], to utterance: Utterance) async -> [WyomingEvent] {
        guard !samples.isEmpty else { return [] }
        utterance.frames += samples.count
        let box = UtteranceBox(utterance: utterance.streamed)
        do {
            let words = try await onThreadOfItsOwn {
                try box.utterance.feed(samples)
                return box.utterance.partialWords
            }
            let stable = utterance.partials.update(words, after: utterance.frames)
            return stable.isEmpty ? [] : [.transcriptChunk(utterance.partials.chunkText(stable))]
        } catch {
            mode = .unheard
            return [WyomingEvent.error("\(error)")]
        }
    }

    /// What the audio since `audio-start` says: the rest of its pieces, the whole `transcript`,
    /// and `transcript-stop`.
    private func transcript(of utterance: Utterance) async -> [WyomingEvent] {
        var events = await feed(utterance.converter?.finish() ?? [], to: utterance)
        guard case .transcribing = mode else {
            // The decoder failed on the last of the audio.
            mode = .idle
            return events + [.transcript("", context: utterance.context)]
        }
        mode = .idle
        guard utterance.frames > 0 else {
            _ = try? utterance.streamed.finish()
            return events + [.transcript("", context: utterance.context), .transcriptStop]
        }
        do {
            let box = UtteranceBox(utterance: utterance.streamed)
            let heard = try await onThreadOfItsOwn { try box.utterance.finish() }
            // Planned as the voice loop plans what it hears when always listening: with the
            // same bar, value margin and context, what it would ignore is sent as no transcript,
            // but for a negative phrase ("never mind"), which is the client's to answer.
            let (plan, _) = await turns.plan(heard: heard, addressed: false)
            var metadata: Logger.Metadata = ["transcript": "\(heard.text)"]
            if let confidence = heard.confidence?.value { metadata["confidence"] = "\(confidence)" }
            switch plan {
            case .ignore(.negativePhrase), .answer, .run, .runInOrder:
                break
            case .ignore(let rejection):
                metadata["rejected"] = "\(rejection)"
                logger.info("heard, not taken as a command", metadata: metadata)
                return events + [
                    .transcript("", language: app.locale, context: utterance.context), .transcriptStop,
                ]
            }
            logger.info("heard", metadata: metadata)
            let rest = utterance.partials.finish(heard.commandText.split(separator: " ").map(String.init))
            if !rest.isEmpty { events.append(.transcriptChunk(utterance.partials.chunkText(rest))) }
            return events + [
                .transcript(heard.commandText, language: app.locale, context: utterance.context),
                .transcriptStop,
            ]
        } catch {
            logger.error("could not hear", metadata: ["error": "\(error)"])
            return events + [WyomingEvent.error("\(error)"), .transcriptStop]
        }
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

    /// The intent `text` reaches, or `not-recognized`. Several commands in one sentence
    /// (``PhraseMatcher/matchJoined(_:context:whole:)``) come as `intents-start`, an `intent`
    /// each, `intents-stop`, to a peer of protocol 1.9 or later; an older peer, which takes one
    /// intent, is told to say them one at a time rather than given half of what was asked.
    private func recognize(_ text: String, context: JSONValue?) async -> [WyomingEvent] {
        let result = await app.matcher.match(text, context: app.configuration.context)
        if let parts = await app.matcher.matchJoined(text, context: app.configuration.context, whole: result)
        {
            guard WyomingEvent.takesSeveralIntents(peerVersion) else {
                return [
                    .notRecognized(
                        "That is \(parts.count) commands. Please say them one at a time.", context: context)
                ]
            }
            return [.intentsStart]
                + parts.compactMap(\.best).map { Self.intent($0, text: text, context: context) } + [
                    .intentsStop
                ]
        }
        guard let best = result.best else { return [.notRecognized(text, context: context)] }
        return [Self.intent(best, text: text, context: context)]
    }

    /// `intent` for `match`, with its entities by name.
    private static func intent(_ match: PhraseMatch, text: String, context: JSONValue?) -> WyomingEvent {
        let entities = match.values.sorted { $0.key < $1.key }.map { name, value in
            (name: name, value: value.title ?? value.words)
        }
        return .intent(match.intent, entities: entities, text: text, context: context)
    }

    /// Runs the command `text` and says how it went: `handled` with what the intent says, or
    /// `not-handled` with why not. One exchange holds no follow-up question: an intent that must
    /// ask for a value, a choice or a confirmation (every intent that requires authentication)
    /// does not run, and the question is the answer, so the person can say the command whole.
    private func run(_ text: String, context: JSONValue?) async -> WyomingEvent {
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
            return .notHandled(spoken, context: context)
        }
        logger.info("ran", metadata: metadata)
        switch outcome.status {
        case .completed:
            return .handled(spoken.isEmpty ? TurnReply.done : spoken, context: context)
        case .cancelled:
            let question = conversation.asked ?? "That needs more than one exchange."
            return .notHandled(question, context: context)
        case .failed:
            return .notHandled(spoken.isEmpty ? TurnReply.failed : spoken, context: context)
        }
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

/// The protocol version a connection's peer writes, shared by the session and what it sends by
/// itself.
private final class PeerVersion: Sendable {
    private let value = Mutex<String?>(nil)

    var version: String? {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }

    /// `event`, written with the peer's version when it has said one and the event names none.
    func stamped(_ event: WyomingEvent) -> WyomingEvent {
        guard event.version == nil, let version else { return event }
        var stamped = event
        stamped.version = version
        return stamped
    }
}
