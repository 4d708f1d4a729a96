/// Somewhere 16 kHz, 16-bit mono audio comes from: a microphone behind PulseAudio or ALSA.
///
/// Callers need not know the backend: ``AudioDevice`` opens one from a device string.
///
/// ```swift
/// let microphone = try AudioDevice("alsa:hw:1,0").openSource()
/// let samples = try microphone.read(1_600)    // 100 ms, blocking
/// ```
///
/// Reads block until the samples have been recorded: give a source its own thread or task, and
/// use it from one thread at a time. Every source delivers ``AudioFormat/recognizerSampleRate``.
package protocol AudioSource: AnyObject {
    /// The device as a person would name it in a message, e.g. `the PulseAudio source "vmic"`.
    var name: String { get }

    /// Reads `count` samples at 16 kHz, waiting until they have been recorded.
    ///
    /// - Parameter count: How many samples to return.
    /// - Returns: Exactly `count` samples.
    /// - Throws: ``SpeechError`` of kind ``SpeechError/Kind/deviceUnavailable`` when the device
    ///   goes away; ``ReopeningSource`` turns that into a pause and carries on.
    func read(_ count: Int) throws(SpeechError) -> [Int16]

    /// Seconds since the newest sample read was recorded (what waits in the device's buffer,
    /// and its own latency); `nil` when the device does not say.
    var latency: Double? { get }
}

extension AudioSource {
    package var latency: Double? { nil }
}
