import Foundation

/// A second-order filter (a biquad, after Robert Bristow-Johnson's cookbook), fed one sample at a
/// time.
struct Biquad: Sendable {
    private let b0, b1, b2, a1, a2: Double
    private var x1 = 0.0, x2 = 0.0, y1 = 0.0, y2 = 0.0

    private init(b: (Double, Double, Double), a: (Double, Double, Double)) {
        b0 = b.0 / a.0
        b1 = b.1 / a.0
        b2 = b.2 / a.0
        a1 = a.1 / a.0
        a2 = a.2 / a.0
    }

    /// The angle of `frequency` and the bandwidth term of a filter with quality `q`.
    private static func terms(_ frequency: Double, _ sampleRate: Double, q: Double) -> (
        cosine: Double, alpha: Double
    ) {
        let omega = 2 * Double.pi * frequency / sampleRate
        return (cos(omega), sin(omega) / (2 * q))
    }

    /// A high-pass filter (second order) with its corner at `corner` Hz; Butterworth at the
    /// default `q`.
    static func highPass(corner: Double, sampleRate: Double, q: Double = 0.5.squareRoot()) -> Biquad {
        let (cosine, alpha) = terms(corner, sampleRate, q: q)
        return Biquad(
            b: ((1 + cosine) / 2, -(1 + cosine), (1 + cosine) / 2), a: (1 + alpha, -2 * cosine, 1 - alpha))
    }

    /// A low-pass filter (second order) with its corner at `corner` Hz; Butterworth at the
    /// default `q`.
    static func lowPass(corner: Double, sampleRate: Double, q: Double = 0.5.squareRoot()) -> Biquad {
        let (cosine, alpha) = terms(corner, sampleRate, q: q)
        return Biquad(
            b: ((1 - cosine) / 2, 1 - cosine, (1 - cosine) / 2), a: (1 + alpha, -2 * cosine, 1 - alpha))
    }

    /// The sections of a Butterworth filter of even `order`, made by `section` from each one's
    /// quality: flat in the band it passes, falling `order` × 6 dB an octave past the corner.
    static func butterworth(order: Int, _ section: (_ q: Double) -> Biquad) -> [Biquad] {
        (1...max(order / 2, 1)).map { pair in
            section(1 / (2 * cos(Double(2 * pair - 1) * Double.pi / Double(2 * order))))
        }
    }

    mutating func next(_ x: Double) -> Double {
        let y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
        x2 = x1
        x1 = x
        y2 = y1
        y1 = y
        return y
    }
}
