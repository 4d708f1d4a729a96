import Foundation
import VoiceAudio

/// Records from a real source on a thread of its own while the test plays something.
///
/// The source is opened on that thread (sources are used from one thread at a time), so the
/// test hands over how to open it rather than the source itself.
package final class BackgroundRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var samples: [Int16] = []
    private var failure: SpeechError?
    private let recording = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    /// Starts a thread that opens a source with `open` and reads `seconds` of audio from it in
    /// 100 ms blocks.
    package init(seconds: Double, open: @escaping @Sendable () throws(SpeechError) -> any AudioSource) {
        Thread.detachNewThread { [self] in
            defer { finished.signal() }
            let source: any AudioSource
            do throws(SpeechError) {
                source = try open()
            } catch {
                lock.withLock { failure = error }
                recording.signal()
                return
            }
            recording.signal()
            let blocks = Int((seconds * 10).rounded(.up))
            for _ in 0..<blocks {
                do throws(SpeechError) {
                    let block = try source.read(1_600)
                    lock.withLock { samples.append(contentsOf: block) }
                } catch {
                    lock.withLock { failure = error }
                    return
                }
            }
        }
    }

    /// Waits until the source is open (or failed to open).
    package func waitUntilRecording() throws {
        guard recording.wait(timeout: .now() + 10) == .success else {
            throw SpeechError(.deviceUnavailable, "the recorder did not open its source within 10 s")
        }
        if let failure = lock.withLock({ failure }) { throw failure }
    }

    /// Waits for the recording to end and returns it.
    package func result(timeout: Double = 20) throws -> [Int16] {
        guard finished.wait(timeout: .now() + timeout) == .success else {
            throw SpeechError(.deviceUnavailable, "the recorder did not finish within \(timeout) s")
        }
        return try lock.withLock {
            if let failure { throw failure }
            return samples
        }
    }
}
