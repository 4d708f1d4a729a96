import BenchmarkSupport
import Foundation
import PhraseMatching
import VoiceAudio
import VoiceRecognition
import VoiceUnderstanding

/// A real recording from Debian's packages, and what is said in it.
struct Recording {
    let name: String
    let words: [String]
    let samples: [Int16]
}

/// A grammar of exactly `sentences`.
func grammar(_ name: String, _ sentences: [[String]], garbage: GarbageModel? = nil) -> SpeechGrammar {
    SpeechGrammar(
        SpokenForms(
            phrases: sentences.map { SpokenForms.Phrase(intent: name, elements: $0.map { .word($0) }) }),
        name: name, garbage: garbage)
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
    var seen = Set<String>()
    var prompts: [(key: String, words: [String])] = []
    for (key, transcript, said) in try asteriskSentences(wordCounts: 2...10) {
        guard transcript.allSatisfy({ !$0.isNumber }), said.allSatisfy(knows),
            seen.insert(said.joined(separator: " ")).inserted
        else { continue }
        prompts.append((key, said))
    }
    var recordings: [Recording] = []
    for (index, prompt) in prompts.enumerated() where index % stride == 0 {
        let samples = try readG722("\(asterisk)/\(prompt.key).g722")
        recordings.append(Recording(name: "asterisk \(prompt.key)", words: prompt.words, samples: samples))
    }
    return (recordings, prompts.map(\.words))
}
