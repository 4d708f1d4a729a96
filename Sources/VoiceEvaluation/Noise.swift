import Foundation
import VoiceAudio

/// Background noise to mix under test speech.
package enum NoiseKind: String, Sendable, Hashable, CaseIterable, Codable {
    /// Equal energy at every frequency: a fan, a hiss.
    case white
    /// Energy falling 3 dB an octave: rain, a road, most of the noise of a room.
    case pink
    /// Several people talking at once, made from eSpeak NG speech in other voices: the hardest
    /// noise for a recognizer, since it is speech itself.
    case babble
}

/// How a clip is heard: as spoken, over a quiet room's noise floor, or with noise mixed in at a
/// signal-to-noise ratio.
package enum NoiseCondition: Sendable, Hashable, Codable, CustomStringConvertible, Comparable {
    case clean
    /// `kind` mixed in so that the speech is `snr` dB above it.
    case noise(NoiseKind, snr: Double)
    /// A recording of noise (`--noise-file`), named by its file name, mixed in so that the
    /// loudest 2048-sample frame of the speech is `snr` dB above the loudest of the noise, as the
    /// public speech-to-intent benchmarks mix theirs (``NoiseMixer/mixRecorded(_:noise:snr:seed:)``).
    case recorded(String, snr: Double)

    /// `clean`, `babble 10 dB`, `kitchen.wav 6 dB`.
    package var description: String {
        switch self {
        case .clean: "clean"
        case .noise(let kind, let snr): "\(kind.rawValue) \(Int(snr.rounded())) dB"
        case .recorded(let name, let snr): "\(name) \(Int(snr.rounded())) dB"
        }
    }

    /// The signal-to-noise ratio, infinite for clean.
    package var snr: Double {
        switch self {
        case .clean: .infinity
        case .noise(_, let snr), .recorded(_, let snr): snr
        }
    }

    /// The name of the noise: its kind, or its file's name; `nil` for clean.
    package var noiseName: String? {
        switch self {
        case .clean: nil
        case .noise(let kind, _): kind.rawValue
        case .recorded(let name, _): name
        }
    }

    /// The noise's kind; `nil` for clean.
    package var kind: NoiseKind? {
        if case .noise(let kind, _) = self { return kind }
        return nil
    }

    /// Clean first, then louder noise.
    package static func < (a: NoiseCondition, b: NoiseCondition) -> Bool {
        if a.snr != b.snr { return a.snr > b.snr }
        return (a.noiseName ?? "") < (b.noiseName ?? "")
    }

    /// Reads `clean`, or a noise kind and a ratio in dB: the product of `kinds` and `snrs` as the
    /// command line gives them (`--noise pink,babble --snr clean,20,10`).
    package static func conditions(
        kinds: [NoiseKind], snrs: [String], noiseFiles: [String] = []
    ) throws(SpeechError) -> [NoiseCondition] {
        var conditions: [NoiseCondition] = []
        for text in snrs {
            let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
            if trimmed == "clean" || trimmed == "inf" {
                conditions.append(.clean)
                continue
            }
            let number = trimmed.hasSuffix("db") ? String(trimmed.dropLast(2)) : trimmed
            guard let snr = Double(number.trimmingCharacters(in: .whitespaces)), snr.isFinite else {
                throw SpeechError(
                    .invalidInput, "\"\(text)\" is not a signal-to-noise ratio: give clean or dB, e.g. 10")
            }
            conditions += kinds.map { .noise($0, snr: snr) }
            conditions += noiseFiles.map { .recorded($0, snr: snr) }
        }
        return Array(Set(conditions)).sorted()
    }
}

/// Makes noise and mixes it under speech at a signal-to-noise ratio.
///
/// The speech's level is its *active* level: the RMS over the 10 ms frames within 30 dB of its
/// loudest frame, so the pauses between words (and the silence around a sentence) do not lower
/// it. The noise's level is its RMS over the whole clip, as a noise that runs on would be
/// measured.
package struct NoiseMixer: Sendable {
    /// Speech of several talkers at once, for ``NoiseKind/babble``; `nil` when babble is not
    /// used.
    package let babble: [Float]?

    package init(babble: [Float]? = nil) {
        self.babble = babble
    }

    /// `count` samples of `kind` noise at RMS 1, the same for the same `seed`.
    package func noise(_ kind: NoiseKind, count: Int, seed: UInt64) -> [Float] {
        var generator = SplitMix64(seed: seed)
        var samples: [Float]
        switch kind {
        case .white:
            samples = (0..<count).map { _ in Self.gaussian(&generator) }
        case .pink:
            samples = Self.pink(count: count, generator: &generator)
        case .babble:
            guard let babble, babble.count > count else {
                // Without a babble track long enough, pink noise is the nearest stand-in.
                samples = Self.pink(count: count, generator: &generator)
                break
            }
            let start = Int(generator.next() % UInt64(babble.count - count))
            samples = Array(babble[start..<(start + count)])
        }
        let rms = Self.rms(samples)
        return rms > 0 ? samples.map { $0 / rms } : samples
    }

    /// `speech` with `kind` noise `snr` dB below its active level, over the whole clip.
    package func mix(_ speech: [Float], _ kind: NoiseKind, snr: Double, seed: UInt64) -> [Float] {
        guard Self.activeLevel(speech) > 0 else { return speech }
        return Self.mix(speech, under: noise(kind, count: speech.count, seed: seed), snr: snr)
    }

    /// `speech` with `noise` (at a level of 1, as long as the speech) `snr` dB below the speech's
    /// active level.
    package static func mix(_ speech: [Float], under noise: [Float], snr: Double) -> [Float] {
        let gain = Float(Double(activeLevel(speech)) / pow(10, snr / 20))
        return zip(speech, noise).map { $0 + $1 * gain }
    }

    /// `samples` with a stretch of the recorded `noise` mixed in, as the public speech-to-intent
    /// benchmarks mix theirs, so that figures compare with published ones: the stretch starts at
    /// an offset drawn from `seed` (and wraps around a recording shorter than the clip); the
    /// signal-to-noise ratio compares the loudest 2048-sample frame of `speech` with the loudest
    /// frame of the stretch; a mix that would clip is scaled down whole.
    ///
    /// - Parameters:
    ///   - samples: The clip the noise goes under.
    ///   - speech: The speech the ratio is measured on (the clip itself, or the sentence without
    ///     the room around it).
    ///   - noise: The noise recording, at the clip's sample rate.
    ///   - snr: Decibels of the speech's loudest frame over the noise's.
    ///   - seed: Chooses the offset.
    package static func mixRecorded(
        _ samples: [Float], speech: [Float], noise: [Float], snr: Double, seed: UInt64
    ) -> [Float] {
        guard !noise.isEmpty, !samples.isEmpty else { return samples }
        var generator = SplitMix64(seed: seed)
        let stretch = Self.stretch(of: noise, count: samples.count, generator: &generator)
        let speechEnergy = loudestFrameEnergy(speech)
        let noiseEnergy = loudestFrameEnergy(stretch)
        guard speechEnergy > 0, noiseEnergy > 0 else { return samples }
        let gain = Float((Double(speechEnergy) / (Double(noiseEnergy) * pow(10, snr / 10))).squareRoot())
        return belowClipping(zip(samples, stretch).map { $0 + $1 * gain })
    }

    /// `count` samples of the recorded `noise` from an offset drawn from `generator`, wrapping
    /// around a recording shorter than that.
    package static func stretch(of noise: [Float], count: Int, generator: inout SplitMix64) -> [Float] {
        guard !noise.isEmpty else { return [Float](repeating: 0, count: count) }
        let offset = Int(generator.next() % UInt64(noise.count))
        return (0..<count).map { noise[(offset + $0) % noise.count] }
    }

    /// `samples` scaled down whole when their peak is over full scale, as they are otherwise.
    package static func belowClipping(_ samples: [Float]) -> [Float] {
        let peak = samples.reduce(Float(0)) { max($0, abs($1)) }
        return peak > 1 ? samples.map { $0 / peak } : samples
    }

    /// The mean square of the loudest 2048-sample frame.
    static func loudestFrameEnergy(_ samples: [Float], frame: Int = 2048) -> Float {
        stride(from: 0, to: samples.count, by: frame).reduce(Float(0)) { loudest, start in
            let slice = samples[start..<min(start + frame, samples.count)]
            return max(loudest, slice.reduce(Float(0)) { $0 + $1 * $1 } / Float(slice.count))
        }
    }

    /// The RMS of the 10 ms frames (at 16 kHz) within 30 dB of the loudest one.
    package static func activeLevel(_ samples: [Float], frame: Int = 160) -> Float {
        let energies = stride(from: 0, to: samples.count, by: frame).map { start in
            let slice = samples[start..<min(start + frame, samples.count)]
            return slice.reduce(Float(0)) { $0 + $1 * $1 } / Float(slice.count)
        }
        guard let loudest = energies.max(), loudest > 0 else { return 0 }
        let active = energies.filter { $0 >= loudest / 1_000 }
        return (active.reduce(0, +) / Float(active.count)).squareRoot()
    }

    /// The root mean square of `samples` (0 for none).
    package static func rms(_ samples: [Float]) -> Float {
        samples.isEmpty ? 0 : (samples.reduce(Float(0)) { $0 + $1 * $1 } / Float(samples.count)).squareRoot()
    }

    /// A sample of (nearly) Gaussian noise with RMS 1: the sum of four uniform values.
    static func gaussian(_ generator: inout SplitMix64) -> Float {
        generator.nextSumOfFour() / (4.0 / 12).squareRoot()
    }

    /// Pink noise by the Voss–McCartney method: sixteen random rows, row *k* redrawn every 2^k
    /// samples, summed with a white row; each octave down carries the same energy.
    static func pink(count: Int, generator: inout SplitMix64) -> [Float] {
        var rows = (0..<16).map { _ in gaussian(&generator) }
        var total = rows.reduce(0, +)
        var samples = [Float](repeating: 0, count: count)
        for index in 0..<count {
            let counter = index + 1
            let row = min(counter.trailingZeroBitCount, rows.count - 1)
            let fresh = gaussian(&generator)
            total += fresh - rows[row]
            rows[row] = fresh
            samples[index] = total + gaussian(&generator)
        }
        return samples
    }
}
