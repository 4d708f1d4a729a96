// The real-speech benchmark's decoder settings, and how it decodes a corpus: clip by clip, and as
// a stream with the end of speech found by the recognizer.

import BenchmarkSupport
import Foundation
import PhraseMatching
import VoiceAudio
import VoiceEvaluation
import VoiceIntents
import VoiceRecognition

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

/// The decoder settings compared.
let comparedSettings = [
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
        score.decodeTime += (clock.now - began).inSeconds
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
