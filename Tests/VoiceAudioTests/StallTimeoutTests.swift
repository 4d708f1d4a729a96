import Foundation
import Testing

@testable import VoiceAudio

/// `ReopeningSource`'s stall timeout, without a device: calls that hang are left behind, and no
/// more than a few at once (`SoundServerTests` hang a real sound server).
@Suite("Stall timeout")
struct StallTimeoutTests {
    /// Counts the calls that started.
    final class Started: @unchecked Sendable {  // all state behind `lock`
        private let lock = NSLock()
        private var count = 0
        func add() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }
    }

    @Test func aCallInTimeGivesItsResultAndOneThatHangsIsLeftBehind() throws {
        let stalled = StalledCalls(limit: 2)
        #expect(
            try ReopeningSource.within(.seconds(5), stalled: stalled, failing: { "took \($0)" }) {
                () throws(SpeechError) in 7
            } == 7)
        let error = #expect(throws: SpeechError.self) {
            try ReopeningSource.within(.milliseconds(100), stalled: stalled, failing: { "took \($0)" }) {
                () throws(SpeechError) -> Int in
                Thread.sleep(forTimeInterval: 0.5)
                return 1
            }
        }
        #expect(error?.message == "took 0.1 s: the device or the sound server hangs")
        #expect(stalled.count == 1)
        // It is counted until it ends.
        let deadline = Date().addingTimeInterval(5)
        while stalled.count > 0, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        #expect(stalled.count == 0)
    }

    @Test func noMoreCallsStartWhileTheLimitHang() throws {
        let stalled = StalledCalls(limit: 2)
        let release = DispatchSemaphore(value: 0)
        let started = Started()
        var errors: [String] = []
        for _ in 0..<4 {
            do {
                _ = try ReopeningSource.within(.milliseconds(50), stalled: stalled, failing: { "took \($0)" })
                {
                    () throws(SpeechError) -> Int in
                    started.add()
                    release.wait()
                    return 1
                }
            } catch {
                errors.append(error.message)
            }
        }
        #expect(errors.count == 4)
        #expect(
            errors.suffix(2).allSatisfy { $0.hasPrefix("2 earlier calls to the device still hang") },
            "\(errors)")
        #expect(stalled.count == 2)
        release.signal()
        release.signal()
        let deadline = Date().addingTimeInterval(5)
        while stalled.count > 0, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        #expect(started.value == 2, "the calls over the limit never started")
        #expect(
            try ReopeningSource.within(.seconds(5), stalled: stalled, failing: { "took \($0)" }) {
                () throws(SpeechError) in 3
            } == 3)
    }
}
