import Testing

@testable import VoiceAudio
@testable import VoiceEvaluation

extension ResamplingTests {
    /// The resampler's dot products run in C (fast in a debug build too) and give, bit for bit,
    /// what Swift's `SIMD8<Float>` gives: eight lanes, summed in order, with no fused
    /// multiply-add. A change here would move every figure measured on resampled audio.
    @Test(arguments: [(22_050, 16_000), (48_000, 16_000), (16_000, 48_000), (8_000, 16_000)])
    func theKernelSumsAsSwiftsSIMDDoes(from source: Int, to target: Int) {
        var generator = SplitMix64(seed: 5)
        let input = (0..<4_000).map { _ in generator.nextSumOfFour() * 9_000 }
        let resampler = Resampler(from: source, to: target)
        let padded =
            [Float](repeating: 0, count: resampler.lead) + input
            + [Float](repeating: 0, count: resampler.tapsPerPhase + 1)
        let count = resampler.outputCount(forInputCount: input.count)
        let bySIMD = (0..<count).map { n in
            let (start, phase) = resampler.start(ofOutput: n)
            var sum = SIMD8<Float>()
            for block in 0..<resampler.tapsPerPhase / 8 {
                let at = block * 8
                sum +=
                    SIMD8(padded[(start + at)..<(start + at + 8)])
                    * SIMD8(resampler.taps[(phase * resampler.tapsPerPhase + at)...].prefix(8))
            }
            return sum.sum()
        }
        let resampled = resampler.resample(input)
        #expect(resampled.map(\.bitPattern) == bySIMD.map(\.bitPattern))
    }
}

extension ResamplingTests {
    /// A converter made again between the same rates reuses the filter the process made last
    /// time: the same taps as a filter made afresh, and another cutoff (the telephone band's)
    /// gets a filter of its own.
    @Test func aFilterMadeAgainIsTheOneMadeAfresh() {
        let first = Resampler(from: 22_050, to: 16_000)
        let again = Resampler(from: 22_050, to: 16_000)
        let cutoff = Double(first.up) / Double(first.down) * Resampler.rolloff
        let afresh = Resampler.filter(
            phaseCount: first.phaseCount, halfWidth: first.halfWidth, tapsPerPhase: first.tapsPerPhase,
            cutoff: cutoff, reach: Double(Resampler.zeroCrossings) / cutoff)
        #expect(again.taps == afresh)
        #expect(
            Resampler(from: 8_000, to: 16_000, rolloff: 0.8).taps != Resampler(from: 8_000, to: 16_000).taps)
    }

    /// A rate whose filter would be millions of taps (342,182 Hz to 16 kHz: 4,096 phases of
    /// 1,504) gets fewer phases, and the tone still comes out as if made at 16 kHz.
    @Test func aRateFarFromSixteenKilohertzHasABoundedFilterAndKeepsAToneExactly() {
        let resampler = Resampler(from: 342_182, to: 16_000)
        #expect(resampler.taps.count <= Resampler.maximumTapCount)
        #expect(resampler.phaseCount < resampler.up)
        let tone = Signal.sine(frequency: 1000, rate: 342_182, seconds: 0.5, amplitude: 0.5)
        let converted = tone.resampled(to: 16_000)
        let reference = Signal.sine(frequency: 1000, rate: 16_000, seconds: 0.5, amplitude: 0.5)
        let error = zip(Signal.middle(converted), Signal.middle(reference)).map { abs($0 - $1) }.max() ?? 1
        #expect(error < 1e-3, "largest difference \(error)")
    }

    /// The filters kept stay within their bound, the oldest going first, and one larger than the
    /// bound is not kept at all.
    @Test func theFiltersKeptStayWithinTheirBound() {
        var recent = Resampler.RecentFilters()
        let quarter = [Float](repeating: 1, count: Resampler.RecentFilters.capacity / 4)
        let keys = (1...5).map { Resampler.FilterKey(up: $0, down: 7, rolloff: 0.9) }
        for key in keys { recent.keep(quarter, for: key) }
        #expect(recent.taps(for: keys[0]) == nil)
        #expect(keys.dropFirst().allSatisfy { recent.taps(for: $0) != nil })
        let huge = Resampler.FilterKey(up: 1, down: 1_000, rolloff: 0.9)
        recent.keep([Float](repeating: 1, count: Resampler.RecentFilters.capacity + 1), for: huge)
        #expect(recent.taps(for: huge) == nil)
        #expect(recent.taps(for: keys[4]) != nil)
    }
}
