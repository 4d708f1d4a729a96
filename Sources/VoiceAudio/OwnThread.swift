import Foundation

/// Runs `body` on a thread of its own and waits for it without holding one of Swift's few
/// cooperative threads: loading the models, decoding, synthesis, wake-word inference and reading a
/// terminal block for up to seconds (listening for a command, until it is said), and every other
/// task of the program (another voice loop, a server's connections answering `describe`) needs
/// those threads. Every call into PocketSphinx, eSpeak NG or TensorFlow Lite from async code goes
/// through it.
///
/// The threads are ``BlockingThreads``': dedicated ones, not Dispatch's global queues, which on
/// Linux are the threads the cooperative pool runs on.
package func onThreadOfItsOwn<Value: Sendable, Failure: Error>(
    _ body: @escaping @Sendable () throws(Failure) -> Value
) async throws(Failure) -> Value {
    let result = await withCheckedContinuation {
        (continuation: CheckedContinuation<Result<Value, Failure>, Never>) in
        BlockingThreads.shared.run {
            continuation.resume(returning: Result { () throws(Failure) in try body() })
        }
    }
    return try result.get()
}

/// Threads for blocking work, kept apart from Swift's cooperative pool: a job runs on an idle one,
/// or on a new one when every one is busy, so a job that blocks for as long as a room is quiet
/// never holds up another. A thread idle for ``idleLifetime`` ends: the program keeps as many as
/// its busiest moment needed, no more.
package final class BlockingThreads: @unchecked Sendable {  // the state is under `condition`'s lock
    /// The process's threads for blocking work.
    package static let shared = BlockingThreads()

    /// Set on each of the threads, for ``isCurrentThreadOne``.
    private static let marker: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Whether the calling thread is one of the threads for blocking work (of any instance).
    package static var isCurrentThreadOne: Bool { pthread_getspecific(marker) != nil }

    /// How long a thread waits for another job before it ends.
    static let idleLifetime: TimeInterval = 30

    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []
    /// Threads waiting for a job.
    private var idle = 0
    /// Threads running, busy or idle.
    private var threads = 0

    /// The threads running now, busy or idle (for tests and benchmarks).
    package var threadCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return threads
    }

    /// Runs `job` on one of the threads, soon: an idle one, or a new one when there are more jobs
    /// waiting than idle threads to take them.
    package func run(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        defer { condition.unlock() }
        jobs.append(job)
        guard jobs.count > idle else { return condition.signal() }
        threads += 1
        Thread { [self] in
            pthread_setspecific(Self.marker, UnsafeRawPointer(bitPattern: 1))
            work()
        }.start()
    }

    /// A thread's life: the jobs it takes, until none comes for ``idleLifetime``.
    private func work() {
        while true {
            condition.lock()
            while jobs.isEmpty {
                idle += 1
                let signalled = condition.wait(until: Date(timeIntervalSinceNow: Self.idleLifetime))
                idle -= 1
                if !signalled, jobs.isEmpty {
                    threads -= 1
                    condition.unlock()
                    return
                }
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job()
        }
    }
}
