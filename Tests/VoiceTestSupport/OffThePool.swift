import Foundation
import VoiceAudio

/// Runs `body`, a test's body that mostly waits (for a child process, a sound server, audio
/// played in real time, a sleep), on a thread of its own rather than on one of Swift's
/// cooperative threads, and waits for it without holding one:
///
///     @Test func something() async throws {
///         try await offThePool { … }
///     }
///
/// On Linux the cooperative pool has as many threads as the machine has cores (two on the
/// project's machines), and Swift Testing runs every test on it: a synchronous test that waits
/// holds one of them, and the tests that need the processor queue up behind it.
///
/// `body` runs as part of the calling test's task (through a task executor preference), so an
/// `#expect` that fails in it is the test's, as it would be in the test itself. A body sent to
/// a thread some other way, such as `onThreadOfItsOwn`, runs outside the task:
/// Swift Testing reports its failed expectations against an unknown test, and the test passes.
package func offThePool<Value>(_ body: () throws -> Value) async throws -> Value {
    try await withTaskExecutorPreference(ThreadPerJob.shared) { try body() }
}

/// Runs each job of the tasks that prefer it on a thread of its own (``BlockingThreads``, as the
/// package runs its blocking work): a job here is a test's whole body, which blocks for up to
/// minutes.
private final class ThreadPerJob: TaskExecutor {
    static let shared = ThreadPerJob()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        BlockingThreads.shared.run { job.runSynchronously(on: executor) }
    }
}
