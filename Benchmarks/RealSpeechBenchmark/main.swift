// Real-speech benchmark: grammar-mode accuracy on real recorded speech under several decoder
// settings, beside the same sentences spoken by eSpeak NG, and end-of-speech detection on a stream.
//
//     apt-get install pocketsphinx-testdata asterisk-core-sounds-en-g722 ffmpeg
//     VOICE_INTENTS_BENCHMARKS=1 swift run -c release real-speech-benchmark              # every setting below
//     VOICE_INTENTS_BENCHMARKS=1 swift run -c release real-speech-benchmark -beam 1e-60  # one setting of your own
//
// Recordings: Debian's `pocketsphinx-testdata` (goforward.raw, the cards WAVs, one TIDIGITS digit
// string, five LibriVox sentences) and `asterisk-core-sounds-en-g722` (one speaker, Allison:
// numbers, days, ordinals and months as single words, and short prompts), each under a grammar that
// covers its corpus, built with the package's own `SpokenForms` and `SpeechGrammar`. Each corpus
// has a synthetic twin: its transcripts spoken by eSpeak NG in three voices with 0.3 s of digital
// silence around them (as the speech benchmark and the round-trip test make them).
//
// For each setting and corpus it prints sentences heard word for word, word error rate, empty
// hypotheses, and real-time factor (decoding time over audio time; one core), three times: the
// recordings as they are, the recordings with a second of quiet noise (about -56 dBFS) either side
// as a microphone stream has them, and the eSpeak NG twin. Every corpus gets a fresh recognizer;
// within a corpus the recognizer carries its state (cepstral mean) from clip to clip as a live one
// would. Then it streams a few recordings through `listen(timeout:read:)` in 100 ms chunks, with a
// second of quiet noise either side, listening again after each result until the stream ends, and
// compares with `recognize` of the same audio. `VERBOSE=1` lists every miss. It prints figures
// only; it asserts nothing.

import BenchmarkSupport
import Foundation
import PhraseMatching
import Speech
import SpeechEvaluation

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

// MARK: Settings

struct Setting {
    let name: String
    let arguments: [String]
}

let current = SpeechRecognizer.Configuration.englishUS.arguments

func removing(_ flag: String, from arguments: [String]) -> [String] {
    guard let index = arguments.firstIndex(of: flag) else { return arguments }
    var result = arguments
    result.removeSubrange(index...index + 1)
    return result
}

var settings = [
    Setting(name: "PocketSphinx defaults", arguments: []),
    Setting(name: "current default", arguments: current),
    Setting(name: "current + -dither yes -seed 1", arguments: current + ["-dither", "yes", "-seed", "1"]),
    Setting(name: "current, no -vad_threshold", arguments: removing("-vad_threshold", from: current)),
    Setting(
        name: "current, -vad_threshold 4.0",
        arguments: removing("-vad_threshold", from: current) + ["-vad_threshold", "4.0"]),
    Setting(name: "current + -remove_silence no", arguments: current + ["-remove_silence", "no"]),
    Setting(name: "current + -fsgusefiller no", arguments: current + ["-fsgusefiller", "no"]),
    Setting(
        name: "medium beams (1e-60/1e-40)",
        arguments: ["-beam", "1e-60", "-wbeam", "1e-40", "-pbeam", "1e-60"]
            + removing(
                "-pbeam", from: removing("-wbeam", from: removing("-beam", from: current)))),
]
let custom = Array(CommandLine.arguments.dropFirst())
if custom.contains(where: { ["-h", "--help", "help"].contains($0) }) {
    print(
        """
        usage: real-speech-benchmark [decoder arguments…]
          decoder arguments   one PocketSphinx setting of your own instead of every setting
                              compared (e.g. -beam 1e-60 -wbeam 1e-40)
        """)
    exit(0)
}
if !custom.isEmpty { settings = [Setting(name: "given", arguments: custom)] }

func configuration(_ setting: Setting) -> SpeechRecognizer.Configuration {
    var configuration = SpeechRecognizer.Configuration.englishUS
    configuration.arguments = setting.arguments
    return configuration
}

// MARK: Decoding

struct Score {
    var right = 0
    var total = 0
    var errors = 0
    var referenceWords = 0
    var empty = 0
    var decodeTime = 0.0
    var audioTime = 0.0
    var misses: [String] = []

    var wordErrorRate: Double { Double(errors) / Double(max(referenceWords, 1)) }
    var realTimeFactor: Double { decodeTime / max(audioTime, 1e-9) }

    static func + (left: Score, right: Score) -> Score {
        Score(
            right: left.right + right.right, total: left.total + right.total,
            errors: left.errors + right.errors,
            referenceWords: left.referenceWords + right.referenceWords, empty: left.empty + right.empty,
            decodeTime: left.decodeTime + right.decodeTime, audioTime: left.audioTime + right.audioTime)
    }

    var line: String {
        "\(padded("\(right)/\(total)", 7)) WER \(padded(format(wordErrorRate * 100, 1) + "%", 6)) "
            + "empty \(padded(String(empty), 3)) RTF \(format(realTimeFactor))"
    }
}

let clock = ContinuousClock()

func decode(_ corpus: Corpus, _ setting: Setting) throws -> Score {
    let recognizer = try SpeechRecognizer(configuration(setting))
    try recognizer.useGrammar(corpus.grammar)
    var score = Score()
    for clip in corpus.clips {
        let began = clock.now
        let result = try recognizer.recognize(clip.samples)
        score.decodeTime += seconds(clock.now - began)
        score.audioTime += clip.duration
        let heard = result.text.split(separator: " ").map(String.init)
        score.total += 1
        score.referenceWords += clip.words.count
        score.errors += editDistance(clip.words, heard)
        if heard == clip.words {
            score.right += 1
        } else {
            score.misses.append(
                "\(clip.name): \"\(clip.words.joined(separator: " "))\" heard as \"\(result.text)\"")
        }
        if heard.isEmpty { score.empty += 1 }
    }
    return score
}

// MARK: Streaming end of speech

/// Quiet that is not digital silence: Gaussian noise, low-passed (one pole), at `level` RMS
/// (16-bit units; 50 is about -56 dBFS, a quiet room through a cheap microphone).
func quietNoise(count: Int, level: Double, seed: UInt64) -> [Int16] {
    var state = seed
    func uniform() -> Double {
        // SplitMix64.
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return (Double((z ^ (z >> 31)) >> 11) + 0.5) / Double(1 << 53)
    }
    var filtered: [Double] = []
    var previous = 0.0
    for _ in 0..<count {
        let gaussian = (-2 * log(uniform())).squareRoot() * cos(2 * Double.pi * uniform())
        previous = 0.6 * previous + 0.4 * gaussian
        filtered.append(previous)
    }
    let rms = (filtered.reduce(0) { $0 + $1 * $1 } / Double(max(count, 1))).squareRoot()
    return filtered.map { Int16(max(-32768, min(32767, ($0 / max(rms, 1e-9) * level).rounded()))) }
}

struct StreamOutcome {
    var found = 0
    var same = 0
    var right = 0
    var total = 0
    /// Segments that `listen` returned empty (a start of speech with nothing in the grammar).
    var emptySegments = 0
    var endDelays: [Double] = []
    var notes: [String] = []
}

/// Feeds each clip, with a second of quiet either side, to `listen` in 100 ms chunks, listening
/// again after each result as an app would, until the stream ends; compares what the non-empty
/// results say with `recognize` of the same padded audio on a recognizer of its own.
func stream(_ clips: [(clip: Clip, grammar: SpeechGrammar)], _ setting: Setting) throws -> StreamOutcome {
    var outcome = StreamOutcome()
    var recognizers: [String: (listener: SpeechRecognizer, batch: SpeechRecognizer)] = [:]
    for (index, item) in clips.enumerated() {
        let name = item.grammar.name
        if recognizers[name] == nil {
            let listener = try SpeechRecognizer(configuration(setting))
            try listener.useGrammar(item.grammar)
            let batch = try SpeechRecognizer(configuration(setting))
            try batch.useGrammar(item.grammar)
            recognizers[name] = (listener, batch)
        }
        let (listener, batch) = recognizers[name]!
        let lead = quietNoise(count: 16_000, level: 50, seed: UInt64(2 * index + 1))
        let tail = quietNoise(count: 16_000, level: 50, seed: UInt64(2 * index + 2))
        let audio = lead + item.clip.samples + tail
        let stream = SampleStream(audio)
        var segments: [String] = []
        var lastEnd = 0
        while !stream.isAtEnd {
            guard let result = try listener.listen(timeout: 5, read: stream.read) else { continue }
            segments.append(result.text)
            if result.text.isEmpty { outcome.emptySegments += 1 } else { lastEnd = stream.position }
        }
        let heard = segments.filter { !$0.isEmpty }.joined(separator: " ")
        let whole = try batch.recognize(audio).text
        let speechEnd = Double(lead.count + item.clip.samples.count) / 16_000
        outcome.total += 1
        if !heard.isEmpty {
            outcome.found += 1
            outcome.endDelays.append(Double(lastEnd) / 16_000 - speechEnd)
        }
        if heard == whole { outcome.same += 1 }
        if heard.split(separator: " ").map(String.init) == item.clip.words { outcome.right += 1 }
        if heard != whole || heard.split(separator: " ").map(String.init) != item.clip.words
            || segments.count != 1
        {
            let listed = segments.map { "\"\($0)\"" }.joined(separator: ", ")
            outcome.notes.append(
                "\(item.clip.name) \"\(item.clip.words.joined(separator: " "))\": listen [\(listed)], "
                    + "recognize \"\(whole)\""
                    + (heard.isEmpty
                        ? ""
                        : ", last result read to \(format(Double(lastEnd) / 16_000 - speechEnd, 2)) s after the recording's end")
            )
        }
    }
    return outcome
}

/// A recording with a second of quiet noise either side, as a stream from a microphone has it.
func withQuiet(_ corpus: Corpus) -> Corpus {
    Corpus(
        name: corpus.name, grammar: corpus.grammar,
        clips: corpus.clips.enumerated().map { index, clip in
            Clip(
                name: clip.name, words: clip.words,
                samples: quietNoise(count: 16_000, level: 50, seed: UInt64(1_000 + 2 * index)) + clip.samples
                    + quietNoise(count: 16_000, level: 50, seed: UInt64(1_001 + 2 * index)))
        })
}

// MARK: Run

print("real-speech benchmark (\(ProcessInfo.processInfo.activeProcessorCount) cores)")
var real = try pocketSphinxCorpora()
do {
    let probe = try SpeechRecognizer()
    real += try asteriskCorpora(knows: probe.knows)
} catch {
    print("Asterisk sounds left out (\(error)); install asterisk-core-sounds-en-g722 and ffmpeg")
}
let voices = ["en-us", "en-us+f2", "en+m7"]
let twins = try real.map { try synthetic($0, voices: voices) }
for corpus in real {
    let audio = corpus.clips.reduce(0) { $0 + $1.duration }
    print(
        "corpus \(corpus.name): \(corpus.clips.count) recordings, \(format(audio, 1)) s; grammar \(corpus.grammar.words.count) words, \(corpus.grammar.graphSize.states) states"
    )
}
let verbose = ProcessInfo.processInfo.environment["VERBOSE"] != nil

let quietReal = real.map(withQuiet)

var summary: [(setting: String, real: Score, quiet: Score, synthetic: Score)] = []
for setting in settings {
    print("\n== \(setting.name): \(setting.arguments.joined(separator: " "))")
    var realTotal = Score()
    var quietTotal = Score()
    var syntheticTotal = Score()
    for ((corpus, inQuiet), twin) in zip(zip(real, quietReal), twins) {
        let heard = try decode(corpus, setting)
        let heardInQuiet = try decode(inQuiet, setting)
        let spoken = try decode(twin, setting)
        realTotal = realTotal + heard
        quietTotal = quietTotal + heardInQuiet
        syntheticTotal = syntheticTotal + spoken
        print(
            "  \(padded(corpus.name, 17)) real \(heard.line) | with quiet \(heardInQuiet.line) | eSpeak \(spoken.line)"
        )
        if verbose {
            for miss in heard.misses { print("    real miss \(miss)") }
            for miss in heardInQuiet.misses { print("    with quiet miss \(miss)") }
            for miss in spoken.misses { print("    eSpeak miss \(miss)") }
        }
    }
    print(
        "  \(padded("all", 17)) real \(realTotal.line) | with quiet \(quietTotal.line) | eSpeak \(syntheticTotal.line)"
    )
    summary.append((setting.name, realTotal, quietTotal, syntheticTotal))
}

// Streaming: goforward, the cards, and the first prompts, under the current default and without
// its VAD threshold.
var streamed: [(clip: Clip, grammar: SpeechGrammar)] = []
for corpus in real where ["goforward", "cards", "tidigits", "asterisk prompts"].contains(corpus.name) {
    for clip in corpus.clips.prefix(6) { streamed.append((clip, corpus.grammar)) }
}
let streamSettings =
    custom.isEmpty
    ? settings.filter {
        $0.name.hasPrefix("current") && !$0.name.contains("fsgusefiller") && !$0.name.contains("dither")
    }
    : settings
print("\n== streaming: listen(timeout:read:) in 100 ms chunks, 1 s of quiet noise (-56 dBFS) either side")
for setting in streamSettings {
    let outcome = try stream(streamed, setting)
    let delays = outcome.endDelays.sorted()
    let median = delays.isEmpty ? 0 : delays[delays.count / 2]
    print(
        "  \(padded(setting.name, 30)) speech found \(outcome.found)/\(outcome.total), right \(outcome.right), same as recognize \(outcome.same), empty results \(outcome.emptySegments), last result read to \(format(median, 2)) s after the recording (median; \(format(delays.first ?? 0, 2))…\(format(delays.last ?? 0, 2)))"
    )
    for note in outcome.notes { print("    \(note)") }
}

print("\n== summary (all corpora)")
for row in summary {
    print(
        "  \(padded(row.setting, 30)) real \(row.real.line) | with quiet \(row.quiet.line) | eSpeak \(row.synthetic.line)"
    )
}
