import VoiceIntents

/// An event a peer sends the server, read by protocol area. Events of a type the server does not
/// take are ignored, as the protocol asks of every program: a newer peer's events are no error.
package enum WyomingRequest: Sendable {
    case info(Info)
    case asr(ASR)
    case audio(Audio)
    case intent(Intent)
    case tts(TTS)
    case wake(Wake)
    case satellite(Satellite)
    /// A type the server does not take.
    case ignored(type: String)

    /// What the server is: `describe`; and `ping`, to which it answers `pong`.
    package enum Info: Sendable {
        case describe
        case ping(text: JSONValue?)
    }

    /// Speech to text: `transcribe` starts an utterance, whose audio follows; its `context`
    /// (Wyoming 1.10: the client's, from interactions before) comes back on the transcript.
    package enum ASR: Sendable {
        case transcribe(context: JSONValue?)
    }

    /// Audio: an utterance's or a satellite's microphone's.
    package enum Audio: Sendable {
        /// `audio-start`, with its format when it gives one the server reads.
        case start(WyomingAudioFormat?)
        /// `audio-chunk`: its format, when it says it, and its samples' bytes.
        case chunk(WyomingAudioFormat?, bytes: [UInt8])
        /// `audio-stop`.
        case stop
    }

    /// Intents: `recognize` (the intent and its values only) and `transcript`, the words of a
    /// command to run, as Home Assistant's conversation agent sends them (`handle`).
    /// Each may carry a `context` (Wyoming 1.10), which comes back on the answer.
    package enum Intent: Sendable {
        case recognize(text: String?, context: JSONValue?)
        case handle(text: String?, context: JSONValue?)
    }

    /// Wake-word detection: `detect`, with the wake words to listen for (`nil` for the server's
    /// choice); the audio follows.
    package enum Wake: Sendable {
        case detect(names: [String]?)
    }

    /// Text to speech: `synthesize`, or the text in pieces as it is written (`synthesize-start`,
    /// `synthesize-chunk`s, `synthesize-stop`).
    package enum TTS: Sendable {
        case synthesize(text: String?, voice: String?, format: TextFormat)
        case start(voice: String?, format: TextFormat)
        case chunk(text: String?)
        case stop
    }

    /// How a text to speak is written (`text_format`, Wyoming 1.10): plain text (the default), or
    /// SSML, which eSpeak NG reads its elements of.
    package enum TextFormat: Sendable, Equatable {
        case text
        case ssml
        /// Another name: refused.
        case unknown(String)

        init(_ value: JSONValue?) {
            switch value?.string {
            case nil, "text": self = .text
            case "ssml": self = .ssml
            case let other?: self = .unknown(other)
            }
        }
    }

    /// A satellite's conversation: `run-pipeline` and `played` (a reply has been heard).
    package enum Satellite: Sendable {
        case runPipeline(Result<SatellitePipeline.Stages, WyomingFrameError>, data: [String: JSONValue])
        case played
        /// `info` from a satellite the server connected to (it asks `describe` first): the area
        /// it was given (`wyoming-satellite --area Kitchen`), when it has one.
        case info(area: String?)
    }

    package init(_ event: WyomingEvent) {
        switch event.type {
        case "describe": self = .info(.describe)
        case "ping": self = .info(.ping(text: event.data["text"]))
        case "transcribe": self = .asr(.transcribe(context: event.data["context"]))
        case "audio-start": self = .audio(.start(WyomingAudioFormat(of: event)))
        case "audio-chunk": self = .audio(.chunk(WyomingAudioFormat(of: event), bytes: event.payload))
        case "audio-stop": self = .audio(.stop)
        case "recognize":
            self = .intent(.recognize(text: event.data["text"]?.string, context: event.data["context"]))
        case "transcript":
            self = .intent(.handle(text: event.data["text"]?.string, context: event.data["context"]))
        case "synthesize":
            self = .tts(
                .synthesize(
                    text: event.data["text"]?.string, voice: event.data["voice"]?["name"]?.string,
                    format: TextFormat(event.data["text_format"])))
        case "synthesize-start":
            self = .tts(
                .start(
                    voice: event.data["voice"]?["name"]?.string, format: TextFormat(event.data["text_format"])
                ))
        case "synthesize-chunk": self = .tts(.chunk(text: event.data["text"]?.string))
        case "synthesize-stop": self = .tts(.stop)
        case "detect":
            self = .wake(.detect(names: event.data["names"]?.array?.compactMap(\.string)))
        case "run-pipeline":
            self = .satellite(.runPipeline(SatellitePipeline.Stages.of(event), data: event.data))
        case "played": self = .satellite(.played)
        case "info": self = .satellite(.info(area: event.data["satellite"]?["area"]?.string))
        default: self = .ignored(type: event.type)
        }
    }
}

/// The events the server sends, by protocol area: each built in one place, with the data its
/// peers read.
extension WyomingEvent {
    /// An event whose data carries `context` too, when there is one: a request's context
    /// (Wyoming 1.10, "for the next interaction") goes back on its answer as it came, so that a
    /// client's conversation state passes through the server.
    init(_ type: String, data: [String: JSONValue], context: JSONValue?) {
        var data = data
        if let context { data["context"] = context }
        self.init(type, data: data)
    }

    // info
    /// `pong`, with the `ping`'s text when it had one.
    static func pong(_ text: JSONValue?) -> WyomingEvent {
        WyomingEvent("pong", data: text.map { ["text": $0] } ?? [:])
    }

    // asr
    /// `transcript`: what was heard (empty when nothing clear), in `language` when it is known,
    /// with the `context` the request came with.
    static func transcript(_ text: String, language: String? = nil, context: JSONValue? = nil) -> WyomingEvent
    {
        var data: [String: JSONValue] = ["text": .string(text)]
        if let language { data["language"] = .string(language) }
        return WyomingEvent("transcript", data: data, context: context)
    }

    /// `transcript-start`: a transcript follows in pieces, in `language` when it is known.
    static func transcriptStart(language: String?, context: JSONValue? = nil) -> WyomingEvent {
        WyomingEvent(
            "transcript-start", data: language.map { ["language": .string($0)] } ?? [:], context: context)
    }

    /// `transcript-chunk`: the next piece of the transcript, to be appended to those before it.
    static func transcriptChunk(_ text: String) -> WyomingEvent {
        WyomingEvent("transcript-chunk", data: ["text": .string(text)])
    }

    /// `transcript-stop`: the transcript's pieces have ended (after the whole `transcript`).
    static let transcriptStop = WyomingEvent("transcript-stop")

    // intent
    /// `intent`: the intent `text` reaches and its values.
    static func intent(
        _ name: String, entities: [(name: String, value: String)], text: String, context: JSONValue? = nil
    ) -> WyomingEvent {
        let entities: [JSONValue] = entities.map { ["name": .string($0.name), "value": .string($0.value)] }
        return WyomingEvent(
            "intent", data: ["name": .string(name), "entities": .array(entities), "text": .string(text)],
            context: context)
    }

    /// `intents-start`: a series of intents follows, one `intent` each (protocol 1.9).
    static let intentsStart = WyomingEvent("intents-start")
    /// `intents-stop`: the series of intents has ended.
    static let intentsStop = WyomingEvent("intents-stop")

    /// `not-recognized`: `text` reaches no intent.
    static func notRecognized(_ text: String, context: JSONValue? = nil) -> WyomingEvent {
        WyomingEvent("not-recognized", data: ["text": .string(text)], context: context)
    }

    // handle
    /// `handled`, with what the intent said.
    static func handled(_ text: String, context: JSONValue? = nil) -> WyomingEvent {
        WyomingEvent("handled", data: ["text": .string(text)], context: context)
    }

    /// `not-handled`, with why not (or the question the command needs answered).
    static func notHandled(_ text: String, context: JSONValue? = nil) -> WyomingEvent {
        WyomingEvent("not-handled", data: ["text": .string(text)], context: context)
    }

    // audio
    /// `audio-start` in `format`, at the stream's start.
    static func audioStart(_ format: WyomingAudioFormat) -> WyomingEvent {
        WyomingEvent("audio-start", data: format.data.merging(["timestamp": 0]) { $1 })
    }

    /// `audio-chunk`: `bytes` in `format`, `milliseconds` into the stream.
    static func audioChunk(_ bytes: [UInt8], format: WyomingAudioFormat, milliseconds: Int) -> WyomingEvent {
        WyomingEvent(
            "audio-chunk", data: format.data.merging(["timestamp": .number(Double(milliseconds))]) { $1 },
            payload: bytes)
    }

    /// `audio-stop`, `milliseconds` into the stream: Wyoming's own peers read its data.
    static func audioStop(milliseconds: Int) -> WyomingEvent {
        WyomingEvent("audio-stop", data: ["timestamp": .number(Double(milliseconds))])
    }

    // wake
    /// `detection`: the wake word `name` heard, `milliseconds` into the audio since `audio-start`
    /// when that is known.
    static func detection(_ name: String, milliseconds: Int?) -> WyomingEvent {
        var data: [String: JSONValue] = ["name": .string(name)]
        if let milliseconds { data["timestamp"] = .number(Double(milliseconds)) }
        return WyomingEvent("detection", data: data)
    }

    /// `not-detected`: the audio stopped and no wake word was heard in it.
    static let notDetected = WyomingEvent("not-detected")

    // tts
    /// `synthesize`: a reply's text and voice, sent to a satellite before its audio.
    static func synthesize(_ text: String, voice: String) -> WyomingEvent {
        WyomingEvent("synthesize", data: ["text": .string(text), "voice": ["name": .string(voice)]])
    }

    /// `synthesize-stopped`: the audio of text sent in pieces has all been sent.
    static let synthesizeStopped = WyomingEvent("synthesize-stopped")

    // satellite
    /// `run-satellite`: a satellite connected to is told to start.
    static let runSatellite = WyomingEvent("run-satellite")

    // timer
    /// The event that tells a satellite what happened to one of its timers: `timer-started` (its
    /// length, as asked), `timer-updated` (paused or resumed, and the seconds left),
    /// `timer-cancelled` or `timer-finished`.
    static func timer(_ event: VoiceTimers.Event) -> WyomingEvent {
        let timer = event.timer
        let id: [String: JSONValue] = ["id": .string(timer.id)]
        switch event {
        case .started:
            var data = id
            data["total_seconds"] = .number(Double(timer.totalSeconds))
            if let name = timer.name { data["name"] = .string(name) }
            for (key, value) in [
                ("start_hours", timer.hours), ("start_minutes", timer.minutes),
                ("start_seconds", timer.seconds),
            ] where value > 0 {
                data[key] = .number(Double(value))
            }
            return WyomingEvent("timer-started", data: data)
        case .updated:
            return WyomingEvent(
                "timer-updated",
                data: id.merging([
                    "is_active": .bool(timer.isActive), "total_seconds": .number(Double(timer.secondsLeft)),
                ]) { $1 })
        case .cancelled:
            return WyomingEvent("timer-cancelled", data: id)
        case .finished:
            return WyomingEvent("timer-finished", data: id)
        }
    }

    /// `error`, with what went wrong.
    static func error(_ text: String) -> WyomingEvent {
        WyomingEvent("error", data: ["text": .string(text)])
    }
}
