/// A ``Resampler`` fed a stream in pieces: each ``resample(_:)`` returns every output sample
/// that the input so far decides, and ``finish()`` the rest. Put together they are exactly what
/// the resampler gives for the whole input at once, whatever the pieces' sizes.
///
/// ```swift
/// var converter = StreamingResampler(from: 22_050, to: 16_000)
/// for chunk in chunks {
///     recognizer.feed(converter.resample(chunk))
/// }
/// recognizer.feed(converter.finish())
/// ```
///
/// The output lags the input by the filter's reach: about 2 ms of audio.
package struct StreamingResampler: Sendable {
    package let resampler: Resampler
    /// The padded input from sample `offset` on: what outputs still to come read.
    private var pending: [Float]
    private var offset = 0
    /// Input samples taken so far.
    private var taken = 0
    /// The next output sample's index.
    private var next = 0

    package init(from sourceRate: Int, to targetRate: Int) {
        self.init(resampler: Resampler(from: sourceRate, to: targetRate))
    }

    /// A converter through `resampler` (one made with a rolloff of its own, say).
    package init(resampler: Resampler) {
        self.resampler = resampler
        pending = [Float](repeating: 0, count: resampler.lead)
    }

    /// The output samples that `input`, after what came before, completes.
    package mutating func resample(_ input: [Float]) -> [Float] {
        if resampler.up == resampler.down { return input }
        pending += input
        taken += input.count
        // The first output that reads past the input so far. An output starts at most one sample
        // after n * down / up (``Resampler/start(ofOutput:)``), so every output up to
        // (limit - 1) * up / down reads within it: the search starts there, not at `next`.
        let limit = offset + pending.count - resampler.tapsPerPhase
        var end = limit > 0 ? max(next, (limit - 1) * resampler.up / resampler.down) : next
        while resampler.start(ofOutput: end).start <= limit {
            end += 1
        }
        return emit(upTo: end)
    }

    /// The output samples still owed, with silence after the input's end, as the whole-input
    /// resampler has it; the converter then starts afresh.
    package mutating func finish() -> [Float] {
        if resampler.up == resampler.down { return [] }
        pending += [Float](repeating: 0, count: resampler.tapsPerPhase + 1)
        let output = emit(upTo: resampler.outputCount(forInputCount: taken))
        self = StreamingResampler(resampler: resampler)
        return output
    }

    private mutating func emit(upTo end: Int) -> [Float] {
        guard end > next else { return [] }
        let output = resampler.outputs(next..<end, from: pending, startingAt: offset)
        next = end
        // Keep only what the next output reads.
        let keep = resampler.start(ofOutput: next).start
        if keep > offset {
            pending.removeFirst(min(keep - offset, pending.count))
            offset = keep
        }
        return output
    }
}
