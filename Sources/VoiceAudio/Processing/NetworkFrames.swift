/// A stream at one rate taken to a network's rate, cut into its frames, and brought back: what a
/// learned noise suppressor (``NeuralNoiseSuppressor``, ``DeepFilterNetSuppressor``) runs in, both
/// ways by ``StreamingResampler``. Pieces of a stream give what the whole gives at once.
struct NetworkFrames {
    /// The network's frame, in samples at its rate.
    let frame: Int
    private var up: StreamingResampler
    private var down: StreamingResampler
    /// Samples at the network's rate waiting for a whole frame.
    private var pending: [Float] = []

    init(sampleRate: Int, networkRate: Int, frame: Int) {
        self.frame = frame
        up = StreamingResampler(from: sampleRate, to: networkRate)
        down = StreamingResampler(from: networkRate, to: sampleRate)
    }

    /// Forgets what it holds, as for a new stream.
    mutating func reset() {
        up = StreamingResampler(resampler: up.resampler)
        down = StreamingResampler(resampler: down.resampler)
        pending = []
    }

    /// The output that `chunk`, after what came before, completes: `network` is given the whole
    /// frames there are, one after another, and returns as many samples as it is given.
    mutating func process(_ chunk: [Float], through network: (ArraySlice<Float>) -> [Float]) -> [Float] {
        pending += up.resample(chunk)
        let whole = pending.count / frame * frame
        guard whole > 0 else { return [] }
        let cleaned = network(pending[..<whole])
        pending.removeFirst(whole)
        return down.resample(cleaned)
    }
}
