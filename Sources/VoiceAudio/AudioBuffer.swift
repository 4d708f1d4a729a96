/// Mono audio: samples as floating point, nominally in -1...1, at a sample rate.
///
/// Files of any supported encoding and channel count read into this one shape
/// (see ``WAVFile``), and ``forRecognizer`` turns it into what the recognizer takes:
///
/// ```swift
/// let audio = try WAVFile.read(from: URL(fileURLWithPath: "recording.wav"))
/// print(audio.duration)            // 2.5
/// let pcm = audio.forRecognizer    // [Int16] at 16 kHz
/// ```
public struct AudioBuffer: Sendable, Hashable {
    /// The samples, nominally in -1...1 (values outside clip when converted to 16 bits).
    package var samples: [Float]
    /// Samples per second, e.g. 16000 or 22050.
    package var sampleRate: Int

    /// Creates a buffer from floating-point samples.
    ///
    /// - Parameters:
    ///   - samples: Mono samples, nominally in -1...1.
    ///   - sampleRate: Samples per second; must be positive.
    package init(samples: [Float], sampleRate: Int) {
        precondition(sampleRate > 0, "the sample rate must be positive, not \(sampleRate)")
        self.samples = samples
        self.sampleRate = sampleRate
    }

    /// Creates a buffer from 16-bit samples, mapping -32768...32767 to -1..<1.
    ///
    /// Converting back with ``int16Samples`` gives the same values.
    ///
    /// - Parameters:
    ///   - int16: Mono 16-bit samples.
    ///   - sampleRate: Samples per second; must be positive.
    package init(int16: [Int16], sampleRate: Int) {
        self.init(samples: int16.map { Float($0) / 32768 }, sampleRate: sampleRate)
    }

    /// The length in seconds.
    package var duration: Double { Double(samples.count) / Double(sampleRate) }

    /// The samples as 16-bit integers, rounded and clipped to -32768...32767 (NaN becomes 0).
    package var int16Samples: [Int16] {
        samples.map { sample in
            let scaled = (sample * 32768).rounded()
            if scaled >= 32767 { return Int16.max }
            if scaled <= -32768 { return Int16.min }
            return scaled.isNaN ? 0 : Int16(scaled)
        }
    }

    /// The same audio at another sample rate, through a band-limited (windowed-sinc) resampler.
    ///
    /// When the rate goes down, frequencies above the new Nyquist frequency are filtered out
    /// (by at least 80 dB) rather than folded back into the audible band. The result has
    /// `samples.count * rate / sampleRate` samples, rounded up.
    ///
    /// ```swift
    /// let speech = AudioBuffer(samples: espeakOutput, sampleRate: 22_050)
    /// let forPocketSphinx = speech.resampled(to: 16_000)
    /// ```
    ///
    /// To resample many buffers between the same two rates, make one ``Resampler`` and reuse it.
    ///
    /// - Parameter rate: The new sample rate; must be positive.
    /// - Returns: This buffer if the rate is already `rate`, otherwise a resampled copy.
    package func resampled(to rate: Int) -> AudioBuffer {
        if rate == sampleRate { return self }
        let resampler = Resampler(from: sampleRate, to: rate)
        return AudioBuffer(samples: resampler.resample(samples), sampleRate: rate)
    }

    /// The audio at the recognizer's 16 kHz, as it hears it: resampled, and, when recorded below
    /// ``BandwidthExtender/narrowbandRateLimit`` (a telephone line's 8 kHz), with the band it lacks
    /// filled (``BandwidthExtender``).
    package var atRecognizerRate: AudioBuffer {
        guard sampleRate != AudioFormat.recognizerSampleRate else { return self }
        let (resampler, narrowband) = BandwidthExtender.toRecognizer(from: sampleRate)
        let resampled = resampler.resample(samples)
        var extender = narrowband
        return AudioBuffer(
            samples: extender?.process(resampled) ?? resampled, sampleRate: AudioFormat.recognizerSampleRate)
    }

    /// The audio as the recognizer takes it: 16 kHz, 16-bit, mono (``atRecognizerRate``).
    package var forRecognizer: [Int16] {
        atRecognizerRate.int16Samples
    }
}
