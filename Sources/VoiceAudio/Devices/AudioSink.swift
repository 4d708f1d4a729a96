/// Somewhere audio is played: a loudspeaker behind PulseAudio or ALSA.
///
/// Callers need not know the backend: ``AudioDevice`` opens one from a device string.
///
/// ```swift
/// let speech = try SpeechSynthesizer().speak("Opening the map.")
/// let speaker = try AudioDevice.automatic.openSink(sampleRate: speech.sampleRate)
/// try speaker.play(AudioBuffer(int16: speech.samples, sampleRate: speech.sampleRate))
/// try speaker.drain()    // wait until it has been heard
/// ```
///
/// Use a sink from one thread at a time.
package protocol AudioSink: AnyObject {
    /// The device as a person would name it in a message, e.g. `the PulseAudio sink "nullsink"`.
    var name: String { get }

    /// The rate the device was opened at; ``play(_:)`` converts buffers at other rates.
    var sampleRate: Int { get }

    /// Queues `buffer` for playing, converting it to ``sampleRate`` first if it differs.
    ///
    /// Returns once the device has taken the audio, which may be before it has been heard:
    /// call ``drain()`` to wait for that. Buffers are resampled one at a time, so play whole
    /// utterances, or buffers already at ``sampleRate``.
    ///
    /// - Parameter buffer: Mono audio at any rate.
    /// - Throws: ``SpeechError`` when the device goes away.
    func play(_ buffer: AudioBuffer) throws(SpeechError)

    /// Waits until everything played so far has been heard.
    ///
    /// - Throws: ``SpeechError`` when the device goes away.
    func drain() throws(SpeechError)

    /// Seconds until a sample played now is heard (what is queued, and the device's own
    /// latency); `nil` when the device does not say. An echo canceller lines what is played up
    /// with what the microphone hears by it.
    var latency: Double? { get }

    /// Drops what was played and has not been heard yet, as far as the device lets it, and
    /// returns at once; ``latency`` says what is still to be heard. A player that turns its
    /// audio down plays the rest turned down sooner, from where the device got to. Does
    /// nothing where the device cannot.
    ///
    /// - Throws: ``SpeechError`` when the device goes away.
    func flush() throws(SpeechError)
}

extension AudioSink {
    package var latency: Double? { nil }

    package func flush() throws(SpeechError) {}
}
