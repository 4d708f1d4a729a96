/// Recorded 16 kHz samples handed out a chunk at a time, as a microphone delivers them: the
/// `read` that `SpeechRecognizer/listen(timeout:read:)` takes, for audio already in memory.
///
/// ```swift
/// let stream = SampleStream(try WAVFile.read(from: url).forRecognizer)
/// while let result = try recognizer.listen(timeout: 10, read: stream.read) { print(result.text) }
/// ```
package final class SampleStream {
    private let samples: [Int16]
    /// Samples per chunk: 1,600 (100 ms at 16 kHz) unless given.
    package let chunk: Int
    /// How many samples have been read.
    package private(set) var position = 0

    package init(_ samples: [Int16], chunk: Int = 1_600) {
        precondition(chunk > 0, "chunks must hold at least one sample")
        self.samples = samples
        self.chunk = chunk
    }

    /// Whether every sample has been read.
    package var isAtEnd: Bool { position >= samples.count }

    /// The next chunk (the last may be shorter), or `nil` at the end.
    package func read() -> [Int16]? {
        guard !isAtEnd else { return nil }
        let end = min(position + chunk, samples.count)
        defer { position = end }
        return Array(samples[position..<end])
    }
}
