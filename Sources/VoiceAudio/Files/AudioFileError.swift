/// Why an audio file or stream could not be read or written.
///
/// The description names the file and says what is wrong in words a person can act on:
///
/// ```
/// recording.wav: not a WAV file (expected "RIFF" at byte 0, found "OggS")
/// recording.wav: unsupported WAV encoding: format 85 (MP3); convert it to PCM, e.g. sox in.wav -e signed -b 16 out.wav
/// recording.wav: truncated: the data chunk claims 88200 bytes but the file ends after 1200
/// ```
package struct AudioFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file as the caller named it (a path, or a name such as `"-"` for standard input).
    package let file: String
    /// The byte offset in the file where the problem was found, when there is one.
    package let offset: Int?
    /// What is wrong, without the file name.
    package let reason: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - file: The file as the caller named it.
    ///   - offset: The byte offset where the problem was found, if any.
    ///   - reason: What is wrong, in words a person can act on.
    package init(file: String, offset: Int? = nil, reason: String) {
        self.file = file
        self.offset = offset
        self.reason = reason
    }

    /// The file name, a colon and the reason, e.g. `recording.wav: no such file`.
    package var description: String { "\(file): \(reason)" }
}

extension AudioFileError {
    /// How to convert an unsupported file to something ``WAVFile`` reads.
    static let conversionHint = "convert it to PCM, e.g. sox in.wav -e signed -b 16 out.wav"

    static func noSuchFile(_ file: String) -> AudioFileError {
        AudioFileError(file: file, reason: "no such file")
    }

    static func notAWAVFile(_ file: String, found: [UInt8]) -> AudioFileError {
        if found.isEmpty {
            return AudioFileError(file: file, offset: 0, reason: "not a WAV file (the file is empty)")
        }
        var reason = "not a WAV file (expected \"RIFF\" at byte 0, found \(quoted(found)))"
        if let kind = knownFormat(magic: found) {
            reason += "; it looks like \(kind): convert it to WAV first, e.g. with sox or ffmpeg"
        }
        return AudioFileError(file: file, offset: 0, reason: reason)
    }

    static func truncated(_ file: String, what: String, at offset: Int, claims: Int, has: Int)
        -> AudioFileError
    {
        AudioFileError(
            file: file, offset: offset,
            reason: "truncated: \(what) claims \(claims) bytes but the file ends after \(has)")
    }

    /// `"OggS"` for printable four-character codes, otherwise the bytes in hexadecimal.
    static func quoted(_ bytes: [UInt8]) -> String {
        if bytes.allSatisfy({ (0x20...0x7E).contains($0) }) {
            return "\"" + String(decoding: bytes, as: UTF8.self) + "\""
        }
        return bytes.map { byte in
            let hex = String(byte, radix: 16, uppercase: true)
            return "0x" + (hex.count == 1 ? "0" + hex : hex)
        }.joined(separator: " ")
    }

    /// A name for common non-WAV files, recognised by their first bytes.
    static func knownFormat(magic: [UInt8]) -> String? {
        let text = String(decoding: magic.prefix(4), as: UTF8.self)
        switch text {
        case "OggS": return "Ogg (Vorbis or Opus)"
        case "fLaC": return "FLAC"
        case "FORM": return "AIFF"
        case "ID3\u{03}", "ID3\u{04}", "ID3\u{02}": return "MP3"
        case ".snd": return "Sun/NeXT audio (.au)"
        default:
            if magic.count >= 2, magic[0] == 0xFF, magic[1] & 0xE0 == 0xE0 {
                return "MPEG audio (MP3 or AAC)"
            }
            return nil
        }
    }
}
