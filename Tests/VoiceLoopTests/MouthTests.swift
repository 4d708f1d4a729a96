import Logging
import Synchronization
import Testing
import VoiceAudio

@testable import VoiceLoop

/// How the mouth plays a reply it is told to turn down part way.
@Suite("Mouth")
struct MouthTests {
    /// A device that holds the last 200 ms written until they are heard, and drops them when
    /// flushed: `heard` is what would have come out of it.
    final class HoldingSink: AudioSink, @unchecked Sendable {  // used from one thread at a time
        let sampleRate = 22_050
        let holds = 4_410
        var name: String { "a device that holds 200 ms" }
        private(set) var heard: [Float] = []
        /// What flushing dropped.
        private(set) var dropped: [Float] = []
        private(set) var flushes = 0
        /// Written since the last flush: at most `holds` of it is still held.
        private var sinceFlush = 0

        func play(_ buffer: AudioBuffer) throws(SpeechError) {
            heard += buffer.resampled(to: sampleRate).samples
            sinceFlush += buffer.samples.count
        }

        func drain() throws(SpeechError) {}

        var latency: Double? { Double(min(holds, sinceFlush)) / Double(sampleRate) }

        func flush() throws(SpeechError) {
            dropped += heard.suffix(min(holds, sinceFlush))
            heard.removeLast(min(holds, sinceFlush))
            sinceFlush = 0
            flushes += 1
        }
    }

    /// Turned down after its fifth 100 ms piece, a reply drops what the device still held of it
    /// at full level and plays that again turned down, from where the device had got to: nothing
    /// is skipped or heard twice, and all of it from there is turned down.
    @Test func aReplyTurnedDownIsTurnedDownInWhatTheDeviceHolds() throws {
        let text = "The closest landmark is Golden Gate Bridge, seven kilometers away."
        let sink = HoldingSink()
        let mouth = try Mouth(sink: { sink }, echoCanceller: nil, logger: Logger(label: "test"))
        let pieces = Atomic(0)
        let interrupted = try mouth.say(
            text, volume: { pieces.add(1, ordering: .relaxed).newValue > 5 ? BargeIn.duckedVolume : 1 })
        #expect(!interrupted)
        #expect(sink.flushes == 1)
        // Five pieces were written at full level; the device had played all but 200 ms of them.
        let turnedDown = 5 * 2_205 - sink.holds
        try #require(sink.dropped.count == sink.holds)
        #expect(
            zip(sink.heard.dropFirst(turnedDown), sink.dropped).allSatisfy {
                abs($0 - $1 * BargeIn.duckedVolume) < 1e-6
            })
        let loudest = sink.heard.prefix(turnedDown).map(abs).max() ?? 0
        #expect(loudest > 0.1)
        #expect(sink.heard.dropFirst(turnedDown).allSatisfy { abs($0) <= BargeIn.duckedVolume })
    }

    /// Turned up again, nothing is dropped: the device plays out what it holds.
    @Test func aReplyTurnedUpAgainDropsNothing() throws {
        let text = "The closest landmark is Golden Gate Bridge, seven kilometers away."
        let sink = HoldingSink()
        let mouth = try Mouth(sink: { sink }, echoCanceller: nil, logger: Logger(label: "test"))
        let pieces = Atomic(0)
        try mouth.say(
            text, volume: { pieces.add(1, ordering: .relaxed).newValue > 5 ? 1 : BargeIn.duckedVolume })
        #expect(sink.flushes == 0)
    }
}
