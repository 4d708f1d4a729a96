import Foundation
import PhraseMatching
import Speech

/// A real recording from Debian's packages, and what is said in it.
struct Recording {
    let name: String
    let words: [String]
    let samples: [Int16]
}

let testData = "/usr/share/pocketsphinx/test/data"
let asterisk = "/usr/share/asterisk/sounds/en_US_f_Allison"
let asteriskTranscripts = "/usr/share/doc/asterisk-core-sounds-en/core-sounds-en.txt.gz"

/// Raw 16 kHz 16-bit little-endian mono.
func readRaw(_ path: String) throws -> [Int16] {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }.map { Int16(littleEndian: $0) }
}

/// The standard output of a command.
func output(of command: [String]) throws -> Data {
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

/// A transcript's words: lower case, letters and apostrophes.
func words(_ text: String) -> [String] {
    text.lowercased().split(whereSeparator: { !($0.isLetter || $0 == "'") }).map(String.init)
}

/// A grammar of exactly `sentences`.
func grammar(_ name: String, _ sentences: [[String]]) -> SpeechGrammar {
    SpeechGrammar(
        SpokenForms(
            phrases: sentences.map { SpokenForms.Phrase(intent: name, elements: $0.map { .word($0) }) }),
        name: name)
}

/// PocketSphinx's own test recordings: goforward, numbers, something, the cards, TIDIGITS'
/// one raw recording, and five LibriVox sentences (the only ones with a transcript are those
/// and goforward).
func pocketSphinxRecordings() throws -> [Recording] {
    var recordings = [
        Recording(
            name: "goforward", words: words("go forward ten meters"),
            samples: try readRaw("\(testData)/goforward.raw")),
        Recording(name: "numbers", words: [], samples: try readRaw("\(testData)/numbers.raw")),
        Recording(name: "something", words: [], samples: try readRaw("\(testData)/something.raw")),
        Recording(name: "dhd.2934z", words: [], samples: try readRaw("\(testData)/tidigits/dhd.2934z.raw")),
    ]
    for card in 1...5 {
        let name = String(format: "%03d", card)
        recordings.append(
            Recording(
                name: "cards \(name)", words: [],
                samples: try WAVFile.read(from: URL(fileURLWithPath: "\(testData)/cards/\(name).wav"))
                    .forRecognizer))
    }
    let libriText = try String(contentsOfFile: "\(testData)/librivox/transcription", encoding: .utf8)
    for line in libriText.split(separator: "\n") {
        guard let open = line.lastIndex(of: "("), let close = line.lastIndex(of: ")") else { continue }
        let id = String(line[line.index(after: open)..<close])
        let text = line[..<open].replacingOccurrences(of: "<s>", with: "").replacingOccurrences(
            of: "</s>", with: "")
        recordings.append(
            Recording(
                name: "librivox \(id.suffix(4))", words: words(text),
                samples: try WAVFile.read(from: URL(fileURLWithPath: "\(testData)/librivox/\(id).wav"))
                    .forRecognizer))
    }
    return recordings
}

/// Asterisk's prompts of two to ten words (one speaker), every `stride`th of those whose words
/// `knows` has, and the grammar of all of them. Empty when the package is not installed.
func asteriskPrompts(stride: Int, knows: (String) -> Bool) throws -> (
    recordings: [Recording], all: [[String]]
) {
    guard FileManager.default.fileExists(atPath: asteriskTranscripts) else { return ([], []) }
    let text = String(decoding: try output(of: ["gzip", "-dc", asteriskTranscripts]), as: UTF8.self)
    var seen = Set<String>()
    var prompts: [(key: String, words: [String])] = []
    for line in text.split(separator: "\n") {
        guard !line.hasPrefix(";"), let colon = line.firstIndex(of: ":") else { continue }
        let key = String(line[..<colon])
        let transcript = line[line.index(after: colon)...]
        guard !key.contains("/"), !transcript.contains("["), transcript.allSatisfy({ !$0.isNumber }),
            FileManager.default.fileExists(atPath: "\(asterisk)/\(key).g722")
        else { continue }
        let said = words(String(transcript))
        guard (2...10).contains(said.count), said.allSatisfy(knows),
            seen.insert(said.joined(separator: " ")).inserted
        else { continue }
        prompts.append((key, said))
    }
    var recordings: [Recording] = []
    for (index, prompt) in prompts.enumerated() where index % stride == 0 {
        let data = try output(of: [
            "ffmpeg", "-nostdin", "-loglevel", "error", "-i", "\(asterisk)/\(prompt.key).g722", "-f", "s16le",
            "-ar", "16000", "-ac", "1", "-",
        ])
        let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }.map {
            Int16(littleEndian: $0)
        }
        recordings.append(Recording(name: "asterisk \(prompt.key)", words: prompt.words, samples: samples))
    }
    return (recordings, prompts.map(\.words))
}
