import CALSA

/// An ALSA return code (a negative errno), with ALSA's own diagnostic when it gave one.
struct ALSAStatus: Error {
    let code: Int32
    /// What ALSA said about it, e.g. "Unknown PCM no-such-device"; may be empty.
    let detail: String

    /// The diagnostic and `snd_strerror`'s text, e.g.
    /// "Unknown PCM no-such-device (No such file or directory)".
    var reason: String {
        let text = String(cString: snd_strerror(code))
        if detail.isEmpty { return text }
        return detail.hasSuffix(text) ? detail : "\(detail) (\(text))"
    }

    /// The status of `code`, taking the diagnostic ALSA left on this thread.
    static func failure(_ code: Int32) -> ALSAStatus {
        var detail = String(cString: voice_intents_alsa_take_message())
        while detail.last?.isWhitespace == true { detail.removeLast() }
        return ALSAStatus(code: code, detail: detail)
    }
}

/// An open ALSA PCM carrying 16-bit mono audio: owns the `snd_pcm_t` handle.
///
/// Opens the device by name; when the device cannot take 16-bit mono at the asked rate itself
/// (a `hw:` device usually cannot), opens it again through ALSA's `plug` layer, which converts
/// the format, channels and rate.
final class ALSAPCM {
    private let handle: OpaquePointer
    /// The name the PCM was opened by: the caller's, or `plug:'…'` around it.
    let openedName: String

    /// ALSA writes its diagnostics to standard error unless told otherwise; this tells it, once.
    private static let messagesCaptured: Void = voice_intents_alsa_capture_messages()

    /// Opens a PCM and sets it to blocking, interleaved 16-bit little-endian mono.
    ///
    /// - Parameters:
    ///   - device: An ALSA PCM name: `default`, `pulse`, `hw:1,0`, `plughw:1,0`, …
    ///   - stream: `SND_PCM_STREAM_CAPTURE` or `SND_PCM_STREAM_PLAYBACK`.
    ///   - sampleRate: Samples per second.
    ///   - latency: How much audio the device buffers, in microseconds.
    init(device: String, stream: snd_pcm_stream_t, sampleRate: Int, latency: UInt32) throws(ALSAStatus) {
        Self.messagesCaptured
        do {
            handle = try Self.open(device, stream: stream, sampleRate: sampleRate, latency: latency)
            openedName = device
        } catch let direct {
            // The device exists but takes another format, channel count or rate: let plug convert.
            guard direct.code == -EINVAL, !device.hasPrefix("plug") else { throw direct }
            let quoted = device.split(separator: "'", omittingEmptySubsequences: false).joined(
                separator: "\\'")
            let plugged = "plug:'\(quoted)'"
            guard
                let handle = try? Self.open(plugged, stream: stream, sampleRate: sampleRate, latency: latency)
            else { throw direct }
            self.handle = handle
            openedName = plugged
        }
    }

    private static func open(_ name: String, stream: snd_pcm_stream_t, sampleRate: Int, latency: UInt32)
        throws(ALSAStatus) -> OpaquePointer
    {
        _ = voice_intents_alsa_take_message()
        var pcm: OpaquePointer?
        let opened = snd_pcm_open(&pcm, name, stream, 0)
        guard opened >= 0, let pcm else { throw .failure(opened) }
        let set = snd_pcm_set_params(
            pcm, SND_PCM_FORMAT_S16_LE, SND_PCM_ACCESS_RW_INTERLEAVED, 1, UInt32(sampleRate), 1, latency)
        guard set >= 0 else {
            let status = ALSAStatus.failure(set)
            snd_pcm_close(pcm)
            throw status
        }
        return pcm
    }

    deinit {
        snd_pcm_close(handle)
    }

    /// Fills `samples`, waiting until the device has recorded them; recovers from overruns.
    func read(into samples: inout [Int16]) throws(ALSAStatus) {
        try transfer(samples.count) { done in
            samples.withUnsafeMutableBufferPointer { buffer in
                snd_pcm_readi(handle, buffer.baseAddress! + done, snd_pcm_uframes_t(buffer.count - done))
            }
        }
    }

    /// Hands `samples` to the device, waiting while its buffer is full; recovers from underruns.
    func write(_ samples: [Int16]) throws(ALSAStatus) {
        try transfer(samples.count) { done in
            samples.withUnsafeBufferPointer { buffer in
                snd_pcm_writei(handle, buffer.baseAddress! + done, snd_pcm_uframes_t(buffer.count - done))
            }
        }
    }

    /// Moves `count` frames with `move`, which is given how many are done and returns how many
    /// more it moved, or a negative error: overruns and underruns are recovered from.
    private func transfer(_ count: Int, _ move: (Int) -> Int) throws(ALSAStatus) {
        var done = 0
        while done < count {
            let result = move(done)
            if result < 0 {
                try recover(Int32(result))
            } else {
                done += result
            }
        }
    }

    /// Seconds of audio in the device between the program and the air: for playing, until a
    /// sample written now is heard; for recording, since the newest sample read was recorded.
    /// `nil` when the device does not say.
    func latency(sampleRate: Int) -> Double? {
        var frames: snd_pcm_sframes_t = 0
        guard snd_pcm_delay(handle, &frames) >= 0 else { return nil }
        return Double(max(0, frames)) / Double(sampleRate)
    }

    /// Waits until everything written has been played, then gets ready for more.
    func drain() throws(ALSAStatus) {
        let drained = snd_pcm_drain(handle)
        guard drained >= 0 else { throw .failure(drained) }
        let prepared = snd_pcm_prepare(handle)
        guard prepared >= 0 else { throw .failure(prepared) }
    }

    /// Drops what was written and has not been played yet, then gets ready for more.
    func flush() throws(ALSAStatus) {
        let dropped = snd_pcm_drop(handle)
        guard dropped >= 0 else { throw .failure(dropped) }
        let prepared = snd_pcm_prepare(handle)
        guard prepared >= 0 else { throw .failure(prepared) }
    }

    /// Gets past an overrun, underrun or suspend; anything else (a device gone) is thrown, as is
    /// a recovery that fails (with the recovery's own reason).
    private func recover(_ code: Int32) throws(ALSAStatus) {
        if code == -EINTR { return }
        guard code == -EPIPE || code == -ESTRPIPE else { throw .failure(code) }
        let recovered = snd_pcm_recover(handle, code, 1)
        guard recovered >= 0 else { throw .failure(recovered) }
    }
}
