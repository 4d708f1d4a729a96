import Foundation
import VoiceAudio

/// Pronunciations in the CMU dictionary format: a word, then its phones, one pronunciation a
/// line, alternatives numbered (`read R IY D`, `read(2) R EH D`), `;;;` starting a comment.
///
/// The recognizer loads only the words its grammars use: the whole of cmudict (134,723 words)
/// takes about 22 MB in the decoder, the words of an app's grammar a few kilobytes.
///
/// ```swift
/// let cmudict = URL(fileURLWithPath: "/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict")
/// let entries = try PronunciationDictionary.entries(for: ["read", "map"], in: cmudict)
/// // ["map": ["M AE P"], "read": ["R IY D", "R EH D"]]
/// ```
package enum PronunciationDictionary {
    /// The pronunciations of `words` found in the file at `url`, in the file's order.
    ///
    /// - Throws: ``SpeechError`` when the file cannot be read, or a line has a word and no phones
    ///   (naming the file and line).
    package static func entries(for words: Set<String>, in url: URL) throws(SpeechError) -> [String: [String]]
    {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw SpeechError(
                .missingModel,
                "cannot read the pronunciation dictionary \(url.path): \(error.localizedDescription)")
        }
        // Look at the word of each line before making any strings: the file is large and few of its
        // words are wanted. A word whose length and first byte no wanted word has is passed over
        // without copying it (most of cmudict's 135,000 lines), and lines are found with memchr.
        let wanted = Set(words.map { Array($0.utf8) })
        let lengths = Set(wanted.map(\.count))
        var firstBytes = [Bool](repeating: false, count: 256)
        for word in wanted { if let first = word.first { firstBytes[Int(first)] = true } }
        var result: [String: [String]] = [:]
        var lineNumber = 0
        var failure: SpeechError?
        data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            guard let base = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
            let count = buffer.count
            var start = 0
            while start < count {
                let end =
                    memchr(base + start, 0x0A, count - start).map {
                        base.distance(to: $0.assumingMemoryBound(to: UInt8.self))
                    } ?? count
                lineNumber += 1
                defer { start = end + 1 }
                var wordEnd = start
                while wordEnd < end && base[wordEnd] != 0x20 && base[wordEnd] != 0x09 { wordEnd += 1 }
                guard wordEnd > start, base[start] != 0x3B else { continue }  // blank, or ";;;"
                // "read(2)" is an alternative of "read".
                var baseEnd = wordEnd
                if base[wordEnd - 1] == 0x29 {
                    var open = wordEnd - 1
                    while open > start && base[open] != 0x28 { open -= 1 }
                    if base[open] == 0x28 { baseEnd = open }
                }
                guard firstBytes[Int(base[start])], lengths.contains(baseEnd - start) else { continue }
                let spelling = Array(UnsafeBufferPointer(start: base + start, count: baseEnd - start))
                guard wanted.contains(spelling) else { continue }
                let word = String(decoding: spelling, as: UTF8.self)
                let phones = String(
                    decoding: UnsafeBufferPointer(start: base + wordEnd, count: end - wordEnd), as: UTF8.self
                )
                .split(whereSeparator: \.isWhitespace).joined(separator: " ")
                guard !phones.isEmpty else {
                    failure = SpeechError(
                        .invalidInput, "\(url.path):\(lineNumber): \"\(word)\" has no phones")
                    return
                }
                result[word, default: []].append(phones)
            }
        }
        if let failure { throw failure }
        return result
    }

    /// `entries` as dictionary lines, alternatives numbered from 2, words in order.
    package static func text(_ entries: [String: [String]]) -> String {
        entries.sorted { $0.key < $1.key }.flatMap { word, pronunciations in
            pronunciations.enumerated().map { index, phones in
                (index == 0 ? word : "\(word)(\(index + 1))") + " " + phones
            }
        }
        .map { $0 + "\n" }.joined()
    }
}
