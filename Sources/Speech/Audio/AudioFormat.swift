/// The audio the recognizer takes: 16 kHz, 16-bit, mono.
public enum AudioFormat {
    /// The recognizer's sample rate.
    public static let recognizerSampleRate = 16_000
}

extension Int16 {
    /// `value`, on the 16-bit scale, rounded and clipped to -32768...32767: what a stage that
    /// works in floating point hands back to the next.
    @inlinable
    package init(clipping value: some BinaryFloatingPoint) {
        self.init(Swift.max(-32_768, Swift.min(32_767, value.rounded())))
    }

    /// The same for `Float` and `Double`, what the front end's stages hand on for every sample:
    /// without generics, a debug build (the tests') converts many times faster.
    @inlinable
    package init(clipping value: Float) {
        self.init(Swift.max(-32_768, Swift.min(32_767, value.rounded())))
    }

    @inlinable
    package init(clipping value: Double) {
        self.init(Swift.max(-32_768, Swift.min(32_767, value.rounded())))
    }
}
