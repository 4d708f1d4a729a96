import Foundation
import Logging
import Synchronization
import VoiceAudio

/// Where the loop hears from: a recording read to its end, or a microphone recorded on its own
/// thread until stopped.
public final class VoiceInput: @unchecked Sendable {  // its flags are atomic; the rest is immutable
    public let name: String
    /// The microphone's recorder, `nil` for a recording.
    package let capture: ContinuousCapture?
    private let next: () throws(SpeechError) -> [Int16]?
    private let stopped = Atomic(false)
    private let finished = Atomic(false)

    /// A WAV file, read in 100 ms chunks at 16 kHz.
    public init(recording path: String) throws {
        capture = nil
        name = path
        let stream = SampleStream(try WAVFile.read(from: URL(fileURLWithPath: path)).forRecognizer)
        next = { stream.read() }
    }

    /// Raw 16 kHz 16-bit mono PCM on standard input (`arecord -f S16_LE -r 16000 -c 1 | …`), read
    /// in 100 ms chunks until it ends.
    public static func standardInput() -> VoiceInput {
        let pcm = Mutex(RawPCMReader())
        return VoiceInput(name: "standard input") { () throws(SpeechError) -> [Int16]? in
            do {
                return try pcm.withLock { try $0.next() }
            } catch {
                throw SpeechError(.invalidInput, "\(error)")
            }
        }
    }

    /// `device`, reopened whenever it goes away (a USB microphone pulled out, the sound server
    /// restarted) or sends nothing for ten seconds (a sound server that hangs), for as long as
    /// the loop runs; with `echoCanceller`, what the loop's ``Mouth``
    /// plays (given the same canceller) is taken out of what it records.
    public init(microphone device: AudioDevice, echoCanceller: EchoCanceller? = nil, logger: Logger)
        throws(SpeechError)
    {
        let source = try ReopeningSource(device: device, policy: .unattended) { event in
            switch event {
            case .lost: logger.warning("\(event)")
            case .reopened: logger.notice("\(event)")
            }
        }
        let capture = ContinuousCapture(source: source, echoCanceller: echoCanceller)
        capture.start()
        self.capture = capture
        self.name = source.name
        next = { capture.read() }
    }

    /// Any other source of 16 kHz mono samples (a network stream, a test's script): `read`
    /// returns the next chunk, blocking until it has one, and `nil` at the end.
    public init(name: String, read: @escaping @Sendable () throws(SpeechError) -> [Int16]?) {
        self.name = name
        capture = nil
        next = read
    }

    /// The next chunk of 16 kHz samples; `nil` at the end of a recording or once stopped.
    public func read() throws(SpeechError) -> [Int16]? {
        guard !stopped.load(ordering: .relaxed), let samples = try next() else {
            finished.store(true, ordering: .relaxed)
            return nil
        }
        return samples
    }

    /// Whether ``read()`` has reached the end: of a recording or stream, or of listening once
    /// stopped.
    public var hasEnded: Bool { finished.load(ordering: .relaxed) }

    /// Ends the input: the loop finishes its turn and stops.
    public func stop() {
        stopped.store(true, ordering: .relaxed)
        capture?.stop()
    }
}
