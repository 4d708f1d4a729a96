import Synchronization

/// Timers that an app's intents start, pause, resume and cancel, kept by the package: each runs
/// out on its own, and whoever listens to the app is told.
///
/// Register one as a dependency, and reach it from the timer intents:
///
/// ```swift
/// AppDependencyManager.shared.add { VoiceTimers() }
///
/// struct SetTimerIntent: AppIntent {
///     @Parameter(title: "Minutes") var minutes: Int
///     @Dependency var timers: VoiceTimers
///     func perform() async throws -> some IntentResult & ProvidesDialog {
///         let timer = timers.start(minutes: minutes)
///         return .result(dialog: "Timer set for \(timer.spokenLength).")
///     }
/// }
/// ```
///
/// The voice loop (`listen`) says when one of its timers has run out, between turns. A Wyoming
/// server sends `timer-started`, `timer-updated`, `timer-cancelled` and `timer-finished` to the
/// satellite whose command started the timer, which shows and rings it. Each timer belongs to the
/// ``device`` its command was heard on.
public final class VoiceTimers: Sendable {
    /// One timer, as it was when it was read.
    public struct Timer: Sendable, Hashable, Identifiable {
        /// Unique among the timers of the process.
        public let id: String
        /// What the person called it ("pasta"), `nil` for none.
        public let name: String?
        /// The length asked for, as asked: hours, minutes and seconds.
        public let hours: Int
        public let minutes: Int
        public let seconds: Int
        /// Seconds left when it was read (all of them before it runs).
        public internal(set) var secondsLeft: Int
        /// Whether it is running (not paused).
        public internal(set) var isActive: Bool
        /// The device whose command started it (``VoiceTimers/device``), `nil` for the loop's own.
        public let device: String?

        /// The whole length in seconds.
        public var totalSeconds: Int { hours * 3_600 + minutes * 60 + seconds }

        /// The length as asked, said: "5 minutes", "1 hour and 30 minutes".
        public var spokenLength: String { Self.spoken(hours: hours, minutes: minutes, seconds: seconds) }

        /// What a person calls it: "the pasta timer", "the 5 minute timer".
        public var spokenName: String {
            if let name { return "the \(name) timer" }
            return "the "
                + Self.units(hours: hours, minutes: minutes, seconds: seconds)
                .map { "\($0.count) \($0.unit)" }.joined(separator: " ") + " timer"
        }

        /// A number of seconds said in hours, minutes and seconds: "4 minutes and 10 seconds".
        public static func spoken(seconds: Int) -> String {
            let seconds = max(0, seconds)
            return spoken(hours: seconds / 3_600, minutes: seconds % 3_600 / 60, seconds: seconds % 60)
        }

        static func spoken(hours: Int, minutes: Int, seconds: Int) -> String {
            let units = units(hours: hours, minutes: minutes, seconds: seconds)
            guard !units.isEmpty else { return "0 seconds" }
            return units.map { "\($0.count) \($0.unit)\($0.count == 1 ? "" : "s")" }.joined(
                separator: " and ")
        }

        private static func units(hours: Int, minutes: Int, seconds: Int) -> [(count: Int, unit: String)] {
            [(hours, "hour"), (minutes, "minute"), (seconds, "second")].filter { $0.0 > 0 }
        }
    }

    /// What happened to a timer.
    public enum Event: Sendable, Hashable {
        case started(Timer)
        /// Paused or resumed: `isActive` and `secondsLeft` say how it stands.
        case updated(Timer)
        case cancelled(Timer)
        /// It ran out.
        case finished(Timer)

        /// The timer it is about.
        public var timer: Timer {
            switch self {
            case .started(let timer), .updated(let timer), .cancelled(let timer), .finished(let timer):
                return timer
            }
        }
    }

    /// The device whose command is being run, for the timers it starts: a satellite's
    /// connection sets it while its commands run; `nil` is the loop's own.
    @TaskLocal public static var device: String?

    private struct Running: Sendable {
        var timer: Timer
        /// When it runs out, while active.
        var deadline: ContinuousClock.Instant?
        /// Ends it at ``deadline``.
        var ticking: Task<Void, Never>?
    }

    private struct State: Sendable {
        var timers: [Running] = []
        var listeners: [Int: AsyncStream<Event>.Continuation] = [:]
        var nextListener = 0
        var nextTimer = 1
    }

    private let state = Mutex(State())

    public init() {}

    /// The timers that have not run out or been cancelled, oldest first, with the seconds each
    /// has left now.
    public var timers: [Timer] {
        let now = ContinuousClock.now
        return state.withLock { state in state.timers.map { Self.reading($0, at: now) } }
    }

    /// The timers of the device whose command is being run (``device``), oldest first.
    public var timersHere: [Timer] {
        let device = Self.device
        return timers.filter { $0.device == device }
    }

    /// Starts a timer for the device whose command is being run.
    @discardableResult
    public func start(hours: Int = 0, minutes: Int = 0, seconds: Int = 0, name: String? = nil) -> Timer {
        let device = Self.device
        let now = ContinuousClock.now
        let timer = state.withLock { state -> Timer in
            let timer = Timer(
                id: "timer-\(state.nextTimer)", name: name, hours: max(0, hours), minutes: max(0, minutes),
                seconds: max(0, seconds), secondsLeft: 0, isActive: true, device: device)
            state.nextTimer += 1
            var running = Running(timer: timer)
            running.timer.secondsLeft = timer.totalSeconds
            running.deadline = now + .seconds(timer.totalSeconds)
            running.ticking = ticking(timer.id, for: .seconds(timer.totalSeconds))
            state.timers.append(running)
            return running.timer
        }
        publish(.started(timer))
        return timer
    }

    /// Cancels a timer; `nil` when it is no longer there.
    @discardableResult
    public func cancel(_ id: Timer.ID) -> Timer? {
        let now = ContinuousClock.now
        let cancelled = state.withLock { state -> Timer? in
            guard let index = state.timers.firstIndex(where: { $0.timer.id == id }) else { return nil }
            let running = state.timers.remove(at: index)
            running.ticking?.cancel()
            return Self.reading(running, at: now)
        }
        if let cancelled { publish(.cancelled(cancelled)) }
        return cancelled
    }

    /// Pauses a running timer (`active: false`) or resumes a paused one; `nil` when it is no
    /// longer there.
    @discardableResult
    public func setActive(_ id: Timer.ID, _ active: Bool) -> Timer? {
        let now = ContinuousClock.now
        let updated = state.withLock { state -> Timer? in
            guard let index = state.timers.firstIndex(where: { $0.timer.id == id }) else { return nil }
            var running = state.timers[index]
            running.timer = Self.reading(running, at: now)
            guard running.timer.isActive != active else { return running.timer }
            running.ticking?.cancel()
            running.timer.isActive = active
            if active {
                running.deadline = now + .seconds(running.timer.secondsLeft)
                running.ticking = ticking(id, for: .seconds(running.timer.secondsLeft))
            } else {
                running.deadline = nil
                running.ticking = nil
            }
            state.timers[index] = running
            return running.timer
        }
        if let updated { publish(.updated(updated)) }
        return updated
    }

    /// What happens to the timers from now on, until the stream is let go.
    public func events() -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: Event.self, bufferingPolicy: .bufferingNewest(64))
        let key = state.withLock { state in
            let key = state.nextListener
            state.nextListener += 1
            state.listeners[key] = continuation
            return key
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.listeners.removeValue(forKey: key) }
        }
        return stream
    }

    private func publish(_ event: Event) {
        let listeners = state.withLock { Array($0.listeners.values) }
        for listener in listeners { listener.yield(event) }
    }

    /// A task that ends the timer `id` after `length`, unless cancelled first.
    private func ticking(_ id: Timer.ID, for length: Duration) -> Task<Void, Never> {
        Task { [weak self] in
            do { try await Task.sleep(for: length) } catch { return }
            self?.finish(id)
        }
    }

    private func finish(_ id: Timer.ID) {
        let finished = state.withLock { state -> Timer? in
            guard let index = state.timers.firstIndex(where: { $0.timer.id == id && $0.timer.isActive })
            else { return nil }
            var timer = state.timers.remove(at: index).timer
            timer.secondsLeft = 0
            return timer
        }
        if let finished { publish(.finished(finished)) }
    }

    private static func reading(_ running: Running, at now: ContinuousClock.Instant) -> Timer {
        var timer = running.timer
        if let deadline = running.deadline {
            let left = now.duration(to: deadline).components
            timer.secondsLeft = max(0, Int(left.seconds) + (left.attoseconds > 0 ? 1 : 0))
        }
        return timer
    }
}
