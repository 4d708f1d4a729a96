/// Which microphone or loudspeaker to use, and through which audio system, named by a string.
///
/// The syntax, as `--device` takes it:
///
/// | Device string      | Means                                                                 |
/// |--------------------|-----------------------------------------------------------------------|
/// | `default` (or none)| PulseAudio's default source or sink; ALSA's `default` PCM when no sound server answers |
/// | `pulse`            | PulseAudio's default source or sink (PipeWire serves the same API)    |
/// | `pulse:<name>`     | A PulseAudio source or sink, as `pactl list short sources` (`sinks`) names it |
/// | `alsa`             | ALSA's `default` PCM                                                  |
/// | `alsa:<pcm-name>`  | An ALSA PCM, as `arecord -L` (`aplay -L`) names it: `alsa:hw:1,0`, `alsa:pulse` |
/// | `<name>`           | A name without a colon is a PulseAudio source or sink: `vmic`         |
///
/// ```swift
/// let microphone = try AudioDevice("alsa:hw:1,0").openSource()
/// let speaker = try AudioDevice("pulse:nullsink").openSink(sampleRate: 22_050)
/// let either = try AudioDevice.automatic.openSource()
/// ```
///
/// ALSA devices that cannot record or play the rate in mono themselves are opened through the
/// `plug` layer, which converts.
public enum AudioDevice: Sendable, Hashable, CustomStringConvertible {
    /// PulseAudio's default source or sink, or ALSA's `default` PCM when no sound server answers.
    case automatic
    /// A PulseAudio source or sink by name; `nil` for the server's default.
    case pulseAudio(String?)
    /// An ALSA PCM by name, such as `default`, `pulse` or `hw:1,0`.
    case alsa(String)

    /// Reads a device string (see ``AudioDevice`` for the syntax).
    ///
    /// ```swift
    /// try AudioDevice("alsa:hw:1,0")   // .alsa("hw:1,0")
    /// try AudioDevice("pulse")         // .pulseAudio(nil)
    /// try AudioDevice("vmic")          // .pulseAudio("vmic")
    /// ```
    ///
    /// - Parameter text: The device string.
    /// - Throws: ``SpeechError`` of kind ``SpeechError/Kind/invalidInput`` for an unknown prefix,
    ///   saying how to write the device.
    package init(_ text: String) throws(SpeechError) {
        guard let colon = text.firstIndex(of: ":") else {
            switch text {
            case "", "default": self = .automatic
            case "pulse": self = .pulseAudio(nil)
            case "alsa": self = .alsa("default")
            default: self = .pulseAudio(text)
            }
            return
        }
        let rest = String(text[text.index(after: colon)...])
        switch text[..<colon] {
        case "pulse": self = .pulseAudio(rest.isEmpty ? nil : rest)
        case "alsa": self = .alsa(rest.isEmpty ? "default" : rest)
        default:
            throw SpeechError(
                .invalidInput,
                "unknown audio device \"\(text)\": write pulse:<name> for a PulseAudio source or sink, "
                    + "or alsa:<pcm-name> for an ALSA device (alsa:\(text) if that is what \"\(text)\" is)")
        }
    }

    /// The device string that reads back as this device: `default`, `pulse:vmic`, `alsa:hw:1,0`.
    public var description: String {
        switch self {
        case .automatic: "default"
        case .pulseAudio(nil): "pulse"
        case .pulseAudio(let name?): "pulse:\(name)"
        case .alsa(let name): "alsa:\(name)"
        }
    }

    /// Opens the device for recording 16 kHz mono.
    ///
    /// - Parameter applicationName: How a PulseAudio stream is named in mixers.
    /// - Returns: A ``PulseAudioSource`` or an ``ALSASource``.
    /// - Throws: ``SpeechError`` naming the device, why it failed and what to try; for
    ///   ``automatic``, both attempts when neither worked.
    package func openSource(applicationName: String = "voice-intents") throws(SpeechError) -> any AudioSource
    {
        switch self {
        case .pulseAudio(let name):
            return try PulseAudioSource(device: name, applicationName: applicationName)
        case .alsa(let name):
            return try ALSASource(device: name)
        case .automatic:
            do {
                return try PulseAudioSource(applicationName: applicationName)
            } catch let pulse where PulseAudioStatus.meansNoServer(pulse.code ?? 0) {
                do {
                    return try ALSASource()
                } catch let alsa {
                    throw Self.neither(pulse, alsa, advice: DeviceAdvice.recording)
                }
            }
        }
    }

    /// Opens the device for playing mono audio, mostly at `sampleRate`.
    ///
    /// - Parameters:
    ///   - sampleRate: The rate of the audio that will mostly be played (eSpeak NG's is 22050).
    ///   - applicationName: How a PulseAudio stream is named in mixers.
    /// - Returns: A ``PulseAudioSink`` or an ``ALSASink``.
    /// - Throws: ``SpeechError`` naming the device, why it failed and what to try; for
    ///   ``automatic``, both attempts when neither worked.
    package func openSink(sampleRate: Int = 22_050, applicationName: String = "voice-intents")
        throws(SpeechError) -> any AudioSink
    {
        switch self {
        case .pulseAudio(let name):
            return try PulseAudioSink(device: name, sampleRate: sampleRate, applicationName: applicationName)
        case .alsa(let name):
            return try ALSASink(device: name, sampleRate: sampleRate)
        case .automatic:
            do {
                return try PulseAudioSink(sampleRate: sampleRate, applicationName: applicationName)
            } catch let pulse where PulseAudioStatus.meansNoServer(pulse.code ?? 0) {
                do {
                    return try ALSASink(sampleRate: sampleRate)
                } catch let alsa {
                    throw Self.neither(pulse, alsa, advice: DeviceAdvice.playing)
                }
            }
        }
    }

    /// One error for two failed attempts: why PulseAudio and then ALSA failed, then what to try.
    private static func neither(_ pulse: SpeechError, _ alsa: SpeechError, advice: String) -> SpeechError {
        func withoutAdvice(_ message: String) -> String {
            message.hasSuffix(" " + advice) ? String(message.dropLast(advice.count + 1)) : message
        }
        return SpeechError(
            .deviceUnavailable,
            "\(withoutAdvice(pulse.message)) Falling back to ALSA: \(withoutAdvice(alsa.message)) \(advice)",
            code: pulse.code)
    }
}
