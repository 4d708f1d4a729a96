/// The audio the recognizer takes: 16 kHz, 16-bit, mono.
package enum AudioFormat {
    /// The recognizer's sample rate.
    package static let recognizerSampleRate = 16_000
}

extension Int16 {
    /// `value`, on the 16-bit scale, rounded and clipped to -32768...32767: what a stage that
    /// works in floating point hands back to the next. `Float` and `Double` each have their own,
    /// not one generic: the front end converts every sample, and a debug build (the tests')
    /// converts many times faster without generics.
    @inlinable
    package init(clipping value: Float) {
        self.init(Swift.max(-32_768, Swift.min(32_767, value.rounded())))
    }

    /// `value`, on the 16-bit scale, rounded and clipped, as the `Float` one does.
    @inlinable
    package init(clipping value: Double) {
        self.init(Swift.max(-32_768, Swift.min(32_767, value.rounded())))
    }
}
