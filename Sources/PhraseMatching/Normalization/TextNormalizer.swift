import Foundation
import VoiceIntents

/// A word of a sentence after normalisation, with the words it came from.
public struct Token: Sendable, Hashable, CustomStringConvertible {
    /// The normalised form: lower case, no accents or punctuation, numbers as digits.
    public let text: String
    /// What was written or said ("twenty three" for the token "23").
    public let surface: String

    public var description: String { text }
}

/// Turns text into the tokens the matcher compares: the same rules for phrases, values and
/// sentences, so that they meet in the middle.
///
/// - Case and accents do not matter: "Chichén Itzá" and "chichen itza" are the same tokens.
/// - Punctuation and hyphens separate words; apostrophes go after contractions are expanded
///   ("what's" → "what is", "don't" → "do not").
/// - Numbers become digits: "twenty three", "23" and "twenty-three" are all "23"; "a dozen" is
///   "12"; "two point five" is "2.5"; "2nd" is "second".
/// - Words written together in camel case are split: "TravelTracking" → "travel tracking".
public enum TextNormalizer {
    static let contractions: [String: [String]] = [
        "what's": ["what", "is"], "where's": ["where", "is"], "who's": ["who", "is"],
        "how's": ["how", "is"], "that's": ["that", "is"], "it's": ["it", "is"],
        "there's": ["there", "is"], "here's": ["here", "is"], "let's": ["let", "us"],
        "i'm": ["i", "am"], "you're": ["you", "are"], "we're": ["we", "are"],
        "they're": ["they", "are"], "i'd": ["i", "would"], "i'll": ["i", "will"],
        "i've": ["i", "have"], "don't": ["do", "not"], "doesn't": ["does", "not"],
        "didn't": ["did", "not"], "can't": ["can", "not"], "cannot": ["can", "not"],
        "won't": ["will", "not"], "isn't": ["is", "not"], "aren't": ["are", "not"],
        "wasn't": ["was", "not"], "shouldn't": ["should", "not"], "wouldn't": ["would", "not"],
        "couldn't": ["could", "not"], "gonna": ["going", "to"], "wanna": ["want", "to"],
    ]

    static let ordinalDigits: [String: String] = [
        "1st": "first", "2nd": "second", "3rd": "third", "4th": "fourth", "5th": "fifth",
        "6th": "sixth", "7th": "seventh", "8th": "eighth", "9th": "ninth", "10th": "tenth",
    ]

    /// The tokens of `text`.
    ///
    /// ```swift
    /// TextNormalizer.tokens("What's on my Want-to-Read shelf?").map(\.text)
    /// // ["what", "is", "on", "my", "want", "to", "read", "shelf"]
    /// ```
    public static func tokens(_ text: String) -> [Token] {
        mergeNumbers(words(text))
    }

    /// The normalised tokens of `text` joined by single spaces: the form names are compared in.
    public static func key(_ text: String) -> String {
        tokens(text).map(\.text).joined(separator: " ")
    }

    /// Words with their surface form, before numbers are merged.
    static func words(_ text: String) -> [Token] {
        var result: [Token] = []
        for raw in splitCamelCase(text).split(whereSeparator: { $0.isWhitespace }) {
            let lowered = raw.lowercased().replacingOccurrences(of: "’", with: "'")
            var word = ""
            var pieces: [String] = []
            for character in lowered {
                if character.isLetter || character.isNumber || character == "'" || character == "." {
                    word.append(character)
                } else if !word.isEmpty {
                    pieces.append(word)
                    word = ""
                }
            }
            if !word.isEmpty { pieces.append(word) }
            for piece in pieces {
                // A full stop belongs to a decimal number ("2.5"), nowhere else.
                let cleaned =
                    Double(piece) != nil && piece.contains(".")
                    ? piece : piece.replacingOccurrences(of: ".", with: " ")
                for part in cleaned.split(separator: " ").map(String.init) {
                    let surface = String(part)
                    if let expanded = contractions[part] {
                        result += expanded.map { Token(text: $0, surface: surface) }
                        continue
                    }
                    var bare = part
                    if bare.hasSuffix("'s") { bare.removeLast(2) }
                    bare = bare.replacingOccurrences(of: "'", with: "")
                    bare = bare.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil)
                    if let ordinal = ordinalDigits[bare] { bare = ordinal }
                    if !bare.isEmpty { result.append(Token(text: bare, surface: surface)) }
                }
            }
        }
        return result
    }

    /// "TravelTracking" → "Travel Tracking"; "iPhone" and "McCarthy" stay whole (a capital after a
    /// single lower-case letter, or after "Mc", does not start a word).
    static func splitCamelCase(_ text: String) -> String {
        var output = ""
        var previous: Character?
        var wordStart = output.startIndex
        for character in text {
            if let previous, previous.isLowercase, character.isUppercase {
                let word = output[wordStart...]
                let lettersSoFar = word.filter(\.isLetter).count
                if lettersSoFar > 2 { output.append(" ") }
            }
            if character.isWhitespace { wordStart = output.endIndex }
            output.append(character)
            if character.isWhitespace { wordStart = output.endIndex }
            previous = character
        }
        return output
    }

    /// Replaces runs of number words with one digit token: "twenty three" → "23".
    static func mergeNumbers(_ words: [Token]) -> [Token] {
        var result: [Token] = []
        var index = 0
        while index < words.count {
            if let (value, length) = longestNumber(in: words, from: index) {
                let surface = words[index..<(index + length)].map(\.surface).joined(separator: " ")
                result.append(Token(text: format(value), surface: surface))
                index += length
            } else {
                result.append(words[index])
                index += 1
            }
        }
        return result
    }

    private static let numberWords = SpokenNumber.numberWords

    private static func longestNumber(in words: [Token], from start: Int) -> (Double, Int)? {
        let first = words[start].text
        if let value = Double(first) { return (value, 1) }
        guard numberWords.contains(first), first != "and", first != "point" else { return nil }
        var end = start
        while end < words.count, numberWords.contains(words[end].text) || Double(words[end].text) != nil {
            end += 1
        }
        // The longest run that reads as a number, so "one of" keeps "of", and a lone "a" is an article.
        var length = end - start
        while length > 0 {
            let phrase = words[start..<(start + length)].map(\.text).joined(separator: " ")
            let isArticle = length == 1 && (first == "a" || first == "an")
            let trailing = words[start + length - 1].text
            if !isArticle, trailing != "and", trailing != "point", let value = SpokenNumber.parse(phrase) {
                return (value, length)
            }
            length -= 1
        }
        return nil
    }

    static func format(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
