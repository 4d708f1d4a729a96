import Foundation

/// Lines the live reference up with its echo where the clocks alone leave it too early: the
/// devices' reported latencies miss buffers of their own (a sound server's, a USB adapter's, a
/// satellite's), and an echo canceller's filter covers only so much delay.
///
/// Every 10 ms frame's level, of the reference and of what was recorded, is kept for the last
/// three seconds; every quarter of a second with enough playing in it, the delay at which the
/// recorded levels follow the reference's best is found (up to ``longest``), and the reference is
/// held back by that much less what the engine does best with (``expected``).
package struct ReferenceAlignment {
    static let rate = AudioFormat.recognizerSampleRate
    static let frame = rate / 100
    /// The most the reference is held back: 400 ms.
    static let longest = 40
    /// Frames of levels kept: three seconds.
    static let kept = 300
    /// Frames between estimates: a quarter of a second.
    static let every = 25
    /// Frames with something played in them an estimate needs: 400 ms.
    static let leastPlaying = 40
    /// How closely the recorded levels must follow the reference's for a delay to be taken.
    static let leastCorrelation = 0.5

    /// Frames of delay between the reference and its echo that the engine does best with.
    let expected: Int
    /// Samples the reference is held back by now.
    private(set) var heldBack = 0
    /// The reference taken so far, the last ``longest`` frames before the newest.
    private var line: [Int16]
    private var referenceLevels: [Double] = []
    private var recordedLevels: [Double] = []
    private var sinceEstimate = 0

    init(expected: Int) {
        self.expected = expected
        line = [Int16](repeating: 0, count: Self.longest * Self.frame)
    }

    /// `taken` (whole frames, lined up with `recorded` by the clocks), held back by the delay
    /// found so far; `recorded` is measured for the next estimate.
    mutating func align(_ taken: [Int16], recorded: ArraySlice<Int16>) -> [Int16] {
        let history = Self.longest * Self.frame
        line += taken
        let start = history - heldBack
        let aligned = Array(line[start..<start + taken.count])
        line.removeFirst(taken.count)
        for offset in stride(from: 0, to: taken.count, by: Self.frame) {
            referenceLevels.append(Self.level(taken[offset..<offset + Self.frame]))
            let base = recorded.startIndex + offset
            recordedLevels.append(Self.level(recorded[base..<base + Self.frame]))
        }
        if referenceLevels.count > Self.kept {
            referenceLevels.removeFirst(referenceLevels.count - Self.kept)
            recordedLevels.removeFirst(recordedLevels.count - Self.kept)
        }
        sinceEstimate += taken.count / Self.frame
        if sinceEstimate >= Self.every {
            sinceEstimate = 0
            if let delay = estimate() {
                let wanted = max(0, delay - expected) * Self.frame
                // Moves of a frame or two are the estimate's own wobble.
                if abs(wanted - heldBack) > 2 * Self.frame { heldBack = min(wanted, history) }
            }
        }
        return aligned
    }

    /// A frame's level in dB, floored at silence.
    static func level(_ samples: ArraySlice<Int16>) -> Double {
        let energy = ContinuousCapture.energy(samples) / Double(samples.count)
        return 10 * log10(max(energy, 1))
    }

    /// The delay, in frames, at which the recorded levels follow the reference's best, if they
    /// follow it closely enough and enough was played.
    func estimate() -> Int? {
        let count = referenceLevels.count
        guard count > 2 * Self.longest,
            referenceLevels.dropLast(Self.longest).filter({ $0 > 40 }).count >= Self.leastPlaying
        else { return nil }
        // Only where an echo may be (something was played within the longest delay): a person
        // speaking between replies follows nothing.
        var playedWithin = [Bool](repeating: false, count: count)
        var lastPlayed = -Self.longest - 1
        for index in 0..<count {
            if referenceLevels[index] > 40 { lastPlayed = index }
            playedWithin[index] = index - lastPlayed <= Self.longest
        }
        let frames = (Self.longest..<count).filter { playedWithin[$0] }
        var best: (delay: Int, correlation: Double)?
        for delay in 0...Self.longest {
            let correlation = Self.correlation(
                frames.map { referenceLevels[$0 - delay] }[...], frames.map { recordedLevels[$0] }[...])
            if correlation > best?.correlation ?? -1 { best = (delay, correlation) }
        }
        guard let best, best.correlation >= Self.leastCorrelation else { return nil }
        return best.delay
    }

    /// Pearson's correlation of `x` and `y` (as long as each other); 0 where either is flat.
    package static func correlation(_ x: ArraySlice<Double>, _ y: ArraySlice<Double>) -> Double {
        let n = Double(x.count)
        let meanX = x.reduce(0, +) / n
        let meanY = y.reduce(0, +) / n
        var xy = 0.0
        var xx = 0.0
        var yy = 0.0
        for (a, b) in zip(x, y) {
            xy += (a - meanX) * (b - meanY)
            xx += (a - meanX) * (a - meanX)
            yy += (b - meanY) * (b - meanY)
        }
        return xx > 0 && yy > 0 ? xy / (xx * yy).squareRoot() : 0
    }
}
