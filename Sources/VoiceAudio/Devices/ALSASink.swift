import CALSA

/// Plays 16-bit mono audio through an ALSA PCM device, for machines without a sound server (or
/// to reach a server through ALSA's `pulse` device).
///
/// ```swift
/// let speech = try SpeechSynthesizer().speak("Opening the map.")
/// let speaker = try ALSASink(device: "default", sampleRate: speech.sampleRate)
/// try speaker.play(AudioBuffer(int16: speech.samples, sampleRate: speech.sampleRate))
/// try speaker.drain()
/// ```
///
/// Devices that cannot play the rate in mono themselves are opened through ALSA's `plug` layer,
/// which converts. `aplay -L` lists the names. ``AudioDevice`` opens one from `alsa:<pcm-name>`.
/// Freeing the sink stops what has not been heard yet: call ``drain()`` first.
package final class ALSASink: AudioSink {
    private let pcm: ALSAPCM
    /// The PCM name as given, e.g. `default`, `pulse` or `hw:1,0`.
    package let device: String
    package let sampleRate: Int

    /// Opens the device and gets it ready to play.
    ///
    /// - Parameters:
    ///   - device: An ALSA PCM name as `aplay -L` lists it; `default` unless given.
    ///   - sampleRate: The rate of the audio that will mostly be played (eSpeak NG's is 22050).
    /// - Throws: ``SpeechError`` saying which device failed, why, and what to try.
    package init(device: String = "default", sampleRate: Int = 22_050) throws(SpeechError) {
        precondition(sampleRate > 0, "the sample rate must be positive, not \(sampleRate)")
        do {
            pcm = try ALSAPCM(
                device: device, stream: SND_PCM_STREAM_PLAYBACK, sampleRate: sampleRate, latency: 200_000)
        } catch {
            throw SpeechError(
                .deviceUnavailable,
                "cannot play to \(Self.name(of: device)): \(error.reason). \(DeviceAdvice.playing)",
                code: Int(error.code))
        }
        self.device = device
        self.sampleRate = sampleRate
    }

    package var name: String { Self.name(of: device) }

    static func name(of device: String) -> String { "the ALSA device \"\(device)\"" }

    package func play(_ buffer: AudioBuffer) throws(SpeechError) {
        do {
            try pcm.write(buffer.resampled(to: sampleRate).int16Samples)
        } catch {
            throw stopped(error)
        }
    }

    package var latency: Double? { pcm.latency(sampleRate: sampleRate) }

    package func drain() throws(SpeechError) {
        do {
            try pcm.drain()
        } catch {
            throw stopped(error)
        }
    }

    package func flush() throws(SpeechError) {
        do {
            try pcm.flush()
        } catch {
            throw stopped(error)
        }
    }

    private func stopped(_ error: ALSAStatus) -> SpeechError {
        SpeechError(.deviceUnavailable, "playing to \(name) stopped: \(error.reason)", code: Int(error.code))
    }
}
