import Foundation

/// Fills the upper band that audio recorded at a low sample rate lacks, so that the recognizer's
/// 16 kHz acoustic model hears it more as it heard the speech it was trained on.
///
/// A telephone line, a Bluetooth headset's narrowband mode or a recording at 8 kHz holds sound up
/// to 4 kHz only. Resampled to 16 kHz, the band from 4 to 8 kHz is empty, which the model never
/// saw in speech: it scores every sound as if that part of it were missing, and sounds whose
/// energy lies up there ("six", "seven") suffer most. The extender puts noise in the missing
/// band, up to 7.5 kHz, at about 9 dB under the top of the band the audio has, and as loud as
/// that top moment by moment: louder under a hiss, quiet under a vowel, nothing in silence.
///
/// ``AudioBuffer/atRecognizerRate`` applies it to any audio below ``narrowbandRateLimit``, after
/// a resampler that keeps all of the narrow band (``rolloff``), and the Wyoming server to a stream
/// that starts at such a rate. Measured on people's spoken digits (8 kHz, six speakers), heard as
/// answers to a number question after three other digits: 137 of 180 heard right without it,
/// 144 with it (147 and 149 with other noise seeds); heard each on a fresh channel, 103 and 119
/// (`Benchmarks/Recognition/README.md`, "The band filled").
///
/// ```swift
/// let (resampler, narrowband) = BandwidthExtender.toRecognizer(from: 8_000)
/// var extender = narrowband!    // 8 kHz is narrowband
/// let heard = extender.process(resampler.resample(telephone))
/// ```
///
/// Fed in pieces, it gives the same samples as fed the whole at once.
package struct BandwidthExtender: Sendable {
    /// Audio below this rate (a band under 7 kHz) is extended before the recognizer hears it.
    package static let narrowbandRateLimit = 14_000

    /// How loud the noise is against the top of the band the audio has: about −9 dB. The digits
    /// were heard about as well at anything from 0.2 to 1.
    static let level = 0.35
    /// The resampler's cutoff for narrowband audio, as a fraction of its Nyquist frequency: the
    /// default (0.91) would take 3.3 to 4 kHz away from an 8 kHz recording.
    package static let rolloff = 1.0

    /// Where the noise stops, in Hz: the acoustic model's filters reach 6.9 kHz.
    static let top = 7_500.0

    private var band: [Biquad]
    private var noiseFilters: [Biquad]
    /// The mean square of the top of the band, smoothed over about 10 ms.
    private var power = 0.0
    private let smoothing: Double
    /// Scales the filtered noise to a mean square of 1.
    private var noiseScale = 1.0
    private var random: UInt64 = 0x2545_F491_4F6C_DD1D

    /// How audio at `rate` reaches the recognizer's rate: through a resampler that keeps all of
    /// its band and an extender when it is narrowband, otherwise through the default resampler
    /// alone.
    package static func toRecognizer(from rate: Int) -> (Resampler, BandwidthExtender?) {
        guard rate < narrowbandRateLimit else {
            return (Resampler(from: rate, to: AudioFormat.recognizerSampleRate), nil)
        }
        return (
            Resampler(from: rate, to: AudioFormat.recognizerSampleRate, rolloff: rolloff),
            BandwidthExtender(sourceRate: rate)
        )
    }

    /// An extender for audio recorded at `sourceRate` and resampled to `sampleRate`.
    package init(sourceRate: Int, sampleRate: Int = AudioFormat.recognizerSampleRate) {
        let rate = Double(sampleRate)
        let nyquist = min(Double(sourceRate), rate) / 2
        let top = min(Self.top, 0.47 * rate)
        // The top of the band the audio has, from 60% of its Nyquist frequency (2.4 kHz at 8 kHz)
        // up: nothing is left above the Nyquist frequency after resampling.
        band = Biquad.butterworth(order: 4) { .highPass(corner: 0.6 * nyquist, sampleRate: rate, q: $0) }
        // The noise stays out of the band the audio has: eighth order from just above its top.
        noiseFilters =
            Biquad.butterworth(order: 8) { .highPass(corner: 1.08 * nyquist, sampleRate: rate, q: $0) }
            + Biquad.butterworth(order: 4) { .lowPass(corner: top, sampleRate: rate, q: $0) }
        smoothing = exp(-1 / (0.01 * rate))
        // A second of the filtered noise, to scale it to a mean square of 1 (and to settle the
        // filters).
        var square = 0.0
        for _ in 0..<sampleRate { square += pow(filteredNoise(), 2) }
        noiseScale = 1 / (square / Double(sampleRate)).squareRoot()
    }

    /// `samples` (at the extender's sample rate) with noise in the band they lack.
    package mutating func process(_ samples: [Float]) -> [Float] {
        samples.map { sample in
            let x = Double(sample)
            var edge = x
            for index in band.indices { edge = band[index].next(edge) }
            power = smoothing * power + (1 - smoothing) * edge * edge
            return Float(x + Self.level * power.squareRoot() * filteredNoise() * noiseScale)
        }
    }

    /// White noise in -1..<1 (a linear congruential generator: the same noise on every run),
    /// through the noise filters.
    private mutating func filteredNoise() -> Double {
        random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        var noise = Double(random >> 11) / Double(1 << 52) - 1
        for index in noiseFilters.indices { noise = noiseFilters[index].next(noise) }
        return noise
    }
}
