/// A failure of the speech layer, with what to do about it.
///
/// ```swift
/// do { try SpeechRecognizer() } catch { print(error) }
/// // "missing model: no acoustic model at /usr/share/pocketsphinx/model/en-us/en-us; install pocketsphinx-en-us"
/// ```
public struct SpeechError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure it is.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        let name: String

        /// A model, dictionary or voice data file is missing.
        public static let missingModel = Kind(name: "missing model")
        /// The input (a grammar, a voice name, audio) is not usable.
        public static let invalidInput = Kind(name: "invalid input")
        /// An audio device (microphone, sound server) cannot be used.
        public static let deviceUnavailable = Kind(name: "device unavailable")
        /// The C library reported an error.
        public static let engineFailure = Kind(name: "engine failure")

        public var description: String { name }
    }

    public let kind: Kind
    /// What happened and what to try.
    public let message: String
    /// The C library's return code, when there is one.
    public let code: Int?

    public init(_ kind: Kind, _ message: String, code: Int? = nil) {
        self.kind = kind
        self.message = message
        self.code = code
    }

    public var description: String { "\(kind): \(message)" }
}
