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
