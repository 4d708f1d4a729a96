import Dispatch

/// Runs `body`, which blocks (it waits for a child process, a server, audio in real time), in the
/// test's own task but on a thread outside Swift's cooperative pool. That pool is as wide as the
/// machine has cores (two here), and a test that waits on it keeps every other test from
/// running. Being the same task, what `body` records (`#expect`, `#require`) counts for the test
/// that called it; on a thread of its own it would be recorded for no test.
///
/// ```swift
/// @Test func aServerAnswers() async throws {
///     try await offThePool { try Self.aServerAnswersBody() }
/// }
/// ```
package func offThePool<Value>(_ body: () throws -> Value) async throws -> Value {
    try await withTaskExecutorPreference(BlockingExecutor.shared) { try body() }
}

/// Runs each job on a thread of Dispatch's global pool, which grows when its threads block.
private final class BlockingExecutor: TaskExecutor {
    static let shared = BlockingExecutor()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        DispatchQueue.global().async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
