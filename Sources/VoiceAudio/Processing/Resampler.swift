import CSignalKernels
import Foundation
import Synchronization

/// A band-limited sample-rate converter: windowed-sinc interpolation with a Kaiser window.
///
/// The ratio between the rates is reduced to `up / down` (22050 → 16000 is 320 / 441), and
/// one set of filter taps is computed per phase when the converter is made, so converting
/// is one short dot product per output sample. The low-pass filter sits just below the
/// lower of the two Nyquist frequencies: when downsampling it removes what the new rate
/// cannot represent, when upsampling it removes the images of the original spectrum.
///
/// ```swift
/// let resampler = Resampler(from: 22_050, to: 16_000)
/// let converted = resampler.resample(samples)   // about 16000 / 22050 as many samples
/// ```
///
/// Figures: passband flat to 0.83 × the lower Nyquist frequency (6.6 kHz when the target is
/// 16 kHz), stopband from 0.99 × it, at least 80 dB down.
///
/// Computing a filter takes milliseconds (hundreds of phases for 22,050 or 44,100 Hz, thousands
/// for uncommon rates); the process keeps the most recent ones, so a converter made again
/// between the same two rates, for each file or each connection, reuses its taps.
package struct Resampler: Sendable {
    /// The input's sample rate.
    package let sourceRate: Int
    /// The output's sample rate.
    package let targetRate: Int

    /// `targetRate / sourceRate` in lowest terms is `up / down`.
    let up: Int
    let down: Int
    /// Phases with their own taps: `up`, or fewer (rounding the phase) when `up` is very large or
    /// the filter long.
    let phaseCount: Int
    /// Input samples each side of the output position that the filter reaches.
    let halfWidth: Int
    /// Taps per phase: `2 * halfWidth`, rounded up to a multiple of 8 (the extra taps are 0).
    let tapsPerPhase: Int
    /// `phaseCount * tapsPerPhase` coefficients, phase by phase.
    let taps: [Float]

    /// Zero crossings of the sinc each side of the centre, at the filter's cutoff.
    static let zeroCrossings = 32
    /// The cutoff as a fraction of the lower Nyquist frequency, leaving room for the transition band.
    package static let rolloff = 0.91
    /// Kaiser window shape: about 90 dB of stopband attenuation.
    static let kaiserBeta = 9.0
    /// More phases than this share rounded phases (a timing error under 1/8192 of a sample).
    static let maximumPhaseCount = 4096
    /// At most this many taps in all (1 MB), so that no rate takes long to set up: a long filter
    /// has fewer phases (768 kHz to 16 kHz, 3,376 taps a phase, gets 77), a timing error under
    /// 1/150 of an input sample, nanoseconds at such rates. The common rates' filters are far
    /// below it (44.1 to 16 kHz: 32,000 taps).
    static let maximumTapCount = 1 << 18

    /// Makes a converter, computing its filter.
    ///
    /// - Parameters:
    ///   - sourceRate: The input's sample rate; must be positive.
    ///   - targetRate: The output's sample rate; must be positive.
    ///   - rolloff: Where the filter's cutoff sits, as a fraction of the lower Nyquist
    ///     frequency. At 1 the band is flat to about 0.91 × that frequency and the stopband
    ///     starts about 1.09 × it: a little of what lies just above it folds back when
    ///     downsampling, or stays as an image when upsampling.
    package init(from sourceRate: Int, to targetRate: Int, rolloff: Double = Resampler.rolloff) {
        precondition(sourceRate > 0 && targetRate > 0, "sample rates must be positive")
        self.sourceRate = sourceRate
        self.targetRate = targetRate
        let divisor = Self.gcd(sourceRate, targetRate)
        up = targetRate / divisor
        down = sourceRate / divisor

        // The cutoff relative to the input's Nyquist frequency, and the filter's reach in input samples.
        let cutoff = Double(min(up, down)) / Double(down) * rolloff
        let reach = Double(Self.zeroCrossings) / cutoff
        halfWidth = Int(reach.rounded(.up))
        tapsPerPhase = (2 * halfWidth + 7) / 8 * 8
        phaseCount = min(up, Self.maximumPhaseCount, max(1, Self.maximumTapCount / tapsPerPhase))

        let key = FilterKey(up: up, down: down, rolloff: rolloff)
        if let taps = Self.recentFilters.withLock({ $0.taps(for: key) }) {
            self.taps = taps
            return
        }
        taps = Self.filter(
            phaseCount: phaseCount, halfWidth: halfWidth, tapsPerPhase: tapsPerPhase, cutoff: cutoff,
            reach: reach)
        Self.recentFilters.withLock { [taps] in $0.keep(taps, for: key) }
    }

    /// The taps of every phase, phase by phase, each phase `tapsPerPhase` long and passing DC
    /// unchanged.
    static func filter(phaseCount: Int, halfWidth: Int, tapsPerPhase: Int, cutoff: Double, reach: Double)
        -> [Float]
    {
        var taps = [Float](repeating: 0, count: phaseCount * tapsPerPhase)
        let windowScale = 1 / Self.besselI0(Self.kaiserBeta)
        var phaseTaps = [Double](repeating: 0, count: 2 * halfWidth)
        for phase in 0..<phaseCount {
            let fraction = Double(phase) / Double(phaseCount)
            var sum = 0.0
            for tap in 0..<(2 * halfWidth) {
                // Tap `tap` multiplies input sample `i - halfWidth + 1 + tap` for an output at `i + fraction`.
                let distance = fraction + Double(halfWidth - 1 - tap)
                let ratio = distance / reach
                var value = 0.0
                if abs(ratio) < 1 {
                    let window =
                        Self.besselI0(Self.kaiserBeta * (1 - ratio * ratio).squareRoot()) * windowScale
                    value = cutoff * Self.sinc(cutoff * distance) * window
                }
                phaseTaps[tap] = value
                sum += value
            }
            // Each phase passes DC unchanged.
            for tap in 0..<(2 * halfWidth) {
                taps[phase * tapsPerPhase + tap] = Float(phaseTaps[tap] / sum)
            }
        }
        return taps
    }

    /// What a filter is made from: the reduced ratio and the cutoff.
    struct FilterKey: Hashable {
        let up: Int
        let down: Int
        let rolloff: Double
    }

    /// The filters made most recently, up to ``capacity`` taps in all (four of the longest, and
    /// dozens of the common rates').
    struct RecentFilters: ~Copyable {
        /// A million taps: 4 MB.
        static let capacity = 1 << 20
        private var filters: [FilterKey: [Float]] = [:]
        private var order: [FilterKey] = []
        private var count = 0

        func taps(for key: FilterKey) -> [Float]? { filters[key] }

        mutating func keep(_ taps: [Float], for key: FilterKey) {
            guard taps.count <= Self.capacity, filters[key] == nil else { return }
            while count + taps.count > Self.capacity, !order.isEmpty {
                count -= filters.removeValue(forKey: order.removeFirst())?.count ?? 0
            }
            filters[key] = taps
            order.append(key)
            count += taps.count
        }
    }

    static let recentFilters = Mutex(RecentFilters())

    /// The number of samples ``resample(_:)`` returns for `count` input samples:
    /// `count * targetRate / sourceRate`, rounded up.
    ///
    /// - Parameter count: The number of input samples.
    package func outputCount(forInputCount count: Int) -> Int {
        (count * up + down - 1) / down
    }

    /// Converts samples at ``sourceRate`` to ``targetRate``.
    ///
    /// The first output sample is at the same instant as the first input sample; the input is
    /// taken to be silent before its start and after its end.
    ///
    /// - Parameter input: Samples at ``sourceRate``.
    /// - Returns: ``outputCount(forInputCount:)`` samples at ``targetRate``.
    package func resample(_ input: [Float]) -> [Float] {
        if input.isEmpty { return [] }
        if up == down { return input }
        // The input with silence either side, so every output reads `tapsPerPhase` samples from
        // its start.
        var padded = [Float](repeating: 0, count: lead + input.count + tapsPerPhase + 1)
        padded.withUnsafeMutableBufferPointer { padded in
            input.withUnsafeBufferPointer { input in
                padded.baseAddress!.advanced(by: lead).update(from: input.baseAddress!, count: input.count)
            }
        }
        return outputs(0..<outputCount(forInputCount: input.count), from: padded, startingAt: 0)
    }

    /// Zeros before the input, so that the first output is centred on the first input sample.
    var lead: Int { halfWidth - 1 }

    /// Where output `n` starts reading the padded input, and with which phase.
    func start(ofOutput n: Int) -> (start: Int, phase: Int) {
        let position = n * down
        var start = position / up
        var phase = position % up
        if phaseCount != up {
            phase = (phase * phaseCount + up / 2) / up
            if phase == phaseCount {
                phase = 0
                start += 1
            }
        }
        return (start, phase)
    }

    /// Outputs `range`, read from `signal`: the padded input from sample `offset` on, holding
    /// every sample those outputs read.
    func outputs(_ range: Range<Int>, from signal: [Float], startingAt offset: Int) -> [Float] {
        guard !range.isEmpty else { return [] }
        return [Float](unsafeUninitializedCapacity: range.count) { output, initialized in
            signal.withUnsafeBufferPointer { signal in
                taps.withUnsafeBufferPointer { taps in
                    vi_resample_outputs(
                        signal.baseAddress!, offset, taps.baseAddress!, Int32(tapsPerPhase), up, down,
                        phaseCount, range.lowerBound, range.count, output.baseAddress!)
                }
            }
            initialized = range.count
        }
    }

    static func gcd(_ a: Int, _ b: Int) -> Int {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return a
    }

    /// sin(πx) / (πx).
    static func sinc(_ x: Double) -> Double {
        if x == 0 { return 1 }
        let angle = Double.pi * x
        return sin(angle) / angle
    }

    /// The modified Bessel function of the first kind, order 0, by its power series.
    static func besselI0(_ x: Double) -> Double {
        var sum = 1.0
        var term = 1.0
        let quarterSquare = x * x / 4
        var k = 1.0
        while term > sum * 1e-17 {
            term *= quarterSquare / (k * k)
            sum += term
            k += 1
        }
        return sum
    }
}
