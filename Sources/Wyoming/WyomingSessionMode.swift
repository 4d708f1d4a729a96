import VoiceRecognition

/// What a session does, one thing at a time.
extension WyomingSession {
    /// What a session is doing, each mode with the state only it needs.
    enum Mode {
        /// Nothing under way. Audio that comes now starts an utterance to transcribe.
        case idle
        /// An utterance heard under the app's grammar as it streams, until `audio-stop`.
        case transcribing(Utterance)
        /// An utterance the recognizer could not start or go on with: its audio is dropped, and
        /// `audio-stop` answers an empty transcript.
        case unheard
        /// Audio heard for wake words, from `detect` to `audio-stop`.
        case detecting(Detection)
        /// A satellite's conversation (`run-pipeline`): the audio is its microphone's. It stays the
        /// mode after the conversation has ended, until a request starts another.
        case conversation(Satellite)
        /// Text to speak arriving in pieces, from `synthesize-start` to `synthesize-stop`.
        case synthesizing(TextInPieces)

        /// The mode's name, for logs and tests.
        var name: String {
            switch self {
            case .idle: "idle"
            case .transcribing: "transcribing"
            case .unheard: "unheard"
            case .detecting: "detecting"
            case .conversation: "conversation"
            case .synthesizing: "synthesizing"
            }
        }
    }

    /// An utterance being transcribed: its audio converted to 16 kHz as it arrives and decoded.
    final class Utterance {
        var converter: ChunkConverter?
        let streamed: StreamedUtterance
        /// How many 16 kHz samples it has had.
        var frames = 0
        /// Which of its words have been sent as `transcript-chunk`s.
        var partials = StablePartials()
        /// The `context` its `transcribe` came with, for its transcript.
        let context: JSONValue?

        init(_ format: WyomingAudioFormat, streamed: StreamedUtterance, context: JSONValue? = nil) {
            converter = ChunkConverter(format)
            self.streamed = streamed
            self.context = context
        }
    }

    /// Wake-word listening: the detectors, and the audio's converter from `audio-start` on.
    final class Detection {
        let wake: WakeListening
        var converter: ChunkConverter?

        init(_ wake: WakeListening) { self.wake = wake }
    }

    /// A satellite's conversation, and its microphone audio's converter from `audio-start` on.
    final class Satellite {
        let pipeline: SatellitePipeline
        var converter: ChunkConverter?

        init(_ pipeline: SatellitePipeline) { self.pipeline = pipeline }
    }

    /// Text to speak that arrives in pieces: its voice, and what has come of it that is no whole
    /// sentence yet.
    struct TextInPieces {
        let voice: String
        /// Whether the text is SSML: one document, spoken whole at `synthesize-stop`.
        var ssml = false
        var pending = ""

        /// The whole sentences that `text` ends, to speak now; the rest waits for more, unless it
        /// has grown longer than ``WyomingSession/longestPendingText`` without ending a sentence.
        /// SSML waits whole, up to ``WyomingSession/longestSSML``, and then is given back.
        mutating func add(_ text: String) -> [String] {
            pending += text
            if ssml {
                guard pending.count > WyomingSession.longestSSML else { return [] }
                defer { pending = "" }
                return [pending]
            }
            var (sentences, rest) = WyomingSession.wholeSentences(of: pending)
            if rest.count > WyomingSession.longestPendingText {
                sentences.append(rest)
                rest = ""
            }
            pending = rest
            return sentences
        }
    }
}
