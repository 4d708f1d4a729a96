/// An event a peer sends the server, read by protocol area. Events of a type the server does not
/// take are ignored, as the protocol asks of every program: a newer peer's events are no error.
enum WyomingRequest: Sendable {
    case info(Info)
    case asr(ASR)
    case audio(Audio)
    case intent(Intent)
    case tts(TTS)
    case satellite(Satellite)
    /// A type the server does not take.
    case ignored(type: String)

    /// What the server is: `describe`; and `ping`, to which it answers `pong`.
    enum Info: Sendable {
        case describe
        case ping(text: JSONValue?)
    }

    /// Speech to text: `transcribe` starts an utterance, whose audio follows.
    enum ASR: Sendable {
        case transcribe
    }

    /// Audio: an utterance's or a satellite's microphone's.
    enum Audio: Sendable {
        /// `audio-start`, with its format when it gives one the server reads.
        case start(WyomingAudioFormat?)
        /// `audio-chunk`: its format, when it says it, and its samples' bytes.
        case chunk(WyomingAudioFormat?, bytes: [UInt8])
        /// `audio-stop`.
        case stop
    }

    /// Intents: `recognize` (the intent and its values only) and `transcript`, the words of a
    /// command to run, as Home Assistant's conversation agent sends them (`handle`).
    enum Intent: Sendable {
        case recognize(text: String?)
        case handle(text: String?)
    }

    /// Text to speech: `synthesize`.
    enum TTS: Sendable {
        case synthesize(text: String?, voice: String?)
    }

    /// A satellite's conversation: `run-pipeline` and `played` (a reply has been heard).
    enum Satellite: Sendable {
        case runPipeline(Result<SatellitePipeline.Stages, WyomingFrameError>, data: [String: JSONValue])
        case played
    }

    init(_ event: WyomingEvent) {
        switch event.type {
        case "describe": self = .info(.describe)
        case "ping": self = .info(.ping(text: event.data["text"]))
        case "transcribe": self = .asr(.transcribe)
        case "audio-start": self = .audio(.start(WyomingAudioFormat(of: event)))
        case "audio-chunk": self = .audio(.chunk(WyomingAudioFormat(of: event), bytes: event.payload))
        case "audio-stop": self = .audio(.stop)
        case "recognize": self = .intent(.recognize(text: event.data["text"]?.string))
        case "transcript": self = .intent(.handle(text: event.data["text"]?.string))
        case "synthesize":
            self = .tts(
                .synthesize(text: event.data["text"]?.string, voice: event.data["voice"]?["name"]?.string))
        case "run-pipeline":
            self = .satellite(.runPipeline(SatellitePipeline.Stages.of(event), data: event.data))
        case "played": self = .satellite(.played)
        default: self = .ignored(type: event.type)
        }
    }
}
