// WAV reading and writing in one file: the RIFF walk, each sample encoding and RF64 share the
// same header state, so the file runs past 400 lines.

import Foundation

/// Reads and writes WAV (RIFF/WAVE) files.
///
/// Reading takes the encodings recorders and converters write: PCM with 8-bit unsigned or
/// 16-, 24- or 32-bit signed samples, µ-law and A-law, IEEE float with 32 or 64 bits, and
/// `WAVE_FORMAT_EXTENSIBLE` holding PCM or float; any sample rate of ``sampleRates`` and any
/// number of channels (mixed to mono). Chunks other than `fmt ` and `data` are skipped. A data size of 0,
/// `0xFFFFFFFF`, or a placeholder over 2 GB that runs past the end of the file (what sox
/// and arecord write to a pipe) means the samples run to the end of the file. RF64 files
/// are read too. Writing always produces 16-bit PCM mono.
///
/// ```swift
/// let audio = try WAVFile.read(from: URL(fileURLWithPath: "recording.wav"))
/// try WAVFile.write(audio.resampled(to: 16_000), to: URL(fileURLWithPath: "recording-16k.wav"))
/// ```
package enum WAVFile {
    /// The sample rates read: from 4 kHz (half a telephone's) to 768 kHz (the most a sound card
    /// records at).
    package static let sampleRates = 4_000...768_000
    /// Reads a WAV file into mono audio at the file's sample rate.
    ///
    /// - Parameter url: A file URL. Errors name the file by `url.relativePath`, as the caller gave it.
    /// - Returns: The samples, channels averaged to mono.
    /// - Throws: ``AudioFileError`` when the file is missing or unreadable, is not a WAV file,
    ///   uses an encoding this reader does not decode, or is cut short.
    package static func read(from url: URL) throws(AudioFileError) -> AudioBuffer {
        let name = url.isFileURL ? url.relativePath : url.absoluteString
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw .noSuchFile(name)
        }
        if isDirectory.boolValue {
            throw AudioFileError(file: name, reason: "is a directory, not a WAV file")
        }
        let data: Data
        do {
            data = try Data(contentsOf: url, options: .mappedIfSafe)
        } catch {
            throw AudioFileError(file: name, reason: "cannot read the file: \(Self.describe(error))")
        }
        return try read(data: data, name: name)
    }

    /// Reads WAV data already in memory into mono audio at its sample rate.
    ///
    /// ```swift
    /// let audio = try WAVFile.read(data: body, name: "upload.wav")
    /// ```
    ///
    /// - Parameters:
    ///   - data: The whole file's bytes.
    ///   - name: What to call the data in errors, e.g. the file name.
    /// - Returns: The samples, channels averaged to mono.
    /// - Throws: ``AudioFileError`` when the data is not a WAV file, uses an encoding this
    ///   reader does not decode, or is cut short.
    package static func read(data: Data, name: String) throws(AudioFileError) -> AudioBuffer {
        let result = data.withUnsafeBytes { bytes in
            Result { () throws(AudioFileError) -> AudioBuffer in
                var parser = WAVParser(bytes: bytes, name: name)
                return try parser.parse()
            }
        }
        return try result.get()
    }

    /// Writes audio as a 16-bit PCM mono WAV file at the buffer's sample rate.
    ///
    /// Samples outside -1...1 are clipped. An existing file is replaced.
    ///
    /// - Parameters:
    ///   - buffer: The audio to write.
    ///   - url: Where to write it.
    /// - Throws: ``AudioFileError`` when the file cannot be written (no such directory,
    ///   no permission, disk full, …).
    package static func write(_ buffer: AudioBuffer, to url: URL) throws(AudioFileError) {
        let name = url.isFileURL ? url.relativePath : url.absoluteString
        do {
            try data(for: buffer).write(to: url, options: .atomic)
        } catch {
            throw AudioFileError(file: name, reason: "cannot write the file: \(Self.describe(error))")
        }
    }

    /// The bytes of a 16-bit PCM mono WAV file holding the audio.
    ///
    /// - Parameter buffer: The audio; samples outside -1...1 are clipped.
    /// - Returns: A 44-byte header (`RIFF`, `fmt `, `data`) followed by the little-endian samples.
    package static func data(for buffer: AudioBuffer) -> Data {
        let samples = buffer.int16Samples
        let dataSize = samples.count * 2
        var data = Data(capacity: 44 + dataSize)
        func append32(_ value: UInt32) {
            withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
        }
        func append16(_ value: UInt16) {
            withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
        }
        data.append(contentsOf: Array("RIFF".utf8))
        append32(UInt32(truncatingIfNeeded: 36 + dataSize))
        data.append(contentsOf: Array("WAVEfmt ".utf8))
        append32(16)
        append16(1)  // PCM
        append16(1)  // mono
        append32(UInt32(truncatingIfNeeded: buffer.sampleRate))
        append32(UInt32(truncatingIfNeeded: buffer.sampleRate * 2))  // bytes per second
        append16(2)  // bytes per frame
        append16(16)  // bits per sample
        data.append(contentsOf: Array("data".utf8))
        append32(UInt32(truncatingIfNeeded: dataSize))
        data.append(contentsOf: pcm16(samples))
        return data
    }

    /// `samples` as 16-bit little-endian PCM: a WAV file's data, or a stream's audio chunk.
    package static func pcm16(_ samples: some Collection<Int16>) -> [UInt8] {
        #if _endian(little)
            if let bytes = samples.withContiguousStorageIfAvailable({ Array(UnsafeRawBufferPointer($0)) }) {
                return bytes
            }
        #endif
        var bytes: [UInt8] = []
        bytes.reserveCapacity(samples.count * 2)
        for sample in samples {
            let value = UInt16(bitPattern: sample)
            bytes.append(UInt8(truncatingIfNeeded: value))
            bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        }
        return bytes
    }

    /// Interleaved little-endian integer PCM (unsigned 8-bit, or signed 16-, 24- or 32-bit) with
    /// its channels averaged, as a stream's audio chunks carry it; `nil` for another sample width.
    /// A partial last frame is dropped.
    package static func pcm(
        _ bytes: [UInt8], sampleRate: Int, bytesPerSample: Int, channels: Int
    ) -> AudioBuffer? {
        let encodings: [Int: WAVEncoding] = [
            1: .unsignedInt8, 2: .signedInt16, 3: .signedInt24, 4: .signedInt32,
        ]
        guard let encoding = encodings[bytesPerSample], channels > 0 else { return nil }
        let format = WAVParser.Format(
            encoding: encoding, channels: channels, sampleRate: sampleRate, bytesPerSample: bytesPerSample)
        return bytes.withUnsafeBytes { WAVParser.decode($0, format: format) }
    }

    /// A Foundation error's message without the noise.
    static func describe(_ error: any Error) -> String {
        if let error = error as? CocoaError, let underlying = error.underlying as? POSIXError {
            return String(cString: strerror(underlying.code.rawValue)).lowercased()
        }
        return error.localizedDescription
    }
}

// MARK: - Parsing

/// The sample encodings the reader decodes.
enum WAVEncoding: Equatable {
    case unsignedInt8
    case signedInt16
    case signedInt24
    case signedInt32
    case float32
    case float64
    case muLaw
    case aLaw
}

/// The format codes of `fmt ` chunks, with names for the ones people run into.
enum WAVFormatCode {
    static let pcm = 1
    static let float = 3
    static let aLaw = 6
    static let muLaw = 7
    static let extensible = 0xFFFE

    static func name(_ code: Int) -> String? {
        switch code {
        case 0x0002: "Microsoft ADPCM"
        case 0x0011: "IMA ADPCM"
        case 0x0031: "GSM 6.10"
        case 0x0040: "G.721 ADPCM"
        case 0x0050: "MPEG"
        case 0x0055: "MP3"
        case 0x0160, 0x0161, 0x0162, 0x0163: "Windows Media Audio"
        case 0x0092, 0x2000: "AC-3"
        case 0x00FF, 0x1600, 0x1601, 0x1602, 0x1610: "AAC"
        case 0x2001: "DTS"
        case 0x674F, 0x6750, 0x6751, 0x676F, 0x6770, 0x6771: "Ogg Vorbis"
        case 0xF1AC: "FLAC"
        default: nil
        }
    }
}

/// Walks the chunks of a RIFF/WAVE file.
struct WAVParser {
    let bytes: UnsafeRawBufferPointer
    let name: String

    /// The `fmt ` chunk's contents, once read.
    struct Format {
        var encoding: WAVEncoding
        var channels: Int
        var sampleRate: Int
        /// Bytes per sample of one channel (the container, which may hold fewer significant bits).
        var bytesPerSample: Int
    }

    init(bytes: UnsafeRawBufferPointer, name: String) {
        self.bytes = bytes
        self.name = name
    }

    func fail(_ reason: String, at offset: Int? = nil) -> AudioFileError {
        AudioFileError(file: name, offset: offset, reason: reason)
    }

    func uint16(at offset: Int) -> Int {
        Int(UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self)))
    }

    func uint32(at offset: Int) -> Int {
        Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
    }

    func uint64(at offset: Int) -> UInt64 {
        UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    func fourCC(at offset: Int) -> [UInt8] {
        Array(bytes[offset..<min(offset + 4, bytes.count)])
    }

    func fourCCString(at offset: Int) -> String {
        String(decoding: fourCC(at: offset), as: UTF8.self)
    }

    mutating func parse() throws(AudioFileError) -> AudioBuffer {
        let magic = fourCC(at: 0)
        let isRF64: Bool
        switch String(decoding: magic, as: UTF8.self) {
        case "RIFF" where bytes.count >= 4: isRF64 = false
        case "RF64" where bytes.count >= 4: isRF64 = true
        case "RIFX" where bytes.count >= 4:
            throw fail(
                "unsupported WAV encoding: big-endian (RIFX); \(AudioFileError.conversionHint)", at: 0)
        default:
            throw .notAWAVFile(name, found: magic)
        }
        guard bytes.count >= 12 else {
            throw fail("truncated: the file ends after \(bytes.count) bytes, inside the RIFF header", at: 0)
        }
        let formType = fourCC(at: 8)
        guard formType == Array("WAVE".utf8) else {
            throw fail(
                "not a WAV file (a RIFF file of type \(AudioFileError.quoted(formType)), "
                    + "expected \"WAVE\" at byte 8)", at: 8)
        }

        var format: Format?
        var rf64DataSize: UInt64?
        var offset = 12
        while offset + 8 <= bytes.count {
            let id = fourCCString(at: offset)
            let declaredSize = uint32(at: offset + 4)
            let body = offset + 8
            let available = bytes.count - body
            switch id {
            case "fmt ":
                guard declaredSize <= available else {
                    throw .truncated(
                        name, what: "the fmt chunk at byte \(offset)", at: offset, claims: declaredSize,
                        has: available)
                }
                format = try parseFormat(at: body, size: declaredSize)
            case "ds64" where isRF64:
                guard declaredSize >= 16, declaredSize <= available else {
                    throw fail("the RF64 ds64 chunk at byte \(offset) is damaged", at: offset)
                }
                rf64DataSize = uint64(at: body + 8)
            case "data":
                guard let format else {
                    throw fail("no fmt chunk before the data (data chunk at byte \(offset))", at: offset)
                }
                var size = declaredSize
                if declaredSize == 0xFFFF_FFFF, let rf64DataSize, rf64DataSize <= UInt64(available) {
                    size = Int(rf64DataSize)
                } else if declaredSize == 0 || declaredSize == 0xFFFF_FFFF
                    || (declaredSize >= 0x7FFF_0000 && declaredSize > available)
                {
                    size = available  // a stream: the writer could not go back and fill in the size
                } else if declaredSize > available {
                    throw .truncated(
                        name, what: "the data chunk", at: offset, claims: declaredSize, has: available)
                }
                return decode(at: body, size: size, format: format)
            default:
                break  // LIST, fact, cue, bext, JUNK, PAD, …
            }
            if declaredSize > available {
                throw .truncated(
                    name, what: "the \(AudioFileError.quoted(Array(id.utf8))) chunk at byte \(offset)",
                    at: offset, claims: declaredSize, has: available)
            }
            // Chunks are padded to an even size; a missing final pad byte is harmless.
            offset = body + declaredSize + (declaredSize & 1)
        }
        if offset < bytes.count {
            throw fail(
                "truncated: the file ends inside a chunk header at byte \(offset)", at: offset)
        }
        if format == nil { throw fail("no fmt chunk (the file has no audio format)") }
        throw fail("no data chunk (the file has a format but no audio)")
    }

    /// Reads the `fmt ` chunk whose body starts at `offset`.
    func parseFormat(at offset: Int, size: Int) throws(AudioFileError) -> Format {
        guard size >= 16 else {
            throw fail(
                "the fmt chunk at byte \(offset - 8) is \(size) bytes, expected at least 16", at: offset - 8)
        }
        var code = uint16(at: offset)
        let channels = uint16(at: offset + 2)
        let sampleRate = uint32(at: offset + 4)
        let blockAlign = uint16(at: offset + 12)
        let bits = uint16(at: offset + 14)
        var described = "format \(code)"

        if code == WAVFormatCode.extensible {
            guard size >= 40, uint16(at: offset + 16) >= 22 else {
                throw fail(
                    "the fmt chunk at byte \(offset - 8) says WAVE_FORMAT_EXTENSIBLE "
                        + "but is too short (\(size) bytes) to hold the subformat", at: offset - 8)
            }
            // The subformat GUID is the format code followed by the fixed KSDATAFORMAT suffix.
            let guid = offset + 24
            let suffix: [UInt8] = [
                0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71,
            ]
            let subformat = uint16(at: guid)
            if Array(bytes[(guid + 2)..<(guid + 16)]) != suffix {
                let hex = bytes[guid..<(guid + 16)].map { String($0, radix: 16) }
                    .map { $0.count == 1 ? "0" + $0 : $0 }.joined()
                throw fail(
                    "unsupported WAV encoding: WAVE_FORMAT_EXTENSIBLE with subformat GUID \(hex); "
                        + AudioFileError.conversionHint, at: guid)
            }
            code = subformat
            described = "WAVE_FORMAT_EXTENSIBLE with subformat \(subformat)"
        }

        guard channels > 0 else {
            throw fail("0 channels in the fmt chunk at byte \(offset - 8)", at: offset + 2)
        }
        // Below a telephone's 8 kHz there is no speech to hear, and the recognizer's 16 kHz would
        // be millions of samples of each one at a few hertz; far above any sound card's, the
        // resampler's filter alone would take gigabytes.
        guard WAVFile.sampleRates.contains(sampleRate) else {
            throw fail(
                "sample rate \(sampleRate) Hz in the fmt chunk at byte \(offset - 8); WAV files are read at \(WAVFile.sampleRates.lowerBound) to \(WAVFile.sampleRates.upperBound) Hz",
                at: offset + 4)
        }
        // The container size: block align says it best (24-bit samples in 4 bytes, 12 in 2).
        var bytesPerSample = (bits + 7) / 8
        if blockAlign % channels == 0, blockAlign / channels > bytesPerSample, blockAlign / channels <= 8 {
            bytesPerSample = blockAlign / channels
        }

        let encoding: WAVEncoding
        switch (code, bytesPerSample) {
        case (WAVFormatCode.pcm, 1): encoding = .unsignedInt8
        case (WAVFormatCode.pcm, 2): encoding = .signedInt16
        case (WAVFormatCode.pcm, 3): encoding = .signedInt24
        case (WAVFormatCode.pcm, 4): encoding = .signedInt32
        case (WAVFormatCode.float, 4): encoding = .float32
        case (WAVFormatCode.float, 8): encoding = .float64
        case (WAVFormatCode.muLaw, 1): encoding = .muLaw
        case (WAVFormatCode.aLaw, 1): encoding = .aLaw
        case (WAVFormatCode.pcm, _), (WAVFormatCode.float, _), (WAVFormatCode.muLaw, _),
            (WAVFormatCode.aLaw, _):
            let kind = [
                WAVFormatCode.pcm: "PCM", WAVFormatCode.float: "float", WAVFormatCode.muLaw: "µ-law",
                WAVFormatCode.aLaw: "A-law",
            ][code]!
            throw fail(
                "unsupported WAV encoding: \(bits)-bit \(kind) (\(described)); "
                    + AudioFileError.conversionHint, at: offset)
        default:
            let label = WAVFormatCode.name(code).map { " (\($0))" } ?? ""
            throw fail(
                "unsupported WAV encoding: \(described)\(label); \(AudioFileError.conversionHint)",
                at: offset)
        }
        return Format(
            encoding: encoding, channels: channels, sampleRate: sampleRate, bytesPerSample: bytesPerSample)
    }

    /// Decodes `size` bytes of samples from `offset`, averaging the channels of each frame.
    func decode(at offset: Int, size: Int, format: Format) -> AudioBuffer {
        Self.decode(UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + size)]), format: format)
    }

    /// Decodes the samples in `bytes`, averaging the channels of each frame.
    static func decode(_ bytes: UnsafeRawBufferPointer, format: Format) -> AudioBuffer {
        let channels = format.channels
        let width = format.bytesPerSample
        let frameSize = width * channels
        let frames = bytes.count / frameSize  // a partial last frame is dropped
        guard frames > 0, let base = bytes.baseAddress else {
            return AudioBuffer(samples: [], sampleRate: format.sampleRate)
        }
        let scale = 1 / Float(channels)

        func mix(_ sample: (UnsafeRawPointer) -> Float) -> [Float] {
            [Float](unsafeUninitializedCapacity: frames) { output, initialized in
                var pointer = base
                for frame in 0..<frames {
                    var sum: Float = 0
                    for _ in 0..<channels {
                        sum += sample(pointer)
                        pointer += width
                    }
                    output[frame] = channels == 1 ? sum : sum * scale
                }
                initialized = frames
            }
        }

        let samples: [Float]
        switch format.encoding {
        case .unsignedInt8:
            samples = mix { (Float($0.load(as: UInt8.self)) - 128) / 128 }
        case .signedInt16:
            samples = mix { Float(Int16(littleEndian: $0.loadUnaligned(as: Int16.self))) / 32768 }
        case .signedInt24:
            samples = mix { pointer in
                let value =
                    Int32(pointer.load(as: UInt8.self)) << 8
                    | Int32(pointer.load(fromByteOffset: 1, as: UInt8.self)) << 16
                    | Int32(pointer.load(fromByteOffset: 2, as: UInt8.self)) << 24
                return Float(value >> 8) / 8_388_608
            }
        case .signedInt32:
            samples = mix { Float(Int32(littleEndian: $0.loadUnaligned(as: Int32.self))) / 2_147_483_648 }
        // Floating-point samples are full scale at ±1, and clip there on the way to 16 bits: a
        // louder one is clipped as it is read, so that no value (2e38, or a finite Double beyond
        // Float's range) becomes infinite in a Float or in the sum of a frame's channels.
        case .float32:
            samples = mix { pointer in
                let value = Float(bitPattern: UInt32(littleEndian: pointer.loadUnaligned(as: UInt32.self)))
                return value.isFinite ? Swift.max(-1, Swift.min(1, value)) : 0
            }
        case .float64:
            samples = mix { pointer in
                let value = Double(bitPattern: UInt64(littleEndian: pointer.loadUnaligned(as: UInt64.self)))
                return value.isFinite ? Float(Swift.max(-1, Swift.min(1, value))) : 0
            }
        case .muLaw:
            let table = G711.muLawTable
            samples = mix { table[Int($0.load(as: UInt8.self))] }
        case .aLaw:
            let table = G711.aLawTable
            samples = mix { table[Int($0.load(as: UInt8.self))] }
        }
        return AudioBuffer(samples: samples, sampleRate: format.sampleRate)
    }
}

/// G.711 µ-law and A-law expansion, as tables of the 256 codes' values in -1...1.
enum G711 {
    static let muLawTable: [Float] = (0..<256).map { code in
        let byte = ~UInt8(code)
        let exponent = Int((byte >> 4) & 0x07)
        let mantissa = Int(byte & 0x0F)
        let magnitude = (((mantissa << 3) + 0x84) << exponent) - 0x84
        return Float(byte & 0x80 != 0 ? -magnitude : magnitude) / 32768
    }

    static let aLawTable: [Float] = (0..<256).map { code in
        let byte = UInt8(code) ^ 0x55
        let exponent = Int((byte >> 4) & 0x07)
        let mantissa = Int(byte & 0x0F)
        var magnitude = (mantissa << 4) + 8
        if exponent != 0 { magnitude = (magnitude + 0x100) << (exponent - 1) }
        return Float(byte & 0x80 != 0 ? magnitude : -magnitude) / 32768
    }
}
