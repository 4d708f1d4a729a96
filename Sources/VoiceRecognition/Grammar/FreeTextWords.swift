import Foundation
import VoiceAudio

/// The words a free-text slot of a command is heard as: "remind me to \(\.$task)" with
/// `@Parameter var task: String` and no suggestions.
///
/// The voice loop uses them with `listen --free-text` (off by default: the loop takes the
/// decoder past real time), and reads back a value heard so that is none of the parameter's
/// suggestions before the intent runs. Heard this way, eSpeak NG's slots come out word for word
/// a few times in ten (`FreeTextTests`, `Benchmarks/Recognition/README.md`).
///
/// The grammar's graph carries one ``marker`` arc where such a slot is; the FSG
/// (``WordGraph/fsg(name:garbage:freeText:)``) puts a loop of these words in its place, one word
/// or more, each weighted by how often English uses it. The words around the slot are heard under
/// the command grammar as before, so "remind me to" and "on friday" anchor the loop's two ends.
///
/// The installed list is `Models/<locale>/free-text.txt` (``installed(locale:)``), one word and
/// its probability (log 10) a line, made by `Scripts/free-text-words.sh` from the unigrams of the
/// locale's language model; a word only there is heard only in a free-text slot. Lines starting
/// with `#` are comments:
///
/// ```
/// # word  log10 probability
/// the -1.43
/// toothpaste -5.93
/// ```
package struct FreeTextWords: Sendable, Hashable {
    /// The words, likeliest first.
    package let words: [String]
    /// Each word's probability in the loop, in the order of ``words``, summing to 1.
    package let probabilities: [Double]

    /// The arc a graph carries in place of a free-text slot; it says nothing itself.
    package static let marker = "~text"
    /// The probability the loop goes on to another word after one; a slot of one word is the
    /// likeliest, one of four still likely.
    package static let anotherWord = 0.4

    /// The list from `weights` (word and log 10 probability, in any order), normalised.
    package init(_ weights: [(word: String, logProbability: Double)]) {
        let sorted = weights.sorted { $0.logProbability > $1.logProbability }
        words = sorted.map(\.word)
        let linear = sorted.map { pow(10, $0.logProbability) }
        let total = linear.reduce(0, +)
        probabilities = linear.map { total > 0 ? $0 / total : 1 / Double(linear.count) }
    }

    /// Reads a list in the format above.
    ///
    /// - Throws: ``SpeechError`` naming the file, and the line and column of what is wrong.
    package init(contentsOf url: URL) throws(SpeechError) {
        let text = try readModelText(at: url, describing: "free-text words")
        var weights: [(word: String, logProbability: Double)] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { continue }
            let fields = trimmed.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count == 2, let value = Double(fields[1]), value <= 0 else {
                let column =
                    fields.count == 2
                    ? (line.range(of: fields[1]).map {
                        line.distance(from: line.startIndex, to: $0.lowerBound) + 1
                    } ?? 1) : 1
                throw SpeechError(
                    .invalidInput,
                    "\(url.path):\(index + 1):\(column): expected a word and its log 10 probability (0 or less), as in \"toothpaste -5.93\""
                )
            }
            weights.append((String(fields[0]).lowercased(), value))
        }
        guard !weights.isEmpty else {
            throw SpeechError(.invalidInput, "\(url.path): no words")
        }
        self.init(weights)
    }

    /// The list installed for `locale`, `free-text.txt` beside its manifest; `nil` when there is
    /// none.
    ///
    /// - Throws: ``SpeechError`` when the file is there but cannot be used.
    package static func installed(locale: String = "en") throws(SpeechError) -> FreeTextWords? {
        guard
            let url = SpeechRecognizer.Configuration.installedManifest(locale: locale)?
                .deletingLastPathComponent().appendingPathComponent("free-text.txt"),
            FileManager.default.fileExists(atPath: url.path)
        else { return nil }
        return try FreeTextWords(contentsOf: url)
    }
}
