import Foundation

/// Records from a source on a thread of its own, so no audio is lost while the listener is busy
/// (matching, running an intent, speaking), and what was recorded while the app itself spoke can
/// be thrown away.
///
/// ```swift
/// let capture = ContinuousCapture(source: try ReopeningSource(device: .automatic))
/// capture.start()
/// let result = try recognizer.listen(timeout: 10, read: capture.read)
/// capture.muted = true
/// try speaker.play(reply); try speaker.drain()
/// capture.muted = false       // drops what the microphone heard of the reply
/// ```
///
/// ``read()`` blocks until a chunk has been recorded and returns `nil` once ``stop()`` has been
/// called or the source failed for good (see ``failure``).
package final class ContinuousCapture: @unchecked Sendable {  // all state behind `condition`
    /// The source being recorded.
    package let name: String
    /// Samples per chunk handed out by ``read()``: 1,600 (100 ms).
    package let chunk: Int
    /// Recorded audio kept at most, in chunks: older chunks are dropped when the listener falls
    /// this far behind (30 s unless given).
    package let capacity: Int
    /// Takes what the app plays out of what is recorded, before anything else hears it; `nil`
    /// for none.
    package let echoCanceller: EchoCanceller?

    private let source: any AudioSource
    private let condition = NSCondition()
    private var chunks: [MeasuredChunk] = []
    private var stopped = false
    private var started = false
    private var isMuted = false
    private var skipAfterMute = 0
    private var keepFrom: ContinuousClock.Instant?
    private var error: SpeechError?

    /// - Parameters:
    ///   - source: Where to record from; give a ``ReopeningSource`` to outlive the device.
    ///   - chunk: Samples per chunk.
    ///   - capacity: Chunks kept before the oldest are dropped.
    ///   - echoTail: Chunks dropped after unmuting.
    ///   - echoCanceller: Takes the app's own playing out of every chunk recorded (its player
    ///     hands it what is played).
    package init(
        source: any AudioSource, chunk: Int = 1_600, capacity: Int = 300, echoTail: Int = 2,
        echoCanceller: EchoCanceller? = nil
    ) {
        self.source = source
        self.echoCanceller = echoCanceller
        self.name = source.name
        self.chunk = chunk
        self.capacity = capacity
        self.echoTail = echoTail
    }

    /// Starts the recording thread (once).
    package func start() {
        condition.lock()
        defer { condition.unlock() }
        guard !started else { return }
        started = true
        BlockingThreads.shared.run { [self] in record() }
    }

    /// Stops recording: ``read()`` returns `nil` from now on, and a read that waits returns at
    /// once. Safe from any thread (a signal handler's queue included).
    package func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    /// Whether recordings are being thrown away, as while the app speaks. Unmuting also drops
    /// what was recorded before it and the next ``echoTail`` chunks, where the end of the reply
    /// may still sound.
    package var muted: Bool {
        get { condition.withLock { isMuted } }
        set {
            condition.withLock {
                if isMuted && !newValue {
                    chunks.removeAll()
                    skipAfterMute = echoTail
                }
                isMuted = newValue
            }
        }
    }

    /// Chunks dropped after unmuting: 2 (200 ms) unless given, the latency of most sound
    /// servers.
    package let echoTail: Int

    /// ``echoTail`` as a length of time.
    package var echoTailDuration: Duration { Self.duration(of: echoTail * chunk) }

    /// Drops what the microphone recorded before `instant`, and keeps what it recorded from
    /// then on: chunks not read yet that began to be recorded before it, and those still to come
    /// that do. Where ``muted`` drops everything up to the moment it is set, this drops up to the
    /// moment something ended (a reply played with the microphone open, and its echo tail),
    /// however late the caller gets there: words someone began after it are kept.
    package func dropRecorded(before instant: ContinuousClock.Instant) {
        condition.withLock {
            chunks.removeAll { $0.began < instant }
            keepFrom = instant
        }
    }

    private static func duration(of samples: Int) -> Duration {
        .seconds(Double(samples) / Double(AudioFormat.recognizerSampleRate))
    }

    /// Why recording ended, when the source failed for good.
    package var failure: SpeechError? { condition.withLock { error } }

    /// The next recorded chunk, waiting for it; `nil` after ``stop()`` or a failure.
    package func read() -> [Int16]? {
        readMeasured()?.samples
    }

    /// A chunk as ``readMeasured()`` gives it.
    package struct MeasuredChunk: Sendable {
        /// What was recorded, with the echo canceller's work done.
        package var samples: [Int16]
        /// Its energy as recorded, before the echo canceller (the same as after without one):
        /// against the samples' own energy, how much of it the canceller let through. Where only
        /// the app's echo sounded, little passes; a person speaking over it passes nearly whole.
        package var recordedEnergy: Double
        /// The energy of what the app played as it was recorded, as the echo canceller lined it
        /// up with the recording (0 without one): where a reply was turned down, it falls.
        package var playedEnergy: Double
        /// When its last sample was recorded: the moment the source's read returned, less the
        /// source's latency.
        package var recordedAt: ContinuousClock.Instant

        /// When its first sample was recorded.
        package var began: ContinuousClock.Instant {
            recordedAt - ContinuousCapture.duration(of: samples.count)
        }

        package init(
            samples: [Int16], recordedEnergy: Double, playedEnergy: Double = 0,
            recordedAt: ContinuousClock.Instant = .now
        ) {
            self.samples = samples
            self.recordedEnergy = recordedEnergy
            self.playedEnergy = playedEnergy
            self.recordedAt = recordedAt
        }
    }

    /// The next recorded chunk, as ``read()``, with its energy as recorded and what was played
    /// meanwhile.
    package func readMeasured() -> MeasuredChunk? {
        condition.lock()
        defer { condition.unlock() }
        while chunks.isEmpty && !stopped && error == nil { condition.wait() }
        guard !stopped, !chunks.isEmpty else { return nil }
        return chunks.removeFirst()
    }

    /// Chunks recorded and not read yet: how far a reader is behind the microphone.
    package var backlog: Int { condition.withLock { chunks.count } }

    /// Puts `chunks` (as ``readMeasured()`` gave them, oldest first) back before what is still
    /// to be read: the next reader hears them again. A listener that stops in the middle of
    /// someone's words gives them back to the one that listens next.
    package func unread(_ chunks: [MeasuredChunk]) {
        condition.withLock {
            self.chunks.insert(contentsOf: chunks, at: 0)
            condition.broadcast()
        }
    }

    /// The sum of the squares of `samples`.
    package static func energy(_ samples: some Collection<Int16>) -> Double {
        samples.reduce(0.0) { $0 + Double($1) * Double($1) }
    }

    private func record() {
        while true {
            // A chunk whose recording began while muted holds the reply too: it is dropped
            // whole, and the echo tail counts from the first chunk recorded after unmuting.
            let (isStopped, startedMuted) = condition.withLock { (stopped, isMuted) }
            if isStopped { return }
            var measured: MeasuredChunk
            do {
                let samples = try source.read(chunk)
                measured = MeasuredChunk(
                    samples: samples, recordedEnergy: Self.energy(samples),
                    recordedAt: .now - .seconds(source.latency ?? 0))
                if let echoCanceller {
                    // Every chunk, muted or not: the canceller follows the room all along.
                    (measured.samples, measured.playedEnergy) = echoCanceller.cancelMeasured(
                        samples, recordedAt: measured.recordedAt)
                }
            } catch {
                condition.withLock {
                    self.error = error
                    condition.broadcast()
                }
                return
            }
            condition.withLock {
                if isMuted || startedMuted { return }
                if let keepFrom, measured.began < keepFrom { return }
                if skipAfterMute > 0 {
                    skipAfterMute -= 1
                    return
                }
                chunks.append(measured)
                if chunks.count > capacity { chunks.removeFirst(chunks.count - capacity) }
                condition.broadcast()
            }
        }
    }
}
