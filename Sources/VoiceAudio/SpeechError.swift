/// A failure of the speech layer, with what to do about it.
///
/// ```swift
/// do { try SpeechRecognizer() } catch { print(error) }
/// // "missing model: no acoustic model at /usr/share/pocketsphinx/model/en-us/en-us; install pocketsphinx-en-us"
/// ```
public struct SpeechError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure it is.
    package struct Kind: Sendable, Hashable, CustomStringConvertible {
        let name: String

        /// A model, dictionary or voice data file is missing.
        package static let missingModel = Kind(name: "missing model")
        /// The input (a grammar, a voice name, audio) is not usable.
        package static let invalidInput = Kind(name: "invalid input")
        /// An audio device (microphone, sound server) cannot be used.
        package static let deviceUnavailable = Kind(name: "device unavailable")
        /// The C library reported an error.
        package static let engineFailure = Kind(name: "engine failure")

        package var description: String { name }
    }

    package let kind: Kind
    /// What happened and what to try.
    package let message: String
    /// The C library's return code, when there is one.
    package let code: Int?

    package init(_ kind: Kind, _ message: String, code: Int? = nil) {
        self.kind = kind
        self.message = message
        self.code = code
    }

    public var description: String { "\(kind): \(message)" }
}
