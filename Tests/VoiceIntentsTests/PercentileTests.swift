import Testing
import VoiceIntents

/// The one percentile behind every figure the package prints.
@Suite("Percentile")
struct PercentileTests {
    @Test func theValueAtRankCountTimesFractionRoundedDown() {
        let values = [10, 20, 30, 40]
        #expect(percentile(values, 0) == 10)
        // Of an even count, the median is the upper of the two middle values.
        #expect(percentile(values, 0.5) == 30)
        #expect(percentile(values, 0.74) == 30)
        #expect(percentile(values, 0.75) == 40)
        #expect(percentile(values, 0.99) == 40)
        #expect(percentile(values, 1) == 40)
        #expect(percentile([7], 0.9) == 7)
        #expect(percentile(Array(1...100), 0.9) == 91)
    }
}
