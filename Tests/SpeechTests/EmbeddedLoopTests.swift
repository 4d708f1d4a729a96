import Foundation
import Logging
import Synchronization
import Testing
import TravelTracking
import VoiceLoop

@testable import Speech

/// The voice loop as a library, in this process: no `listen` command in front of it.
@Suite("Voice loop as a library")
struct EmbeddedLoopTests {
    /// What the loop wrote to its transcript.
    final class Transcript: Sendable {
        private let text = Mutex("")
        var sink: TextSink { TextSink { line in self.text.withLock { $0 += line } } }
        var written: String { text.withLock { $0 } }
    }

    /// eSpeak NG says a command and the answers to the loop's questions into one WAV; the loop,
    /// configured as `listen` is by default, hears it, runs the intent and writes its replies to
    /// another WAV, which is recognised back.
    @Test func anEmbeddedLoopAsksHearsTheAnswersAndSpeaksTheResult() async throws {
        let input = try VoiceLoopTests.recording([
            "find tickets for uluru with travel tracking", "three", "yes",
        ])
        let replies = FileManager.default.temporaryDirectory.appendingPathComponent("replies-\(UUID()).wav")
        defer {
            try? FileManager.default.removeItem(at: input)
            try? FileManager.default.removeItem(at: replies)
        }
        let app = AppContext(TravelTrackingApp.self)
        let logger = Logger(label: "embedded-loop")
        let transcript = Transcript()
        let loop = VoiceLoop(
            app: app, input: try VoiceInput(recording: input.path),
            mouth: try Mouth(output: replies.path, applicationName: app.executableName, logger: logger),
            configuration: try VoiceLoop.Configuration(for: app), transcript: transcript.sink, logger: logger)

        let misunderstood = try await loop.run()

        #expect(misunderstood == 0)
        #expect(
            transcript.written == """
                > find tickets for uluru with travel tracking
                < How many tickets?
                > three
                < Search for 3 tickets to Uluru?
                > yes
                < I found 3 tickets to Uluru for 75 dollars in total.

                """, "\(transcript.written)")
        #expect(
            try VoiceLoopTests.heardReplyText(in: replies)
                == VoiceLoopTests.spoken([
                    "How many tickets?", "Search for three tickets to Uluru?",
                    "I found three tickets to Uluru for seventy five dollars in total.",
                ]))
    }

    /// A stream that never ends (a microphone, a network) ends the loop when the task running
    /// it is cancelled: no signal, no exit.
    @Test func cancellingTheTaskEndsALoopOnAnEndlessStream() async throws {
        final class Counter: Sendable { let value = Atomic(0) }
        let counter = Counter()
        let input = VoiceInput(name: "room tone") { () throws(SpeechError) -> [Int16]? in
            counter.value.add(1, ordering: .relaxed)
            Thread.sleep(forTimeInterval: 0.01)
            return (0..<1_600).map { Int16(truncatingIfNeeded: ($0 * 7_919) % 61 - 30) }  // quiet hiss
        }
        let app = AppContext(TravelTrackingApp.self)
        let logger = Logger(label: "embedded-loop")
        let loop = VoiceLoop(
            app: app, input: input,
            mouth: try Mouth(mute: true, applicationName: app.executableName, logger: logger),
            configuration: try VoiceLoop.Configuration(for: app), logger: logger)
        let listening = Task { try await loop.run() }
        // Until the stream is being heard, then a little longer.
        while counter.value.load(ordering: .relaxed) < 20 { try await Task.sleep(for: .milliseconds(20)) }
        listening.cancel()
        // Should the loop go on, the test stops its input itself, so that it fails rather than
        // hangs.
        let ended = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                _ = try? await listening.value
                return true
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(20))
                return false
            }
            let first = await group.next() ?? false
            if !first { input.stop() }
            group.cancelAll()
            return first
        }
        #expect(ended, "the loop went on for 20 s after its task was cancelled")
        let heard = counter.value.load(ordering: .relaxed)
        try await Task.sleep(for: .milliseconds(200))
        #expect(
            counter.value.load(ordering: .relaxed) == heard, "the stream is still read after the loop ended")
    }
}
