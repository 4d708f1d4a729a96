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
public enum PronunciationDictionary {
    /// The pronunciations of `words` found in the file at `url`, in the file's order.
    ///
    /// - Throws: ``SpeechError`` when the file cannot be read, or a line has a word and no phones
    ///   (naming the file and line).
    public static func entries(for words: Set<String>, in url: URL) throws(SpeechError) -> [String: [String]]
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
        // words are wanted.
        let wanted = Set(words.map { Array($0.utf8) })
        var result: [String: [String]] = [:]
        var lineNumber = 0
        var failure: SpeechError?
        data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            let bytes = buffer.bindMemory(to: UInt8.self)
            var start = 0
            while start < bytes.count {
                var end = start
                while end < bytes.count && bytes[end] != 0x0A { end += 1 }
                lineNumber += 1
                defer { start = end + 1 }
                var wordEnd = start
                while wordEnd < end && bytes[wordEnd] != 0x20 && bytes[wordEnd] != 0x09 { wordEnd += 1 }
                guard wordEnd > start, bytes[start] != 0x3B else { continue }  // blank, or ";;;"
                // "read(2)" is an alternative of "read".
                var baseEnd = wordEnd
                if bytes[wordEnd - 1] == 0x29, let open = (start..<wordEnd).last(where: { bytes[$0] == 0x28 })
                {
                    baseEnd = open
                }
                let base = Array(bytes[start..<baseEnd])
                guard wanted.contains(base) else { continue }
                let word = String(decoding: base, as: UTF8.self)
                let phones = String(decoding: bytes[wordEnd..<end], as: UTF8.self)
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
    public static func text(_ entries: [String: [String]]) -> String {
        entries.sorted { $0.key < $1.key }.flatMap { word, pronunciations in
            pronunciations.enumerated().map { index, phones in
                (index == 0 ? word : "\(word)(\(index + 1))") + " " + phones
            }
        }
        .map { $0 + "\n" }.joined()
    }
}
