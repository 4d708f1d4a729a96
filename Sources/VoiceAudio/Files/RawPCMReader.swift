import Foundation

/// Reads headerless 16-bit little-endian mono PCM (by default at 16 kHz) in chunks, from
/// standard input or any other file handle.
///
/// This is what `arecord -f S16_LE -r 16000 -c 1` writes, so a recording can be piped
/// straight in:
///
/// ```swift
/// // arecord -f S16_LE -r 16000 -c 1 | voice-intents transcribe -
/// var reader = RawPCMReader(fileHandle: .standardInput)   // 100 ms chunks
/// while let chunk = try reader.next() {
///     decoder.process(chunk)
/// }
/// ```
///
/// Each ``next()`` blocks until a whole chunk has arrived or the input ends; the last chunk
/// may be shorter. A byte left over at the end of the input (half a sample) is dropped and
/// noted in ``droppedTrailingByte``.
package struct RawPCMReader {
    /// Where the bytes come from.
    package let fileHandle: FileHandle
    /// The name used in errors, e.g. `"-"` for standard input.
    package let name: String
    /// The sample rate of the input (the bytes do not say; the caller knows).
    package let sampleRate: Int
    /// Samples returned by each ``next()`` (the last chunk may have fewer).
    package let samplesPerChunk: Int
    /// Whether the input ended with an odd byte, which was dropped.
    package private(set) var droppedTrailingByte = false
    /// The number of samples returned so far.
    package private(set) var samplesRead = 0
    /// How long the samples returned so far last at ``sampleRate``, in seconds.
    package var duration: Double { Double(samplesRead) / Double(sampleRate) }

    private var finished = false

    /// Creates a reader of a file handle.
    ///
    /// - Parameters:
    ///   - fileHandle: Where to read from; standard input unless given.
    ///   - name: What to call the input in errors; `"-"` unless given.
    ///   - sampleRate: The input's sample rate; 16 kHz (the recognizer's) unless given.
    ///   - samplesPerChunk: Samples per chunk; 1600 (100 ms at 16 kHz) unless given.
    package init(
        fileHandle: FileHandle = .standardInput, name: String = "-",
        sampleRate: Int = AudioFormat.recognizerSampleRate, samplesPerChunk: Int = 1600
    ) {
        precondition(samplesPerChunk > 0, "chunks must hold at least one sample")
        precondition(sampleRate > 0, "the sample rate must be positive")
        self.fileHandle = fileHandle
        self.name = name
        self.sampleRate = sampleRate
        self.samplesPerChunk = samplesPerChunk
    }

    /// Creates a reader of a raw PCM file, such as `goforward.raw`.
    ///
    /// - Parameters:
    ///   - url: The file; errors name it by `url.relativePath`.
    ///   - sampleRate: The file's sample rate; 16 kHz unless given.
    ///   - samplesPerChunk: Samples per chunk; 1600 unless given.
    /// - Throws: ``AudioFileError`` when the file does not exist or cannot be opened.
    package init(
        url: URL, sampleRate: Int = AudioFormat.recognizerSampleRate, samplesPerChunk: Int = 1600
    ) throws(AudioFileError) {
        let name = url.relativePath
        guard FileManager.default.fileExists(atPath: url.path) else { throw .noSuchFile(name) }
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            throw AudioFileError(file: name, reason: "cannot open the file: \(WAVFile.describe(error))")
        }
        self.init(fileHandle: handle, name: name, sampleRate: sampleRate, samplesPerChunk: samplesPerChunk)
    }

    /// The next chunk of samples, or `nil` at the end of the input.
    ///
    /// - Returns: Up to ``samplesPerChunk`` samples; fewer only for the last chunk.
    /// - Throws: ``AudioFileError`` when reading fails.
    package mutating func next() throws(AudioFileError) -> [Int16]? {
        if finished { return nil }
        let chunkBytes = samplesPerChunk * 2
        var bytes = Data()
        // A pipe may deliver less than asked for; keep reading until the chunk is full or the input ends.
        while bytes.count < chunkBytes {
            let piece: Data?
            do {
                piece = try fileHandle.read(upToCount: chunkBytes - bytes.count)
            } catch {
                throw AudioFileError(file: name, reason: "cannot read the input: \(WAVFile.describe(error))")
            }
            guard let piece, !piece.isEmpty else {
                finished = true
                break
            }
            bytes.append(piece)
        }
        if bytes.count % 2 == 1 {  // only at the end of the input: half a sample
            droppedTrailingByte = true
            bytes.removeLast()
        }
        if bytes.isEmpty { return nil }
        samplesRead += bytes.count / 2
        return bytes.withUnsafeBytes { raw in
            (0..<(raw.count / 2)).map { index in
                Int16(littleEndian: raw.loadUnaligned(fromByteOffset: index * 2, as: Int16.self))
            }
        }
    }

    /// Reads the rest of the input into one buffer.
    ///
    /// ```swift
    /// var reader = RawPCMReader(fileHandle: .standardInput)
    /// let samples = try reader.readAll().forRecognizer
    /// ```
    ///
    /// - Returns: Every remaining sample, at ``sampleRate``.
    /// - Throws: ``AudioFileError`` when reading fails.
    package mutating func readAll() throws(AudioFileError) -> AudioBuffer {
        var samples: [Int16] = []
        while let chunk = try next() { samples.append(contentsOf: chunk) }
        return AudioBuffer(int16: samples, sampleRate: sampleRate)
    }
}
