import Foundation

/// Numbers as people say or type them: "23", "twenty three", "a dozen", "two point five", "third".
///
/// ```swift
/// SpokenNumber.parse("twenty three")   // 23
/// SpokenNumber.parse("a dozen")        // 12
/// ```
public enum SpokenNumber {
    static let units: [String: Int] = [
        "zero": 0, "one": 1, "a": 1, "an": 1, "two": 2, "three": 3, "four": 4, "five": 5,
        "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
        "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17,
        "eighteen": 18, "nineteen": 19, "dozen": 12, "couple": 2,
    ]
    static let tens: [String: Int] = [
        "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
        "eighty": 80, "ninety": 90,
    ]
    static let ordinals: [String: Int] = [
        "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
        "eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "last": -1,
    ]

    /// Every word that can be part of a spoken number ("one" … "ninety", "hundred", "dozen",
    /// "point", "and", "a"), for tokenizers that group them; a fraction after a number ("and a
    /// half", ``fractionTails``) is read with it.
    public static var numberWords: Set<String> {
        Set(units.keys).union(tens.keys).union(["hundred", "thousand", "million", "point", "and"])
    }

    /// The number that `text` says, or `nil` when it is not a number.
    ///
    /// - Parameter text: Digits ("2.5", "1,000") or English number words up to the millions.
    public static func parse(_ text: String) -> Double? {
        let cleaned = text.lowercased().trimmingCharacters(in: .whitespacesAndNewlines)
            .replacingOccurrences(of: ",", with: "")
        if let number = Double(cleaned) { return number }
        return value(ofWords: cleaned.split(whereSeparator: { $0 == " " || $0 == "-" }).map(String.init))
    }

    /// What a fraction said after a whole number adds to it ("two and a half" is 2.5), with the
    /// words that say it.
    package static let fractionTails: [(words: [String], value: Double)] = [
        (["and", "a", "half"], 0.5), (["and", "one", "half"], 0.5), (["and", "a", "quarter"], 0.25),
        (["and", "one", "quarter"], 0.25), (["and", "three", "quarters"], 0.75),
    ]

    /// The fraction `words` say from `index` on ("and a half"), and how many words it takes.
    package static func fractionTail(_ words: some RandomAccessCollection<String>, at index: Int) -> (
        value: Double, length: Int
    )? {
        for tail in fractionTails where words.count - index >= tail.words.count {
            let start = words.index(words.startIndex, offsetBy: index)
            if zip(words[start...], tail.words).allSatisfy({ $0 == $1 }) {
                return (tail.value, tail.words.count)
            }
        }
        return nil
    }

    /// The number that normalised number words say ("twenty", "three"), or `nil`: ``parse(_:)``
    /// without its cleaning, for tokenizers whose words are clean already.
    package static func value(ofWords spoken: [String]) -> Double? {
        // "seventy two and a half": the whole number, and the fraction after it.
        for index in spoken.indices.dropFirst() where spoken[index] == "and" {
            if let tail = fractionTail(spoken, at: index), index + tail.length == spoken.count,
                let whole = value(ofWords: Array(spoken[..<index])), whole.rounded() == whole
            {
                return whole + tail.value
            }
        }
        var words = spoken.filter { $0 != "and" }
        guard !words.isEmpty else { return nil }
        var fraction: Double = 0
        if let point = words.firstIndex(of: "point") {
            let digits = words[(point + 1)...].compactMap { units[$0] }
            guard digits.count == words.count - point - 1, !digits.isEmpty else { return nil }
            for (place, digit) in digits.enumerated() {
                fraction += Double(digit) / pow(10, Double(place + 1))
            }
            words = Array(words[..<point])
        }
        guard let whole = integer(words) else { return nil }
        return Double(whole) + fraction
    }

    /// The position an ordinal names ("second" → 2, "third" → 3, "last" → -1), or `nil`.
    public static func ordinal(_ word: String) -> Int? {
        let lowered = word.lowercased()
        if let value = ordinals[lowered] { return value }
        for suffix in ["st", "nd", "rd", "th"] where lowered.hasSuffix(suffix) {
            return Int(lowered.dropLast(2))
        }
        return nil
    }

    /// The whole number `words` say. Words that add up as a number is said ("twenty five", "one
    /// hundred and twelve") make one group; a word that cannot add to the group before it starts
    /// another, and the groups are read one after the other, as digit strings and years are said:
    /// "one two three" is 123, "nineteen eighty four" 1984, "twenty twenty" 2020.
    private static func integer(_ words: [String]) -> Int? {
        var groups: [String] = []
        var total = 0
        var current = 0
        // What the group so far can still take: a unit after a tens word or a hundred, a teen or
        // a tens word after a hundred.
        var takesUnit = false
        var takesTens = false
        var sawNumber = false
        func startGroup() {
            if sawNumber { groups.append(String(total + current)) }
            total = 0
            current = 0
            takesUnit = false
            takesTens = false
        }
        for word in words {
            if let value = units[word] {
                if (word == "dozen" || word == "couple"), current > 0 {
                    // "a dozen", "two dozen": the number before multiplies it.
                    current *= value
                    takesUnit = false
                    takesTens = false
                    sawNumber = true
                    continue
                }
                let fits = value < 10 ? takesUnit : takesTens
                if sawNumber && !fits && word != "a" && word != "an" { startGroup() }
                current += value
                takesUnit = false
                takesTens = false
                sawNumber = sawNumber || (word != "a" && word != "an")
            } else if let value = tens[word] {
                if sawNumber && !takesTens { startGroup() }
                current += value
                takesUnit = true
                takesTens = false
                sawNumber = true
            } else if word == "hundred" {
                current = max(current, 1) * 100
                takesUnit = true
                takesTens = true
                sawNumber = true
            } else if word == "thousand" || word == "million" {
                total += max(current, 1) * (word == "thousand" ? 1_000 : 1_000_000)
                current = 0
                takesUnit = true
                takesTens = true
                sawNumber = true
            } else if let digits = Int(word) {
                if sawNumber && !(digits < 10 ? takesUnit : takesTens) { startGroup() }
                current += digits
                takesUnit = false
                takesTens = false
                sawNumber = true
            } else {
                return nil
            }
        }
        guard sawNumber else { return nil }
        guard !groups.isEmpty else { return total + current }
        return Int((groups + [String(total + current)]).joined())
    }
}

/// Yes, no and cancel as people say them.
public enum SpokenAnswer {
    static let yes: Set<String> = [
        "yes", "yeah", "yep", "yup", "sure", "ok", "okay", "correct", "right", "affirmative",
        "confirm", "do it", "go ahead", "please do", "of course", "absolutely", "true", "on",
        "yes please",
    ]
    static let no: Set<String> = [
        "no", "nope", "nah", "negative", "don't", "do not", "no thanks", "no thank you", "false",
        "off", "not now",
    ]
    static let cancel: Set<String> = [
        "cancel", "never mind", "nevermind", "stop", "forget it", "abort", "quit", "exit",
    ]

    /// `true` for yes, `false` for no, `nil` when the words are neither.
    public static func yesOrNo(_ text: String) -> Bool? {
        let phrase = normalized(text)
        if yes.contains(phrase) { return true }
        if no.contains(phrase) { return false }
        return nil
    }

    /// Whether the words ask to end the conversation ("cancel", "never mind", "stop").
    public static func isCancel(_ text: String) -> Bool {
        cancel.contains(normalized(text))
    }

    /// Every word or phrase that means yes, no or cancel, for answer grammars.
    public static var yesPhrases: [String] { yes.sorted() }
    public static var noPhrases: [String] { no.sorted() }
    public static var cancelPhrases: [String] { cancel.sorted() }

    /// `text` as ``TextNormalizer`` spells words (case, accents, punctuation, contractions),
    /// with number words left as words: "the second one" keeps its "one".
    static func normalized(_ text: String) -> String {
        TextNormalizer.words(text).map(\.text).joined(separator: " ")
    }
}

/// Simple spoken dates: "today", "tomorrow", "yesterday", weekdays ("friday", "next monday"),
/// and ISO dates ("2026-11-22").
public enum SpokenDate {
    /// The start of the day that `text` names, or `nil`.
    ///
    /// - Parameters:
    ///   - text: The words.
    ///   - now: The moment "today" refers to.
    ///   - calendar: The calendar to count days in.
    public static func parse(
        _ text: String, relativeTo now: Date, calendar: Calendar = .current
    ) -> Date? {
        let phrase = SpokenAnswer.normalized(text)
        let today = calendar.startOfDay(for: now)
        switch phrase {
        case "today", "tonight": return today
        case "tomorrow": return calendar.date(byAdding: .day, value: 1, to: today)
        case "yesterday": return calendar.date(byAdding: .day, value: -1, to: today)
        default: break
        }
        let words = phrase.split(separator: " ").map(String.init).filter { $0 != "on" }
        // English words, in the Gregorian calendar's weekday order (1 = Sunday); other locales
        // come with the phrase catalogs.
        let names = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
        if let last = words.last, let index = names.firstIndex(of: last),
            words.count == 1 || (words.count == 2 && ["next", "this"].contains(words[0]))
        {
            let weekday = index + 1
            let current = calendar.component(.weekday, from: today)
            var ahead = (weekday - current + 7) % 7
            if ahead == 0 { ahead = 7 }  // "friday" said on a Friday means next week's
            return calendar.date(byAdding: .day, value: ahead, to: today)
        }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        return formatter.date(from: text.trimmingCharacters(in: .whitespaces))
    }
}
