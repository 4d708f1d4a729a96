import CPulseAudio

/// A PulseAudio return code, with the library's words for it.
struct PulseAudioStatus: Error {
    let code: Int32

    /// `pa_strerror`'s text, e.g. "Connection refused" or "No such entity".
    var reason: String { String(cString: pa_strerror(code)) }

    /// Whether the code means that no sound server answered (rather than, say, an unknown device).
    var meansNoServer: Bool { Self.meansNoServer(Int(code)) }

    static func meansNoServer(_ code: Int) -> Bool {
        let codes = [
            PA_ERR_CONNECTIONREFUSED, PA_ERR_INVALIDSERVER, PA_ERR_TIMEOUT, PA_ERR_CONNECTIONTERMINATED,
        ]
        return codes.contains { Int($0.rawValue) == code }
    }
}

/// One stream to a PulseAudio server through the simple API: owns the `pa_simple` handle.
final class PulseAudioConnection {
    private let handle: OpaquePointer

    /// Connects and starts a 16-bit mono stream.
    ///
    /// - Parameters:
    ///   - direction: `PA_STREAM_RECORD` or `PA_STREAM_PLAYBACK`.
    ///   - device: A source or sink name; `nil` for the server's default.
    ///   - sampleRate: Samples per second.
    ///   - applicationName: How the client is named in mixers.
    ///   - streamName: What the stream is for.
    ///   - fragmentBytes: For recording, how many bytes the server sends at a time.
    ///   - bufferBytes: For playing, how many bytes the server buffers ahead; its default is two
    ///     seconds, and playing starts only once that much has been written or at a drain.
    init(
        direction: pa_stream_direction_t, device: String?, sampleRate: Int, applicationName: String,
        streamName: String, fragmentBytes: UInt32 = UInt32.max, bufferBytes: UInt32 = UInt32.max
    ) throws(PulseAudioStatus) {
        var spec = pa_sample_spec(format: PA_SAMPLE_S16LE, rate: UInt32(sampleRate), channels: 1)
        var attributes = pa_buffer_attr(
            maxlength: UInt32.max, tlength: bufferBytes, prebuf: UInt32.max, minreq: UInt32.max,
            fragsize: fragmentBytes)
        var error: Int32 = 0
        guard
            let handle = pa_simple_new(
                nil, applicationName, direction, device, streamName, &spec, nil, &attributes, &error)
        else { throw PulseAudioStatus(code: error) }
        self.handle = handle
    }

    deinit {
        pa_simple_free(handle)
    }

    /// Fills `samples`, waiting until the server has recorded them.
    func read(into samples: inout [Int16]) throws(PulseAudioStatus) {
        var error: Int32 = 0
        let result = samples.withUnsafeMutableBytes { buffer in
            pa_simple_read(handle, buffer.baseAddress, buffer.count, &error)
        }
        guard result >= 0 else { throw PulseAudioStatus(code: error) }
    }

    /// Hands `samples` to the server, waiting while its buffer is full.
    func write(_ samples: [Int16]) throws(PulseAudioStatus) {
        var error: Int32 = 0
        let result = samples.withUnsafeBytes { buffer in
            pa_simple_write(handle, buffer.baseAddress, buffer.count, &error)
        }
        guard result >= 0 else { throw PulseAudioStatus(code: error) }
    }

    /// For playing, seconds until a sample written now is heard; for recording, seconds since the
    /// newest sample read was recorded. `nil` when the server does not say.
    func latency() -> Double? {
        var error: Int32 = 0
        let microseconds = pa_simple_get_latency(handle, &error)
        return error == 0 ? Double(microseconds) / 1_000_000 : nil
    }

    /// Drops what was written and has not been played yet.
    func flush() throws(PulseAudioStatus) {
        var error: Int32 = 0
        guard pa_simple_flush(handle, &error) >= 0 else { throw PulseAudioStatus(code: error) }
    }

    /// Waits until everything written has been played.
    func drain() throws(PulseAudioStatus) {
        var error: Int32 = 0
        guard pa_simple_drain(handle, &error) >= 0 else { throw PulseAudioStatus(code: error) }
    }
}
