import VoiceAudio

/// How loud audio is over time, 10 ms at a time: a way to tell that a recording carries given
/// speech even after a sound server has resampled it.
package struct Envelope {
    /// Root-mean-square level of each 10 ms frame (160 samples at 16 kHz).
    package let levels: [Double]

    package init(_ samples: [Int16], frame: Int = 160) {
        levels = stride(from: 0, to: samples.count - frame + 1, by: frame).map { start in
            let sum = samples[start..<(start + frame)].reduce(0.0) { $0 + Double($1) * Double($1) }
            return (sum / Double(frame)).squareRoot()
        }
    }

    /// Frames louder than `threshold`: speech, where the rest is digital silence.
    package func loudFrames(above threshold: Double = 300) -> Int { levels.filter { $0 > threshold }.count }

    /// Where `expected` fits best in this envelope: the frame offset and the Pearson correlation
    /// there (1 is the same shape). The pattern may hang over either end by up to half its
    /// length (a recording that started or stopped late), the missing part counting as silence.
    package func bestMatch(of expected: Envelope) -> (offset: Int, correlation: Double) {
        let pattern = expected.levels
        guard !pattern.isEmpty else { return (0, 0) }
        let overhang = pattern.count / 2
        let padding = [Double](repeating: 0, count: overhang)
        let padded = padding + levels + padding
        guard padded.count >= pattern.count else { return (0, 0) }
        var best = (offset: 0, correlation: -1.0)
        for start in 0...(padded.count - pattern.count) {
            let correlation = Self.correlation(pattern, padded[start..<(start + pattern.count)])
            if correlation > best.correlation { best = (start - overhang, correlation) }
        }
        return best
    }

    package static func correlation(_ a: [Double], _ b: ArraySlice<Double>) -> Double {
        ReferenceAlignment.correlation(a[...], b)
    }
}
