import Foundation

/// A word of a sentence after normalisation, with the words it came from.
public struct Token: Sendable, Hashable, CustomStringConvertible {
    /// The normalised form: lower case, no accents or punctuation, numbers as digits.
    public let text: String
    /// What was written or said ("twenty three" for the token "23").
    public let surface: String

    public var description: String { text }

    package init(text: String, surface: String) {
        self.text = text
        self.surface = surface
    }
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
/// - A per cent sign is the word: "50%" → "50 percent".
/// - Ordinals and fractions written in digits are the words: "21st" → "twenty first",
///   "1/2 an hour" → "half an hour", "1 1/2 hours" → "1 and a half hours", "3/4" and "¾" →
///   "3 quarters".
public enum TextNormalizer {
    /// The contractions undone, each with the words it stands for.
    public static let contractions: [String: [String]] = [
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

    /// The contractions written without an apostrophe.
    static let contractionsWithoutApostrophe = Set(contractions.keys.filter { !$0.contains("'") })

    /// "1st" … "99th" as words: "first", "twelfth", "twentieth", "twenty first".
    static let ordinalDigits: [String: String] = {
        let small = [
            "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
            "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth",
            "eighteenth", "nineteenth",
        ]
        let tens = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
        var result: [String: String] = [:]
        for number in 1...99 {
            let words =
                number < 20
                ? small[number - 1]
                : number % 10 == 0
                    ? String(tens[number / 10 - 2].dropLast()) + "ieth"
                    : tens[number / 10 - 2] + " " + small[number % 10 - 1]
            let suffix =
                (11...13).contains(number % 100) ? "th" : ["th", "st", "nd", "rd", "th"][min(number % 10, 4)]
            result["\(number)\(suffix)"] = words
        }
        return result
    }()

    /// The fractions written in digits or as one character that read as words, by denominator:
    /// one of them, and more than one.
    static let fractionWords: [Int: (one: String, more: String)] = [
        2: ("half", "halves"), 3: ("third", "thirds"), 4: ("quarter", "quarters"),
    ]
    static let fractionCharacters: [Character: (Int, Int)] = [
        "½": (1, 2), "⅓": (1, 3), "⅔": (2, 3), "¼": (1, 4), "¾": (3, 4),
    ]

    /// `text` with its fractions in words: "1/2" → "half", "3/4" → "3 quarters", and after a
    /// whole number "1 1/2" → "1 and a half". Other fractions ("5/8") and dates ("12/25/2026")
    /// are left as they are.
    static func spellingFractions(_ text: String) -> String {
        // One character fractions become digits first: "1½" is "1 1/2".
        let characters = text.flatMap { character -> [Character] in
            guard let (numerator, denominator) = fractionCharacters[character] else { return [character] }
            return Array(" \(numerator)/\(denominator) ")
        }
        var output = ""
        var index = 0
        while index < characters.count {
            let character = characters[index]
            guard character == "/" else {
                output.append(character)
                index += 1
                continue
            }
            var end = index + 1
            while end < characters.count, characters[end].isASCII, characters[end].isNumber { end += 1 }
            let start = output.reversed().prefix { $0.isASCII && $0.isNumber }.count
            let before = start > 0 ? output.index(output.endIndex, offsetBy: -start) : output.endIndex
            // Part of a date ("12/25/2026") or of a word ("x1/2") is no fraction.
            let precedingSlash =
                before > output.startIndex
                && (output[output.index(before: before)] == "/"
                    || output[output.index(before: before)].isLetter)
            let followingSlash =
                end < characters.count && (characters[end] == "/" || characters[end].isLetter)
            guard start > 0, end > index + 1, !precedingSlash, !followingSlash,
                let numerator = Int(output[before...]),
                let denominator = Int(String(characters[(index + 1)..<end])),
                let words = fractionWords[denominator], numerator > 0, numerator < denominator
            else {
                output.append(character)
                index += 1
                continue
            }
            output.removeSubrange(before...)
            // "1 1/2": a whole number before it adds the fraction.
            let trimmed = output.reversed().drop { $0 == " " }
            let afterWhole = trimmed.first.map { $0.isASCII && $0.isNumber } ?? false
            let spoken = numerator == 1 ? words.one : "\(numerator) \(words.more)"
            output += afterWhole ? "and a \(spoken)" : spoken
            index = end
        }
        return output
    }

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
    package static func words(_ text: String) -> [Token] {
        var text = text
        var isASCII = text.utf8.allSatisfy { $0 < 0x80 }
        if text.utf8.contains(0x2F) || !isASCII && text.contains(where: { fractionCharacters[$0] != nil }) {
            text = spellingFractions(text)
            isASCII = text.utf8.allSatisfy { $0 < 0x80 }
        }
        return isASCII ? asciiWords(text) : unicodeWords(text)
    }

    /// The same rules on plain ASCII text, byte by byte: most sentences, and an order of
    /// magnitude faster than working on `Character`s.
    static func asciiWords(_ text: String) -> [Token] {
        var result: [Token] = []
        result.reserveCapacity(16)
        var lowered: [UInt8] = []
        var surface: [UInt8] = []
        var letters = 0
        var previousLower = false

        func flush() {
            defer {
                lowered.removeAll(keepingCapacity: true)
                surface.removeAll(keepingCapacity: true)
                letters = 0
                previousLower = false
            }
            guard !lowered.isEmpty else { return }
            let word = String(decoding: lowered, as: UTF8.self)
            let shown = String(decoding: surface, as: UTF8.self)
            if lowered.contains(0x2E), Double(word) == nil {  // a full stop outside a number separates
                for part in word.split(separator: ".") { append(String(part), shown) }
            } else {
                append(word, shown)
            }
        }

        func append(_ word: String, _ shown: String) {
            // Only a word with an apostrophe, or one of the few written together, can be a
            // contraction, and only one that starts with a digit an ordinal: most words skip both
            // look-ups.
            let hasApostrophe = word.utf8.contains(0x27)
            if hasApostrophe || contractionsWithoutApostrophe.contains(word),
                let expanded = contractions[word]
            {
                result += expanded.map { Token(text: $0, surface: shown) }
                return
            }
            var bare = word
            if hasApostrophe {
                if bare.hasSuffix("'s") { bare.removeLast(2) }
                bare.removeAll { $0 == "'" }
            }
            if let first = bare.utf8.first, first >= 0x30 && first <= 0x39, let ordinal = ordinalDigits[bare]
            {
                result += ordinal.split(separator: " ").map { Token(text: String($0), surface: shown) }
                return
            }
            if !bare.isEmpty { result.append(Token(text: bare, surface: shown)) }
        }

        let bytes = Array(text.utf8)
        for (index, byte) in bytes.enumerated() {
            // "1,000": a comma between digits groups thousands.
            if byte == 0x2C, let last = lowered.last, last >= 0x30 && last <= 0x39, index + 1 < bytes.count,
                bytes[index + 1] >= 0x30 && bytes[index + 1] <= 0x39
            {
                surface.append(byte)
                continue
            }
            let isUpper = byte >= 0x41 && byte <= 0x5A
            let isLower = byte >= 0x61 && byte <= 0x7A
            let isDigit = byte >= 0x30 && byte <= 0x39
            if isUpper || isLower || isDigit || byte == 0x27 || byte == 0x2E {
                // "TravelTracking": a capital after a word of three letters or more starts another.
                if isUpper, previousLower, letters > 2 { flush() }
                lowered.append(isUpper ? byte + 32 : byte)
                surface.append(byte)
                if isUpper || isLower { letters += 1 }
                previousLower = isLower
            } else {
                flush()
                if byte == 0x25 { result.append(Token(text: "percent", surface: "%")) }  // "50%"
            }
        }
        flush()
        return result
    }

    static func unicodeWords(_ text: String) -> [Token] {
        var result: [Token] = []
        result.reserveCapacity(16)
        let spaced = text.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) ? splitCamelCase(text) : text
        for raw in spaced.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }) {
            var piece = ""
            var pieces: [String] = []
            for character in raw {
                if character.isLetter || character.isNumber || character == "'" || character == "’"
                    || character == "."
                {
                    piece.append(character == "’" ? "'" : character)
                } else {
                    if !piece.isEmpty { pieces.append(piece) }
                    piece = ""
                    if character == "%" { pieces.append("percent") }
                }
            }
            if !piece.isEmpty { pieces.append(piece) }
            for piece in pieces {
                let lowered = piece.lowercased()
                // A full stop belongs to a decimal number ("2.5"), nowhere else.
                let parts =
                    lowered.contains(".") && Double(lowered) == nil
                    ? lowered.split(separator: ".").map(String.init) : [lowered]
                for part in parts where !part.isEmpty {
                    if let expanded = contractions[part] {
                        result += expanded.map { Token(text: $0, surface: piece) }
                        continue
                    }
                    var bare = part
                    if bare.contains("'") {
                        if bare.hasSuffix("'s") { bare.removeLast(2) }
                        bare.removeAll { $0 == "'" }
                    }
                    if !bare.utf8.allSatisfy({ $0 < 0x80 }) {
                        bare = bare.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil)
                    }
                    if let ordinal = ordinalDigits[bare] {
                        result += ordinal.split(separator: " ").map {
                            Token(text: String($0), surface: piece)
                        }
                        continue
                    }
                    if !bare.isEmpty { result.append(Token(text: bare, surface: piece)) }
                }
            }
        }
        return result
    }

    /// "TravelTracking" → "Travel Tracking"; "iPhone" and "McCarthy" stay whole (a capital after
    /// one or two letters does not start a word).
    static func splitCamelCase(_ text: String) -> String {
        var output = ""
        var previous: Character?
        var lettersInWord = 0
        for character in text {
            if let previous, previous.isLowercase, character.isUppercase, lettersInWord > 2 {
                output.append(" ")
                lettersInWord = 0
            }
            lettersInWord = character.isWhitespace ? 0 : lettersInWord + (character.isLetter ? 1 : 0)
            output.append(character)
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
    private static let multipliers: Set<String> = ["dozen", "couple", "hundred", "thousand", "million"]

    private static func longestNumber(in words: [Token], from start: Int) -> (Double, Int)? {
        let first = words[start].text
        if let byte = first.utf8.first, byte >= 0x30 && byte <= 0x39 || byte == 0x2E {
            guard let value = Double(first) else { return nil }
            // "2 and a half"
            if value.rounded() == value,
                let tail = SpokenNumber.fractionTail(words.lazy.map(\.text), at: start + 1)
            {
                return (value + tail.value, 1 + tail.length)
            }
            return (value, 1)
        }
        guard numberWords.contains(first), first != "and", first != "point" else { return nil }
        // "a" is a number only as in "a dozen" or "a hundred": "a two shot latte" is two shots.
        if first == "a" || first == "an" {
            guard start + 1 < words.count, multipliers.contains(words[start + 1].text) else { return nil }
        }
        var end = start + 1
        while end < words.count, words[end].text != "a", words[end].text != "an",
            numberWords.contains(words[end].text)
        {
            end += 1
        }
        // A fraction after the whole number ("two and a half", "one and three quarters").
        // Read in place: this runs at every word that may start a number.
        let texts = words.lazy.map(\.text)
        for index in (start + 1)..<min(end + 1, texts.count) where texts[index] == "and" {
            if let tail = SpokenNumber.fractionTail(texts, at: index),
                let whole = SpokenNumber.value(ofWords: Array(texts[start..<index])), whole.rounded() == whole
            {
                return (whole + tail.value, index - start + tail.length)
            }
        }
        // The longest run that reads as a number, so "one of" keeps "of", and a lone "a" is an article.
        var length = end - start
        while length > 0 {
            let isArticle = length == 1 && (first == "a" || first == "an")
            let trailing = words[start + length - 1].text
            if !isArticle, trailing != "and", trailing != "point",
                let value = SpokenNumber.value(ofWords: words[start..<(start + length)].map(\.text))
            {
                return (value, length)
            }
            length -= 1
        }
        return nil
    }

    package static func format(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
