import CPulseAudio

/// Records 16 kHz, 16-bit mono audio from a PulseAudio source (PipeWire desktops serve the same
/// API), the default one unless a device is named.
///
/// ```swift
/// let microphone = try PulseAudioSource()                  // the default source
/// let monitor = try PulseAudioSource(device: "nullsink.monitor")
/// let samples = try microphone.read(1_600)                 // 100 ms, blocking
/// ```
///
/// Reads block until the samples are there: give the source its own task or thread. The server
/// converts from the device's own rate and channels. ``AudioDevice`` opens one from `pulse` or
/// `pulse:<source-name>`.
package final class PulseAudioSource: AudioSource {
    private let connection: PulseAudioConnection
    /// The PulseAudio source name, or `nil` for the default source.
    package let device: String?

    /// Connects to the sound server and starts recording.
    ///
    /// - Parameters:
    ///   - device: A source name as `pactl list short sources` shows it; `nil` for the default.
    ///   - applicationName: How the stream is named in mixers.
    /// - Throws: ``SpeechError`` saying which device failed, why, and what to try.
    package init(device: String? = nil, applicationName: String = "voice-intents") throws(SpeechError) {
        let name = Self.name(of: device)
        do {
            // Deliver audio in 100 ms fragments, so speech reaches the recognizer promptly.
            connection = try PulseAudioConnection(
                direction: PA_STREAM_RECORD, device: device, sampleRate: AudioFormat.recognizerSampleRate,
                applicationName: applicationName, streamName: "voice commands", fragmentBytes: 3_200)
        } catch {
            let question = error.meansNoServer ? " " + DeviceAdvice.noSoundServer : ""
            throw SpeechError(
                .deviceUnavailable,
                "cannot record from \(name): \(error.reason).\(question) \(DeviceAdvice.recording)",
                code: Int(error.code))
        }
        self.device = device
    }

    package var name: String { Self.name(of: device) }

    static func name(of device: String?) -> String {
        device.map { "the PulseAudio source \"\($0)\"" } ?? "the default PulseAudio source"
    }

    package var latency: Double? { connection.latency() }

    /// Reads `count` samples, waiting until they have been recorded.
    ///
    /// - Throws: ``SpeechError`` when the device or the server goes away.
    package func read(_ count: Int) throws(SpeechError) -> [Int16] {
        var samples = [Int16](repeating: 0, count: count)
        do {
            try connection.read(into: &samples)
        } catch {
            throw SpeechError(
                .deviceUnavailable, "recording from \(name) stopped: \(error.reason)", code: Int(error.code))
        }
        return samples
    }
}
