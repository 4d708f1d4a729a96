// The real-speech benchmark's recordings, each corpus with a grammar that covers it and its
// eSpeak NG twin, and the figures it prints.

import BenchmarkSupport
import Foundation
import PhraseMatching
import VoiceAudio
import VoiceEvaluation
import VoiceRecognition
import VoiceSynthesis
import VoiceUnderstanding

// MARK: Figures

func format(_ value: Double, _ digits: Int = 3) -> String { String(format: "%.\(digits)f", value) }

func padded(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
}

/// Word-level edit distance (substitutions, insertions, deletions).
func editDistance(_ reference: [String], _ hypothesis: [String]) -> Int {
    if reference.isEmpty { return hypothesis.count }
    var previous = Array(0...hypothesis.count)
    for (i, word) in reference.enumerated() {
        var current = [i + 1] + Array(repeating: 0, count: hypothesis.count)
        for (j, heard) in hypothesis.enumerated() {
            current[j + 1] = min(previous[j] + (word == heard ? 0 : 1), previous[j + 1] + 1, current[j] + 1)
        }
        previous = current
    }
    return previous[hypothesis.count]
}

// MARK: Recordings

struct Clip {
    let name: String
    /// What was said, as the grammar spells it.
    let words: [String]
    /// 16 kHz, 16-bit mono.
    let samples: [Int16]
    var duration: Double { Double(samples.count) / 16_000 }
}

struct Corpus {
    let name: String
    let grammar: SpeechGrammar
    let clips: [Clip]
}

// MARK: Grammars, as phrases

func sentence(_ text: String) -> [PhraseElement] { words(text).map { .word($0) } }
func oneOf(_ choices: [String]) -> PhraseElement { .alternatives(choices.map { sentence($0) }) }
func grammar(_ name: String, _ phrases: [[PhraseElement]]) -> SpeechGrammar {
    SpeechGrammar(
        SpokenForms(phrases: phrases.map { SpokenForms.Phrase(intent: name, elements: $0) }), name: name)
}

let digitWords = ["zero", "oh", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]

/// goforward.gram: "go forward ten meters", or go forward/backward one to ten [meter | meters].
let goForwardGrammar = grammar(
    "goforward",
    [
        sentence("go forward ten meters"),
        [
            .word("go"), oneOf(["forward", "backward"]), oneOf(Array(digitWords.dropFirst(2)) + ["ten"]),
            .optional([oneOf(["meter", "meters"])]),
        ],
    ])

/// cards.gram: one to three cards ("eight of spades four of clubs"), or ranks before a card.
let cardsGrammar: SpeechGrammar = {
    let rank = oneOf([
        "ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen",
        "king",
        "lady",
    ])
    let card: [PhraseElement] = [
        rank, .optional([.word("of")]), oneOf(["clubs", "hearts", "diamonds", "spades"]),
    ]
    return grammar("cards", [card + card + card, card + card, card, [rank] + card, [rank, rank]])
}()

/// Digit strings of one to eight digits, "oh" and "zero" both allowed: `SpokenForms` has no
/// repetition, so "(digit)+" is written as a digit and seven nested optional ones.
let digitsGrammar: SpeechGrammar = {
    var elements: [PhraseElement] = [oneOf(digitWords)]
    for _ in 1..<8 { elements = [oneOf(digitWords), .optional(elements)] }
    return grammar("digits", [elements])
}()

func pocketSphinxCorpora() throws -> [Corpus] {
    var corpora: [Corpus] = []
    corpora.append(
        Corpus(
            name: "goforward", grammar: goForwardGrammar,
            clips: [
                Clip(
                    name: "goforward", words: words("go forward ten meters"),
                    samples: try readRaw("\(testData)/goforward.raw"))
            ]))

    // cards.transcription: "<s> ten of clubs  </s> (001)"
    let cardsText = try String(contentsOfFile: "\(testData)/cards/cards.transcription", encoding: .utf8)
    var cards: [Clip] = []
    for line in cardsText.split(separator: "\n") {
        guard let open = line.lastIndex(of: "("), let close = line.lastIndex(of: ")") else { continue }
        let id = String(line[line.index(after: open)..<close])
        let text = line[..<open].replacingOccurrences(of: "<s>", with: "").replacingOccurrences(
            of: "</s>", with: "")
        cards.append(Clip(name: id, words: words(text), samples: try readWAV("\(testData)/cards/\(id).wav")))
    }
    corpora.append(Corpus(name: "cards", grammar: cardsGrammar, clips: cards))

    // The one TIDIGITS recording kept as audio (the others are features): its name is what is said,
    // "z" for zero and "o" for oh.
    let spoken: [Character: String] = [
        "z": "zero", "o": "oh", "1": "one", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six",
        "7": "seven", "8": "eight", "9": "nine",
    ]
    corpora.append(
        Corpus(
            name: "tidigits", grammar: digitsGrammar,
            clips: [
                Clip(
                    name: "dhd.2934z", words: "2934z".map { spoken[$0]! },
                    samples: try readRaw("\(testData)/tidigits/dhd.2934z.raw"))
            ]))

    // LibriVox: five read sentences under a grammar of exactly those five (long, with pauses).
    let libriText = try String(contentsOfFile: "\(testData)/librivox/transcription", encoding: .utf8)
    var libri: [Clip] = []
    for line in libriText.split(separator: "\n") {
        guard let open = line.lastIndex(of: "("), let close = line.lastIndex(of: ")") else { continue }
        let id = String(line[line.index(after: open)..<close])
        let text = line[..<open].replacingOccurrences(of: "<s>", with: "").replacingOccurrences(
            of: "</s>", with: "")
        libri.append(
            Clip(name: id, words: words(text), samples: try readWAV("\(testData)/librivox/\(id).wav")))
    }
    corpora.append(
        Corpus(
            name: "librivox", grammar: grammar("librivox", libri.map { $0.words.map { .word($0) } }),
            clips: libri))
    return corpora
}

/// Every how many of the qualifying Asterisk prompts is decoded (all are in the grammar).
let promptStride = 4

func asteriskCorpora(knows: (String) -> Bool) throws -> [Corpus] {
    let texts = try asteriskTexts()
    let byKey = Dictionary(texts, uniquingKeysWith: { first, _ in first })

    // Single words: numbers, days, ordinals, months, under one grammar of all of them.
    var keys = (0...19).map { "digits/\($0)" } + stride(from: 20, through: 90, by: 10).map { "digits/\($0)" }
    keys += ["digits/hundred", "digits/thousand", "digits/million"]
    keys += (0...6).map { "digits/day-\($0)" } + (0...11).map { "digits/mon-\($0)" }
    keys += (1...19).map { "digits/h-\($0)" } + stride(from: 20, through: 90, by: 10).map { "digits/h-\($0)" }
    var singles: [Clip] = []
    for key in keys {
        guard var text = byKey[key], FileManager.default.fileExists(atPath: "\(asterisk)/\(key).g722") else {
            continue
        }
        if text == "fourtieth" { text = "fortieth" }  // a misspelt transcript
        singles.append(Clip(name: key, words: words(text), samples: try readG722("\(asterisk)/\(key).g722")))
    }
    let singleWords = singles.map { $0.words.joined(separator: " ") }
    let wordsGrammar = grammar("asterisk_words", [[oneOf(singleWords)]])

    // Prompts of two to ten words, no digits or sound effects, every word in the dictionary.
    var seen = Set<String>()
    var prompts: [(key: String, words: [String])] = []
    for (key, text) in texts where !key.contains("/") && !text.contains("[") {
        guard text.allSatisfy({ !$0.isNumber }),
            FileManager.default.fileExists(atPath: "\(asterisk)/\(key).g722")
        else { continue }
        let said = words(text)
        guard (2...10).contains(said.count), said.allSatisfy(knows),
            seen.insert(said.joined(separator: " ")).inserted
        else { continue }
        prompts.append((key, said))
    }
    let promptGrammar = grammar("asterisk_prompts", prompts.map { $0.words.map { .word($0) } })
    var promptClips: [Clip] = []
    for (index, prompt) in prompts.enumerated() where index % promptStride == 0 {
        promptClips.append(
            Clip(
                name: prompt.key, words: prompt.words, samples: try readG722("\(asterisk)/\(prompt.key).g722")
            ))
    }
    print(
        "asterisk: \(singles.count) single words; \(prompts.count) prompts in the grammar, every \(promptStride)th decoded"
    )
    return [
        Corpus(name: "asterisk words", grammar: wordsGrammar, clips: singles),
        Corpus(name: "asterisk prompts", grammar: promptGrammar, clips: promptClips),
    ]
}

/// The same transcripts spoken by eSpeak NG, with 0.3 s of digital silence either side.
func synthetic(_ corpus: Corpus, voices: [String]) throws -> Corpus {
    let quiet = [Int16](repeating: 0, count: 4_800)
    var clips: [Clip] = []
    for voice in voices {
        for clip in corpus.clips {
            let speech = try SpeechSynthesizer(voice: voice, rate: 170).speak(
                clip.words.joined(separator: " "))
            let samples = AudioBuffer(int16: speech.samples, sampleRate: speech.sampleRate).forRecognizer
            clips.append(
                Clip(name: "\(voice) \(clip.name)", words: clip.words, samples: quiet + samples + quiet))
        }
    }
    return Corpus(name: corpus.name, grammar: corpus.grammar, clips: clips)
}
