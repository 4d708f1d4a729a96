import CALSA

/// Records 16 kHz, 16-bit mono audio from an ALSA PCM device, for machines without a sound
/// server (or to reach a server through ALSA's `pulse` device).
///
/// ```swift
/// let microphone = try ALSASource(device: "hw:1,0")   // the second card's first device
/// let samples = try microphone.read(1_600)            // 100 ms, blocking
/// ```
///
/// Devices that cannot record 16 kHz mono themselves (most `hw:` devices) are opened through
/// ALSA's `plug` layer, which converts. `arecord -L` lists the names. ``AudioDevice`` opens one
/// from `alsa:<pcm-name>`.
package final class ALSASource: AudioSource {
    private let pcm: ALSAPCM
    /// The PCM name as given, e.g. `default`, `pulse` or `hw:1,0`.
    package let device: String

    /// Opens the device and gets it ready to record.
    ///
    /// - Parameters:
    ///   - device: An ALSA PCM name as `arecord -L` lists it; `default` unless given.
    /// - Throws: ``SpeechError`` saying which device failed, why, and what to try.
    package init(device: String = "default") throws(SpeechError) {
        do {
            // Half a second of buffer: reads of 100 ms leave room for a slow reader.
            pcm = try ALSAPCM(
                device: device, stream: SND_PCM_STREAM_CAPTURE, sampleRate: AudioFormat.recognizerSampleRate,
                latency: 500_000)
        } catch {
            throw SpeechError(
                .deviceUnavailable,
                "cannot record from \(Self.name(of: device)): \(error.reason). \(DeviceAdvice.recording)",
                code: Int(error.code))
        }
        self.device = device
    }

    package var name: String { Self.name(of: device) }

    static func name(of device: String) -> String { "the ALSA device \"\(device)\"" }

    package var latency: Double? { pcm.latency(sampleRate: AudioFormat.recognizerSampleRate) }

    /// Reads `count` samples, waiting until they have been recorded.
    ///
    /// - Throws: ``SpeechError`` when the device goes away.
    package func read(_ count: Int) throws(SpeechError) -> [Int16] {
        var samples = [Int16](repeating: 0, count: count)
        do {
            try pcm.read(into: &samples)
        } catch {
            throw SpeechError(
                .deviceUnavailable, "recording from \(name) stopped: \(error.reason)", code: Int(error.code))
        }
        return samples
    }
}
