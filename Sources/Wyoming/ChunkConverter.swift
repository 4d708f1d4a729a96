import VoiceAudio

/// The format an `audio-start` or `audio-chunk` gives its audio in.
public struct WyomingAudioFormat: Sendable, Hashable {
    /// Samples a second, per channel.
    public var rate: Int
    /// Bytes a sample: 1 (unsigned 8-bit), 2, or 4 (signed little-endian).
    public var width: Int
    public var channels: Int

    public init(rate: Int, width: Int, channels: Int) {
        self.rate = rate
        self.width = width
        self.channels = channels
    }

    /// An audio event's format, when it gives one the server reads: a rate audio files are read
    /// at (``WAVFile/sampleRates``, 4 to 768 kHz), 1, 2 or 4 bytes a sample, and 1 to 32
    /// channels. A lower rate would make each byte many samples at 16 kHz (at 1 Hz, a megabyte
    /// chunk is 64 GB of them).
    public init?(of event: WyomingEvent) {
        guard let rate = event.data["rate"]?.int, let width = event.data["width"]?.int,
            let channels = event.data["channels"]?.int, WAVFile.sampleRates.contains(rate),
            [1, 2, 4].contains(width),
            (1...32).contains(channels)
        else { return nil }
        self.init(rate: rate, width: width, channels: channels)
    }

    /// As an audio event's data.
    var data: [String: JSONValue] {
        [
            "rate": .number(Double(rate)), "width": .number(Double(width)),
            "channels": .number(Double(channels)),
        ]
    }
}

/// Turns audio chunks, in the format their stream started with, into the recognizer's 16 kHz
/// 16-bit mono as they arrive: channels mixed down, and other rates resampled piece by piece
/// with nothing lost at the chunks' seams; a narrowband stream (8 kHz) also has the band it lacks
/// filled, as a narrowband recording has (``AudioBuffer/atRecognizerRate``).
package struct ChunkConverter: Sendable {
    package let format: WyomingAudioFormat
    private var resampler: StreamingResampler?
    private var extender: BandwidthExtender?

    package init(_ format: WyomingAudioFormat) {
        self.format = format
        guard format.rate != AudioFormat.recognizerSampleRate else { return }
        let (resampler, extender) = BandwidthExtender.toRecognizer(from: format.rate)
        self.resampler = StreamingResampler(resampler: resampler)
        self.extender = extender
    }

    /// `payload` at 16 kHz; `nil` when it is not whole samples of the format.
    package mutating func convert(_ payload: [UInt8]) -> [Int16]? {
        guard
            let chunk = WAVFile.pcm(
                payload, sampleRate: format.rate, bytesPerSample: format.width, channels: format.channels)
        else { return nil }
        guard resampler != nil else { return chunk.int16Samples }
        return atRecognizerRate(resampler!.resample(chunk.samples))
    }

    /// An audio chunk's samples at 16 kHz in the stream `converter` holds; `nil` when the chunk
    /// names no format and no stream has started. A chunk in another format than the stream's
    /// starts a new converter, and what the old one still held comes first.
    package static func convert(
        _ bytes: [UInt8], format: WyomingAudioFormat?, with converter: inout ChunkConverter?
    ) -> [Int16]? {
        var samples: [Int16] = []
        if let format, format != converter?.format {
            if converter != nil { samples = converter!.finish() }
            converter = ChunkConverter(format)
        }
        guard converter != nil else { return nil }
        return samples + (converter!.convert(bytes) ?? [])
    }

    /// What the resampler still holds, at the stream's end; the converter then starts afresh.
    package mutating func finish() -> [Int16] {
        guard resampler != nil else { return [] }
        defer { if extender != nil { extender = BandwidthExtender(sourceRate: format.rate) } }
        return atRecognizerRate(resampler!.finish())
    }

    private mutating func atRecognizerRate(_ samples: [Float]) -> [Int16] {
        let extended = extender != nil ? extender!.process(samples) : samples
        return AudioBuffer(samples: extended, sampleRate: AudioFormat.recognizerSampleRate).int16Samples
    }
}
