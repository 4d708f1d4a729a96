/// A small, fast, seedable random number generator (SplitMix64), so the same clip gets the same
/// noise on every run.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    package init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }

    /// A value in 0..<1.
    package mutating func nextUnit() -> Float { Float(next() >> 40) / Float(1 << 24) }

    /// The sum of four ``nextUnit()`` values less 2: close enough to Gaussian noise, with an RMS
    /// of √(4/12). Written out rather than reduced, because it runs for every sample of a clip's
    /// noise and a closure per value is slow in a debug build.
    package mutating func nextSumOfFour() -> Float {
        nextUnit() + nextUnit() + nextUnit() + nextUnit() - 2
    }
}
