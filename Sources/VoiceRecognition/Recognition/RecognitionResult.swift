import Foundation

/// What the recognizer heard in one utterance.
public struct RecognitionResult: Sendable, Hashable {
    /// The words, space-separated; empty when nothing fitted (or only a garbage path did: see
    /// ``garbage``). A value heard on a garbage path (``GarbageKind/value``) is written as its
    /// phone-words: "find six tickets for ~l ~uw ~v".
    public let text: String
    /// PocketSphinx's path score (log scale; higher is better).
    package let score: Int
    /// How many 10 ms frames were decoded.
    package let frames: Int
    /// Every segment of the best path, silences and fillers included.
    package let words: [RecognizedWord]

    /// How sure the recognizer is that the utterance was what it heard; `nil` only for a result
    /// made by hand without one.
    public internal(set) var confidence: RecognitionConfidence?

    /// The words as the search has them: a name of several words as one (``CompoundWord``).
    var searchWords: [String] = []

    package init(
        text: String, score: Int, frames: Int, words: [RecognizedWord],
        confidence: RecognitionConfidence? = nil
    ) {
        self.text = text
        self.score = score
        self.frames = frames
        self.words = words
        self.confidence = confidence
    }

    /// The segments that are words (no silence, no fillers such as `<sil>` or `[NOISE]`, no
    /// garbage phone-words).
    package var spokenWords: [RecognizedWord] {
        words.filter { !$0.isFiller && !$0.isGarbage }
    }

    /// Seconds of the utterance outside its ``spokenWords``: the silences and noises before,
    /// between and after them, the trailing silence that ended the utterance included. Speech
    /// the grammar could not fit lands here too: a news sentence heard under a yes-or-no grammar
    /// as "please do" has two seconds of "silence" between the two words. So an answer of a word
    /// or two with much more than the trailing silence around it was likely not an answer
    /// (`Benchmarks/Recognition/README.md`, "Answers to a confirmation").
    package var secondsOutsideWords: Double {
        let wordFrames = spokenWords.reduce(0) { $0 + $1.endFrame - $1.startFrame + 1 }
        return Double(max(0, frames - wordFrames)) / 100
    }

    /// ``text`` without garbage phone-words: what a matcher is given. A value heard on a garbage
    /// path is left out ("how busy is in travel tracking"), so the runner asks for it rather than
    /// guessing.
    package var commandText: String {
        guard garbage != .commandWord else { return "" }
        return text.split(separator: " ").filter { !GarbageModel.isGarbage(String($0)) }.joined(
            separator: " ")
    }

    /// ``text`` with each run of garbage phone-words written as "…", for people to read: "how
    /// busy is … in travel tracking".
    package var readableText: String {
        var words: [String] = []
        for word in text.split(separator: " ").map(String.init) {
            if GarbageModel.isGarbage(word) {
                if words.last != "…" { words.append("…") }
            } else {
                words.append(word)
            }
        }
        return words.joined(separator: " ")
    }

    /// The share of the frames of words (garbage included, silences and fillers not) that the
    /// best path spent in garbage loops: 0 without garbage, 1 for a whole-utterance loop.
    package var garbageShare: Double {
        let segments = words.filter { !$0.isFiller }
        let frames = segments.reduce(0) { $0 + $1.endFrame - $1.startFrame + 1 }
        let garbage = segments.filter(\.isGarbage).reduce(0) { $0 + $1.endFrame - $1.startFrame + 1 }
        return frames > 0 ? Double(garbage) / Double(frames) : 0
    }

    /// Whether the best path went through a garbage loop of the grammar (``GarbageModel``), and
    /// where: through the whole utterance (not a command), or in place of values of a command
    /// (a near miss); `nil` when it kept to the commands, or the grammar has no garbage path.
    package var garbage: GarbageKind? {
        guard words.contains(where: \.isGarbage) else { return nil }
        if words.contains(where: { GarbageModel.isCommandDecoy($0.word) }) { return .commandWord }
        return spokenWords.isEmpty ? .utterance : .value
    }
}

/// One segment of a recognition.
package struct RecognizedWord: Sendable, Hashable {
    /// The word ("travel"), or a filler ("<sil>").
    package let word: String
    /// First and last 10 ms frame.
    package let startFrame: Int
    package let endFrame: Int
    /// PocketSphinx's acoustic and language scores, and posterior, for rejection work.
    package let acousticScore: Int
    package let languageScore: Int
    package let posterior: Int

    /// Whether the segment is a phone-word of a garbage loop ("~aa"; ``GarbageModel``).
    package var isGarbage: Bool { GarbageModel.isGarbage(word) }
    /// Whether the segment is silence or a filler (`<sil>`, `[NOISE]`, `++…`).
    package var isFiller: Bool { Self.isFiller(word) }

    /// Whether `word`, a segment's word, is silence or a filler (`<sil>`, `[NOISE]`, `++…`).
    package static func isFiller(_ word: String) -> Bool {
        word.hasPrefix("<") || word.hasPrefix("[") || word.hasPrefix("++")
    }

    /// When the word starts and ends, in seconds from the start of the utterance.
    package var start: Double { Double(startFrame) / 100 }
    package var end: Double { Double(endFrame + 1) / 100 }
}
