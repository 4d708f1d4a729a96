/// What to try when an audio device cannot be used: the sentences every device error ends with.
enum DeviceAdvice {
    /// For a microphone that cannot be opened or has stopped.
    static let recording =
        "List PulseAudio sources with `pactl list short sources` (then pulse:<name>) or ALSA devices "
        + "with `arecord -L` (then alsa:<name>). Without a microphone, use a WAV file, or - for raw "
        + "16 kHz 16-bit mono PCM on standard input."

    /// For a loudspeaker that cannot be opened or has stopped.
    static let playing =
        "List PulseAudio sinks with `pactl list short sinks` (then pulse:<name>) or ALSA devices "
        + "with `aplay -L` (then alsa:<name>). Without a loudspeaker, write the speech to a WAV file."

    /// A question for errors that mean nothing answered at the server's address.
    static let noSoundServer =
        "Is a sound server running (PulseAudio, or PipeWire with its PulseAudio service)?"
}
