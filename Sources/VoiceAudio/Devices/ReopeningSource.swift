import Foundation

/// A source that outlives its device: when a read fails (a USB microphone pulled out, the sound
/// server restarted), it reports the loss once, reopens the device with a growing pause between
/// attempts, and carries on reading. With a ``Policy/stallTimeout``, a read that waits that long
/// for audio (a sound server that hangs) counts as a failure too.
///
/// ```swift
/// let microphone = try ReopeningSource(device: .automatic) { event in
///     logger.warning("\(event)")   // "lost the default PulseAudio source (…); reopening it"
/// }
/// while true {
///     let samples = try microphone.read(1_600)   // throws only when it gives up
/// }
/// ```
///
/// Audio from while the device was gone is missing: the stream has a gap, not silence.
package final class ReopeningSource: AudioSource {
    /// How long to keep trying, and how fast.
    package struct Policy: Sendable, Hashable {
        /// The pause before the first attempt to reopen.
        package var firstDelay: Duration
        /// Pauses double after each failed attempt, up to this.
        package var maximumDelay: Duration
        /// How many attempts before ``ReopeningSource/read(_:)`` gives up; `nil` for never.
        package var maximumAttempts: Int?
        /// How long a read, or an attempt to open the device, may wait before the device counts
        /// as lost; `nil` for as long as it takes. A microphone sends audio all the time, silence
        /// included, so a read that waits far longer than the audio it asks for means the device
        /// or the sound server hangs (one that is stopped, or a client library that deadlocks
        /// when its server goes away). The read that hangs is left behind on a thread of its own,
        /// with its connection, and the device is opened anew. While three calls left behind still
        /// hang, no new attempt starts, so a server that hangs for hours does not use up the
        /// process's threads and files.
        package var stallTimeout: Duration?

        /// Creates a policy.
        ///
        /// - Parameters:
        ///   - firstDelay: The pause before the first attempt; half a second unless given.
        ///   - maximumDelay: The longest pause; four seconds unless given.
        ///   - maximumAttempts: Attempts before giving up; `nil` (never) unless given.
        ///   - stallTimeout: How long a read or an opening may wait; `nil` (as long as it takes)
        ///     unless given.
        package init(
            firstDelay: Duration = .milliseconds(500), maximumDelay: Duration = .seconds(4),
            maximumAttempts: Int? = nil, stallTimeout: Duration? = nil
        ) {
            self.firstDelay = firstDelay
            self.maximumDelay = max(maximumDelay, firstDelay)
            self.maximumAttempts = maximumAttempts
            self.stallTimeout = stallTimeout
        }

        /// Half a second, doubling to four seconds, forever.
        package static let standard = Policy()

        /// ``standard``, and a device that sends nothing for ten seconds is lost: for a loop that
        /// listens for days.
        package static let unattended = Policy(stallTimeout: .seconds(10))

        /// The pause before attempt `attempt` (counting from 1).
        func delay(before attempt: Int) -> Duration {
            var delay = firstDelay
            for _ in 1..<max(attempt, 1) where delay < maximumDelay { delay *= 2 }
            return min(delay, maximumDelay)
        }
    }

    /// What happened to the device, for a log or a listener.
    package enum Event: Sendable, Hashable, CustomStringConvertible {
        /// A read failed; the source is trying to reopen the device.
        case lost(SpeechError)
        /// The device is back and has delivered audio again.
        case reopened(attempts: Int, after: Duration)

        package var description: String {
            switch self {
            case .lost(let error):
                "lost the microphone (\(error.message)); reopening it"
            case .reopened(let attempts, let after):
                "the microphone is back after \(Self.seconds(after)) (\(attempts) attempt\(attempts == 1 ? "" : "s"))"
            }
        }

        static func seconds(_ duration: Duration) -> String {
            let milliseconds =
                duration.components.seconds * 1_000 + duration.components.attoseconds / 1_000_000_000_000_000
            return "\(milliseconds / 1_000).\(milliseconds % 1_000 / 100) s"
        }
    }

    /// An outage in progress: what went wrong first and last, and how long it has lasted.
    private struct Outage {
        let started: ContinuousClock.Instant
        var lastError: SpeechError
        var attempts = 0
    }

    private let open: () throws(SpeechError) -> any AudioSource
    private let report: (Event) -> Void
    /// How it keeps trying.
    package let policy: Policy
    package let name: String
    private var source: (any AudioSource)?
    private var outage: Outage?
    /// Reads and openings left behind by the stall timeout that have not ended yet.
    private let stalled: StalledCalls

    /// Opens a source with `open`, and again with it whenever the source fails.
    ///
    /// - Parameters:
    ///   - policy: How long to keep trying, and how fast.
    ///   - report: Called on the reading thread: once when the device is lost, once when it is back.
    ///   - open: Opens the device; called now and after each loss.
    /// - Throws: ``SpeechError`` from the first `open`: a device missing from the start is an
    ///   error, not something to wait for.
    package init(
        policy: Policy = .standard, report: @escaping (Event) -> Void = { _ in },
        open: @escaping () throws(SpeechError) -> any AudioSource
    ) throws(SpeechError) {
        let stalled = StalledCalls()
        let source = try Self.within(
            policy.stallTimeout, stalled: stalled,
            failing: { "opening the microphone did not finish in \($0)" },
            open)
        self.stalled = stalled
        self.source = source
        self.name = source.name
        self.open = open
        self.report = report
        self.policy = policy
    }

    /// Opens `device` for recording, and again whenever it fails.
    ///
    /// - Parameters:
    ///   - device: The device to record from.
    ///   - policy: How long to keep trying, and how fast.
    ///   - report: Called on the reading thread: once when the device is lost, once when it is back.
    /// - Throws: ``SpeechError`` when the device cannot be opened now.
    package convenience init(
        device: AudioDevice, policy: Policy = .standard, report: @escaping (Event) -> Void = { _ in }
    ) throws(SpeechError) {
        try self.init(policy: policy, report: report) { () throws(SpeechError) in try device.openSource() }
    }

    package var latency: Double? { source?.latency }

    /// Reads `count` samples, reopening the device as often as the policy allows when it fails.
    ///
    /// - Throws: ``SpeechError`` naming the device and the last reason once the policy's
    ///   attempts are used up. A later read starts trying afresh.
    package func read(_ count: Int) throws(SpeechError) -> [Int16] {
        while true {
            if let source {
                do {
                    let samples = try Self.within(
                        policy.stallTimeout, stalled: stalled, failing: { "\(name) sent no audio for \($0)" },
                        { () throws(SpeechError) in try source.read(count) })
                    if let outage {
                        report(.reopened(attempts: outage.attempts, after: .now - outage.started))
                        self.outage = nil
                    }
                    return samples
                } catch {
                    // Frees the C handle before trying again (a read left behind frees it when it ends).
                    self.source = nil
                    if outage == nil {
                        outage = Outage(started: .now, lastError: error)
                        report(.lost(error))
                    } else {
                        outage?.lastError = error
                    }
                }
            }
            try reopen()
        }
    }

    /// One attempt to reopen the device, after the policy's pause.
    private func reopen() throws(SpeechError) {
        guard var outage else { return }
        if let maximum = policy.maximumAttempts, outage.attempts >= maximum {
            self.outage = nil
            let seconds = Event.seconds(.now - outage.started)
            throw SpeechError(
                .deviceUnavailable,
                "lost \(name) and could not reopen it (\(outage.attempts) attempts in \(seconds)): "
                    + outage.lastError.message,
                code: outage.lastError.code)
        }
        outage.attempts += 1
        Thread.sleep(forTimeInterval: policy.delay(before: outage.attempts) / .seconds(1))
        do {
            source = try Self.within(
                policy.stallTimeout, stalled: stalled, failing: { "opening \(name) did not finish in \($0)" },
                open)
        } catch {
            outage.lastError = error
        }
        self.outage = outage
    }
}

extension ReopeningSource {
    /// `work`'s result, when it comes within `timeout` (at once without one). Otherwise `work`
    /// is left to finish on its thread, counted in `stalled` until it does, its result dropped,
    /// and the error is `failing`'s words for the timeout ("2.0 s"). While `stalled` holds its
    /// limit of such calls, `work` is not started at all: each holds a thread and a connection,
    /// and a server that hangs for hours would otherwise gather them until the process runs out
    /// of files.
    static func within<T>(
        _ timeout: Duration?, stalled: StalledCalls, failing: (String) -> String,
        _ work: @escaping () throws(SpeechError) -> T
    ) throws(SpeechError) -> T {
        guard let timeout else { return try work() }
        let waiting = stalled.count
        guard waiting < stalled.limit else {
            throw SpeechError(
                .deviceUnavailable,
                "\(waiting) earlier calls to the device still hang; not trying again until one ends")
        }
        let slot = DeadlineSlot(work, stalled: stalled)
        BlockingThreads.shared.run { slot.run() }
        let finished = slot.done.wait(timeout: .now() + timeout / .seconds(1)) == .success
        guard let result = finished ? slot.result : slot.abandon() else {
            throw SpeechError(
                .deviceUnavailable, failing(Event.seconds(timeout)) + ": the device or the sound server hangs"
            )
        }
        return try result.get()
    }
}

/// The calls ``ReopeningSource/within(_:stalled:failing:_:)`` left running past their timeout
/// that have not ended yet.
final class StalledCalls: @unchecked Sendable {  // all state behind `lock`
    private let lock = NSLock()
    private var running = 0
    /// The most left running at once.
    let limit: Int

    init(limit: Int = 3) { self.limit = limit }

    var count: Int { lock.withLock { running } }
    func left() { lock.withLock { running += 1 } }
    func ended() { lock.withLock { running -= 1 } }
}

/// One call of ``ReopeningSource/within(_:stalled:failing:_:)``'s work and its result, handed
/// between the thread that runs it and the one that waits. Its lock decides, when the wait ends
/// as the work does, whether the work finished in time or was left behind, so a call left
/// behind is counted in `stalled` until it ends, and no other is.
private final class DeadlineSlot<T>: @unchecked Sendable {  // `finishedResult`, `abandoned` behind `lock`
    private let work: () throws(SpeechError) -> T
    private let stalled: StalledCalls
    private let lock = NSLock()
    private var finishedResult: Result<T, SpeechError>?
    private var abandoned = false
    let done = DispatchSemaphore(value: 0)

    init(_ work: @escaping () throws(SpeechError) -> T, stalled: StalledCalls) {
        self.work = work
        self.stalled = stalled
    }

    /// The work's result, once it has finished.
    var result: Result<T, SpeechError>? { lock.withLock { finishedResult } }

    func run() {
        let outcome: Result<T, SpeechError>
        do throws(SpeechError) {
            outcome = .success(try work())
        } catch {
            outcome = .failure(error)
        }
        let wasAbandoned = lock.withLock {
            finishedResult = outcome
            return abandoned
        }
        if wasAbandoned { stalled.ended() }
        done.signal()
    }

    /// Leaves the work behind, unless it finished meanwhile: then its result.
    func abandon() -> Result<T, SpeechError>? {
        lock.withLock {
            if let finishedResult { return finishedResult }
            abandoned = true
            stalled.left()
            return nil
        }
    }
}
