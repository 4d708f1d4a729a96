import CPulseAudio

/// Records 16 kHz, 16-bit mono audio from a PulseAudio source (PipeWire desktops serve the same
/// API), the default one unless a device is named.
///
/// ```swift
/// let microphone = try PulseAudioSource()            // the default source
/// let samples = try microphone.read(1_600)           // 100 ms, blocking
/// ```
///
/// Reads block until the samples are there: give the source its own task or thread.
public final class PulseAudioSource {
    private let connection: OpaquePointer
    /// The PulseAudio source name, or `nil` for the default source.
    public let device: String?

    /// Connects to the sound server and starts recording.
    ///
    /// - Parameters:
    ///   - device: A source name as `pactl list short sources` shows it; `nil` for the default.
    ///   - applicationName: How the stream is named in mixers.
    /// - Throws: ``SpeechError`` saying which device failed, why, and what to try.
    public init(device: String? = nil, applicationName: String = "voice-intents") throws(SpeechError) {
        var spec = pa_sample_spec(
            format: PA_SAMPLE_S16LE, rate: UInt32(AudioFormat.recognizerSampleRate), channels: 1)
        // Deliver audio in 100 ms fragments, so speech reaches the recognizer promptly.
        var attributes = pa_buffer_attr(
            maxlength: UInt32.max, tlength: UInt32.max, prebuf: UInt32.max, minreq: UInt32.max,
            fragsize: 3_200)
        var error: Int32 = 0
        guard
            let connection = pa_simple_new(
                nil, applicationName, PA_STREAM_RECORD, device, "voice commands", &spec, nil, &attributes,
                &error)
        else {
            let which = device.map { "the PulseAudio source \"\($0)\"" } ?? "the default PulseAudio source"
            throw SpeechError(
                .deviceUnavailable,
                "cannot record from \(which): \(String(cString: pa_strerror(error))). Is a sound server running "
                    + "(PulseAudio or PipeWire; `pactl list short sources` lists sources)? Without a microphone, "
                    + "use a WAV file or raw 16 kHz PCM on standard input (-).",
                code: Int(error))
        }
        self.connection = connection
        self.device = device
    }

    deinit {
        pa_simple_free(connection)
    }

    /// Reads `count` samples, waiting until they have been recorded.
    ///
    /// - Throws: ``SpeechError`` when the device goes away.
    public func read(_ count: Int) throws(SpeechError) -> [Int16] {
        var samples = [Int16](repeating: 0, count: count)
        var error: Int32 = 0
        let result = samples.withUnsafeMutableBytes { buffer in
            pa_simple_read(connection, buffer.baseAddress, buffer.count, &error)
        }
        guard result >= 0 else {
            throw SpeechError(
                .deviceUnavailable,
                "recording from \(device.map { "\"\($0)\"" } ?? "the default source") stopped: \(String(cString: pa_strerror(error)))",
                code: Int(error))
        }
        return samples
    }
}
