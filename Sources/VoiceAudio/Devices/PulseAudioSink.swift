import CPulseAudio

/// Plays 16-bit mono audio through a PulseAudio sink (PipeWire desktops serve the same API), the
/// default one unless a device is named.
///
/// ```swift
/// let speech = try SpeechSynthesizer().speak("Opening the map.")
/// let speaker = try PulseAudioSink(sampleRate: speech.sampleRate)   // eSpeak's 22050 Hz
/// try speaker.play(AudioBuffer(int16: speech.samples, sampleRate: speech.sampleRate))
/// try speaker.drain()
/// ```
///
/// The server converts to the device's own rate and channels. ``AudioDevice`` opens one from
/// `pulse` or `pulse:<sink-name>`. Freeing the sink stops what has not been heard yet: call
/// ``drain()`` first.
package final class PulseAudioSink: AudioSink {
    private let connection: PulseAudioConnection
    /// The PulseAudio sink name, or `nil` for the default sink.
    package let device: String?
    package let sampleRate: Int

    /// Connects to the sound server and opens a playback stream.
    ///
    /// - Parameters:
    ///   - device: A sink name as `pactl list short sinks` shows it; `nil` for the default.
    ///   - sampleRate: The rate of the audio that will mostly be played (eSpeak NG's is 22050).
    ///   - applicationName: How the stream is named in mixers.
    /// - Throws: ``SpeechError`` saying which device failed, why, and what to try.
    package init(device: String? = nil, sampleRate: Int = 22_050, applicationName: String = "voice-intents")
        throws(SpeechError)
    {
        precondition(sampleRate > 0, "the sample rate must be positive, not \(sampleRate)")
        do {
            connection = try PulseAudioConnection(
                direction: PA_STREAM_PLAYBACK, device: device, sampleRate: sampleRate,
                applicationName: applicationName, streamName: "spoken replies",
                // 100 ms ahead: with the server's two seconds, a short reply started late and
                // ended two seconds after it was heard, keeping the voice loop deaf that long.
                bufferBytes: UInt32(sampleRate / 10 * 2))
        } catch {
            let question = error.meansNoServer ? " " + DeviceAdvice.noSoundServer : ""
            throw SpeechError(
                .deviceUnavailable,
                "cannot play to \(Self.name(of: device)): \(error.reason).\(question) \(DeviceAdvice.playing)",
                code: Int(error.code))
        }
        self.device = device
        self.sampleRate = sampleRate
    }

    package var name: String { Self.name(of: device) }

    static func name(of device: String?) -> String {
        device.map { "the PulseAudio sink \"\($0)\"" } ?? "the default PulseAudio sink"
    }

    package func play(_ buffer: AudioBuffer) throws(SpeechError) {
        do {
            try connection.write(buffer.resampled(to: sampleRate).int16Samples)
        } catch {
            throw stopped(error)
        }
    }

    package var latency: Double? { connection.latency() }

    package func drain() throws(SpeechError) {
        do {
            try connection.drain()
        } catch {
            throw stopped(error)
        }
    }

    package func flush() throws(SpeechError) {
        do {
            try connection.flush()
        } catch {
            throw stopped(error)
        }
    }

    private func stopped(_ error: PulseAudioStatus) -> SpeechError {
        SpeechError(.deviceUnavailable, "playing to \(name) stopped: \(error.reason)", code: Int(error.code))
    }
}
