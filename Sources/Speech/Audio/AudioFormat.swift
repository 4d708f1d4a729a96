/// The audio the recognizer takes: 16 kHz, 16-bit, mono.
public enum AudioFormat {
    /// The recognizer's sample rate.
    public static let recognizerSampleRate = 16_000
}
