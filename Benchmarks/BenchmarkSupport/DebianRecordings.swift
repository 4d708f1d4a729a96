// Debian's recorded speech for the speech benchmarks: where `pocketsphinx-testdata` and
// `asterisk-core-sounds-en-g722` put it, and how to read it.
//
//     apt-get install pocketsphinx-testdata asterisk-core-sounds-en-g722 ffmpeg

import Foundation
import VoiceAudio
import VoiceRecognition

/// PocketSphinx's test recordings.
public let testData = "/usr/share/pocketsphinx/test/data"
/// Asterisk's prompts, one speaker (Allison), G.722 at 16 kHz.
public let asterisk = "/usr/share/asterisk/sounds/en_US_f_Allison"
/// What each Asterisk prompt says.
public let asteriskTranscripts = "/usr/share/doc/asterisk-core-sounds-en/core-sounds-en.txt.gz"

/// Raw 16 kHz 16-bit little-endian mono.
public func readRaw(_ path: String) throws -> [Int16] {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }.map { Int16(littleEndian: $0) }
}

/// A WAV file as the recognizer takes it.
public func readWAV(_ path: String) throws -> [Int16] {
    try WAVFile.read(from: URL(fileURLWithPath: path)).forRecognizer
}

/// The standard output of a command (a benchmark runs synchronously, so Foundation's `Process`
/// is safe here).
public func output(of command: [String]) throws -> Data {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = command
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "\(command) failed"])
    }
    return data
}

/// A G.722 file (Asterisk's 16 kHz sounds), decoded by ffmpeg.
public func readG722(_ path: String) throws -> [Int16] {
    let data = try output(of: [
        "ffmpeg", "-nostdin", "-loglevel", "error", "-i", path, "-f", "s16le", "-ar", "16000", "-ac", "1",
        "-",
    ])
    return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }.map { Int16(littleEndian: $0) }
}

/// A transcript's words: lower case, letters and apostrophes. (Not `SpeechGrammar.spokenWords`:
/// its number normalisation reads "five five" as 10, and a digit string is not a number.)
public func words(_ text: String) -> [String] {
    text.lowercased().split(whereSeparator: { !($0.isLetter || $0 == "'") }).map(String.init)
}

/// Asterisk's transcripts: "digits/7: seven", "vm-youhave: You have".
public func asteriskTexts() throws -> [(key: String, text: String)] {
    let text = String(decoding: try output(of: ["gzip", "-dc", asteriskTranscripts]), as: UTF8.self)
    return text.split(separator: "\n").compactMap { line in
        guard !line.hasPrefix(";"), let colon = line.firstIndex(of: ":") else { return nil }
        return (
            String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        )
    }
}

/// Asterisk's prompts that are one sentence of `wordCounts` words (no folder of digits or
/// letters, no stage direction in brackets) and whose sound is installed, in the transcripts'
/// order; none when the transcripts are not installed.
public func asteriskSentences(wordCounts: ClosedRange<Int>) throws -> [(
    key: String, text: String, words: [String]
)] {
    guard FileManager.default.fileExists(atPath: asteriskTranscripts) else { return [] }
    return try asteriskTexts().compactMap { key, text in
        let said = words(text)
        guard !key.contains("/"), !text.contains("["), wordCounts.contains(said.count),
            FileManager.default.fileExists(atPath: "\(asterisk)/\(key).g722")
        else { return nil }
        return (key, text, said)
    }
}
