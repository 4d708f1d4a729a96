import Foundation
import Testing

@testable import VoiceAudio

/// The threads blocking work runs on (``BlockingThreads``, ``onThreadOfItsOwn(_:)``).
@Suite("Threads for blocking work")
struct BlockingThreadsTests {
    /// A job that blocks (a microphone waiting for a command) does not hold up the next one: it
    /// gets a thread of its own.
    @Test func aJobThatBlocksHoldsUpNoOther() {
        let threads = BlockingThreads()
        let release = DispatchSemaphore(value: 0)
        let blocked = DispatchSemaphore(value: 0)
        let second = DispatchSemaphore(value: 0)
        threads.run {
            blocked.signal()
            release.wait()
        }
        #expect(blocked.wait(timeout: .now() + 5) == .success)
        threads.run { second.signal() }
        #expect(second.wait(timeout: .now() + 5) == .success, "the second job waited for the first")
        #expect(threads.threadCount == 2)
        release.signal()
    }

    /// A thread that has finished its job takes the next one instead of another being started.
    @Test func anIdleThreadTakesTheNextJob() {
        let threads = BlockingThreads()
        for _ in 0..<5 {
            let done = DispatchSemaphore(value: 0)
            threads.run { done.signal() }
            #expect(done.wait(timeout: .now() + 5) == .success)
            // Back to waiting before the next is queued.
            Thread.sleep(forTimeInterval: 0.02)
        }
        #expect(threads.threadCount == 1)
    }

    /// `onThreadOfItsOwn` runs its body on one of them, not on a cooperative thread, and hands
    /// back its value or its error.
    @Test func asyncCodeWaitsForTheJobWithoutRunningIt() async throws {
        #expect(!BlockingThreads.isCurrentThreadOne)
        #expect(await onThreadOfItsOwn { BlockingThreads.isCurrentThreadOne })
        #expect(await onThreadOfItsOwn { 6 * 7 } == 42)
        struct Failure: Error {}
        await #expect(throws: Failure.self) {
            try await onThreadOfItsOwn { () throws(Failure) in throw Failure() }
        }
    }
}
