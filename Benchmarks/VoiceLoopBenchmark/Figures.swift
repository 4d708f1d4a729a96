import BenchmarkSupport
import Foundation
import VoiceEvaluation

let clock = ContinuousClock()

/// Prints and flushes, so the figures of a long run show as they come, also into a file.
func print(_ text: String = "") {
    Swift.print(text)
    fflush(nil)
}

func format(_ value: Double, _ digits: Int = 3) -> String { String(format: "%.\(digits)f", value) }

/// Whole milliseconds.
func ms(_ seconds: Double) -> String { String(format: "%.0f ms", seconds * 1_000) }

/// Median, 90th percentile and maximum of a sample (nearest rank).
struct Spread {
    let count: Int
    let median: Double
    let p90: Double
    let max: Double

    init?(_ values: [Double]) {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        func rank(_ share: Double) -> Double {
            sorted[
                Swift.min(
                    sorted.count - 1, Swift.max(0, Int((share * Double(sorted.count)).rounded(.up)) - 1))]
        }
        count = sorted.count
        median = rank(0.5)
        p90 = rank(0.9)
        max = sorted.last!
    }

    /// "median 612 ms, p90 650 ms, max 701 ms (n = 120)", with `offset` taken off each figure.
    func line(minus offset: Double = 0) -> String {
        "median \(ms(median - offset)), p90 \(ms(p90 - offset)), max \(ms(max - offset)) (n = \(count))"
    }
}

/// Quiet at the same level as `RoundTrip`'s noise floor (−70 dBFS RMS): what a microphone gives
/// after someone stops speaking.
func quiet(count: Int, seed: UInt64) -> [Int16] {
    var generator = SplitMix64(seed: seed)
    let scale = 0.0003 / (4.0 / 12).squareRoot() * 32_767
    return (0..<count).map { _ in
        let noise = (0..<4).reduce(0.0) { sum, _ in sum + Double(generator.nextUnit()) } - 2
        return Int16((noise * scale).rounded())
    }
}
