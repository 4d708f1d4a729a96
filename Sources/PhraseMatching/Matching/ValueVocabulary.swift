import Foundation
import VoiceIntents

/// The words that can fill one kind of placeholder, compiled for fast look-up.
///
/// Closed sets (enum cases, suggested entities) are a dictionary from normalised name to values;
/// a name heard one letter off is found through the sentence's ``SpelledWords``, which the
/// matcher's ``Spellings`` makes for every vocabulary at once. Numbers, yes/no, dates and free
/// text are recognised by form.
final class ValueVocabulary: Sendable {
    enum Form: Sendable {
        case names
        case integer
        case decimal
        case boolean
        case date
        case text
        case url
    }

    struct Entry: Sendable {
        let title: String
        let value: any Sendable
    }

    /// A way to fill a placeholder from words of the sentence.
    struct Fill: Sendable {
        let length: Int
        /// The value's title, or `nil` when the words name no known value.
        let title: String?
        let value: (any Sendable)?
        let cost: Float
        let note: String?
        /// Whether the value is the words themselves, as said (free text): its title and value
        /// are made from them only for the fill that is chosen.
        var isTheWords = false

        /// Free text of `length` words.
        static func words(length: Int, cost: Float) -> Fill {
            var fill = Fill(length: length, title: nil, value: nil, cost: cost, note: nil)
            fill.isTheWords = true
            return fill
        }
    }

    let form: Form
    /// The type of the values (`LandmarkEntity`, `Int`).
    let valueType: IntentValueType
    /// Whether words outside the known names may still name a value (checked after matching).
    let isOpen: Bool
    private let names: [String: [Int]]
    let entries: [Entry]
    let nameTokens: [[String]]
    /// A vocabulary word → the names that contain it.
    private let namesByWord: [String: [Int]]
    /// A name's first word → the names that begin with it.
    let namesByFirstWord: [String: [Int]]
    /// The keys of `names`, sorted, to tell whether a longer name begins with some words.
    private let sortedKeys: [String]
    let longestName: Int

    /// Words that stand for a number ("max" → 100), by their normalised words.
    private let numberWords: [String: Entry]
    /// The most words a number word has.
    private let longestNumberWord: Int

    /// The words that stand for numbers, as normalised words, for grammars.
    var numberWordTokens: [[String]] {
        numberWords.keys.sorted().map { $0.split(separator: " ").map(String.init) }
    }

    /// The numbers a parameter declared with `inclusiveRange:` takes; others fill nothing.
    let bounds: ClosedRange<Double>?

    init(
        valueType: IntentValueType, isOpen: Bool, values: [NamedValue], numberWords: [String: Entry] = [:],
        bounds: ClosedRange<Double>? = nil
    ) {
        self.numberWords = numberWords
        self.bounds = bounds
        self.longestNumberWord = numberWords.keys.map { $0.split(separator: " ").count }.max() ?? 0
        switch valueType.kind {
        case .enumeration, .entity: form = .names
        case .integer: form = .integer
        case .decimal: form = .decimal
        case .boolean: form = .boolean
        case .date: form = .date
        case .url: form = .url
        case .string: form = .text
        }
        self.valueType = valueType
        self.isOpen = isOpen
        var names: [String: [Int]] = [:]
        var entries: [Entry] = []
        var nameTokens: [[String]] = []
        var namesByWord: [String: [Int]] = [:]
        var owners: [Int] = []
        for value in values {
            let entry = entries.count
            entries.append(Entry(title: value.title, value: value.value))
            for name in value.names {
                let tokens = TextNormalizer.tokens(name).map(\.text)
                guard !tokens.isEmpty else { continue }
                for key in Self.keys(of: tokens) where !(names[key]?.contains(entry) ?? false) {
                    names[key, default: []].append(entry)
                }
                let nameIndex = nameTokens.count
                nameTokens.append(tokens)
                owners.append(entry)
                for word in Set(tokens) { namesByWord[word, default: []].append(nameIndex) }
            }
        }
        self.names = names
        self.entries = entries
        self.nameTokens = nameTokens
        self.namesByWord = namesByWord
        namesByFirstWord = Dictionary(grouping: nameTokens.indices, by: { nameTokens[$0][0] })
        var turned: [String: [(name: Int, split: Int)]] = [:]
        for (name, tokens) in nameTokens.enumerated() where tokens.count > 1 {
            for split in 1..<tokens.count { turned[tokens[split], default: []].append((name, split)) }
        }
        turnedNamesByFirstWord = turned
        sortedKeys = names.keys.sorted()
        self.longestName = nameTokens.map(\.count).max() ?? 0
        self.nameOwners = owners
    }

    /// The entry each name belongs to.
    let nameOwners: [Int]

    /// A name of several words said the other way round: the word that then comes first → the
    /// names, and where each is split ("blinds" → "living room blinds" split before "blinds").
    let turnedNamesByFirstWord: [String: [(name: Int, split: Int)]]

    /// The words that join a name said the other way round: "the blinds in the living room" for
    /// Living Room Blinds.
    static let turnedNameJoints: [[String]] = [
        ["in", "the"], ["on", "the"], ["of", "the"], ["at", "the"], ["in"], ["on"], ["of"], ["at"],
    ]
    private static let turnedNameJointWords = Set(turnedNameJoints.joined())

    /// What a name said the other way round costs: a listener understands it, but a name said as
    /// it is named fits better.
    static let turnedNameCost: Float = 0.5

    /// A name's keys: its words, and also written together ("travel tracking" → "traveltracking").
    static func keys(of tokens: [String]) -> [String] {
        let spaced = tokens.joined(separator: " ")
        return tokens.count > 1 ? [spaced, tokens.joined()] : [spaced]
    }

    /// `word` with one letter left out, in each place. Words of ASCII letters (nearly all) are
    /// cut byte by byte, without splitting them into characters.
    static func deletionVariants(of word: String) -> [String] {
        let bytes = Array(word.utf8)
        guard bytes.allSatisfy({ $0 < 0x80 }) else {
            let characters = Array(word)
            return characters.indices.map { index in
                var copy = characters
                copy.remove(at: index)
                return String(copy)
            }
        }
        return bytes.indices.map { left in
            String(unsafeUninitializedCapacity: bytes.count - 1) { buffer in
                var next = 0
                for index in bytes.indices where index != left {
                    buffer[next] = bytes[index]
                    next += 1
                }
                return next
            }
        }
    }

    /// Every known name, as its normalised words.
    var nameWords: [[String]] { nameTokens }

    /// Each known value's title and names (the title first, then its synonyms), as normalised
    /// words.
    var namesByValue: [(title: String, names: [[String]])] {
        var names = Array(repeating: [[String]](), count: entries.count)
        for (index, tokens) in nameTokens.enumerated() { names[nameOwners[index]].append(tokens) }
        return zip(entries, names).map { ($0.title, $1) }
    }

    /// A value to put in example sentences: the first known name, or one of the right form.
    var example: String {
        switch form {
        case .names: entries.first?.title ?? "something"
        case .integer: "2"
        case .decimal: "2.5"
        case .boolean: "yes"
        case .date: "tomorrow"
        case .text: "something"
        case .url: "https://example.com"
        }
    }

    /// The longest span a placeholder of this vocabulary may take.
    var maximumSpan: Int {
        switch form {
        case .names: max(longestName + 1, isOpen ? 5 : 1)
        case .integer, .decimal, .boolean, .url: 1
        case .date: 2
        case .text: 8
        }
    }

    /// The ways the sentence's words can fill this placeholder, from each position.
    func fillsFromEveryPosition(_ words: SpelledWords) -> [[Fill]] {
        words.tokens.indices.map { fills(words, from: $0) }
    }

    private func fills(_ words: SpelledWords, from start: Int) -> [Fill] {
        let all = unboundedFills(words, from: start)
        guard let bounds, form == .integer || form == .decimal else { return all }
        return all.filter { fill in
            switch fill.value {
            case let value as Int: bounds.contains(Double(value))
            case let value as Double: bounds.contains(value)
            default: true
            }
        }
    }

    private func unboundedFills(_ words: SpelledWords, from start: Int) -> [Fill] {
        let tokens = words.tokens
        let available = tokens.count - start
        guard available > 0 else { return [] }
        switch form {
        case .names:
            return nameFills(words, from: start)
        case .integer:
            guard let number = Double(tokens[start].text), number.rounded() == number,
                let integer = Int(exactly: number)
            else { return numberWordFills(tokens, from: start) }
            return [Fill(length: 1, title: String(integer), value: integer, cost: 0, note: nil)]
        case .decimal:
            guard let number = Double(tokens[start].text) else { return numberWordFills(tokens, from: start) }
            return [Fill(length: 1, title: TextNormalizer.format(number), value: number, cost: 0, note: nil)]
        case .boolean:
            guard let answer = SpokenAnswer.yesOrNo(tokens[start].text) else { return [] }
            return [Fill(length: 1, title: answer ? "yes" : "no", value: answer, cost: 0, note: nil)]
        case .date:
            return (1...min(2, available)).compactMap { length in
                let words = tokens[start..<(start + length)].map(\.text).joined(separator: " ")
                guard let date = SpokenDate.parse(words, relativeTo: Date()) else { return nil }
                return Fill(length: length, title: date._spokenText, value: date, cost: 0, note: nil)
            }
        case .url:
            let surface = tokens[start].surface
            guard let url = URL(string: surface), url.scheme != nil else { return [] }
            return [Fill(length: 1, title: surface, value: url, cost: 0, note: nil)]
        case .text:
            // Longer free text costs a little more, so that literal words after it win.
            return (1...min(maximumSpan, available)).map { .words(length: $0, cost: 0.02 * Float($0)) }
        }
    }

    /// The number written as `text` ("100", "2.5"), as a whole number when `integer`.
    static func number(written text: String, integer: Bool) -> Entry? {
        integer
            ? Int(text).map { Entry(title: String($0), value: $0) }
            : Double(text).map { Entry(title: TextNormalizer.format($0), value: $0) }
    }

    /// The value written as `text`: a number, or a named value's title or name.
    func value(named text: String) -> Entry? {
        switch form {
        case .names:
            let tokens = TextNormalizer.tokens(text).map(\.text)
            guard !tokens.isEmpty, let entry = names[tokens.joined(separator: " ")]?.first else { return nil }
            return entries[entry]
        case .integer, .decimal:
            return Self.number(written: text, integer: form == .integer)
        case .boolean:
            return SpokenAnswer.yesOrNo(text).map { Entry(title: $0 ? "yes" : "no", value: $0) }
        case .date, .text, .url:
            return form == .text ? Entry(title: text, value: text) : nil
        }
    }

    /// The number words said from `start` ("max", "half way").
    private func numberWordFills(_ tokens: [Token], from start: Int) -> [Fill] {
        guard longestNumberWord > 0 else { return [] }
        var fills: [Fill] = []
        var key = ""
        for length in 1...min(longestNumberWord, tokens.count - start) {
            key += (length > 1 ? " " : "") + tokens[start + length - 1].text
            if let entry = numberWords[key] {
                fills.append(Fill(length: length, title: entry.title, value: entry.value, cost: 0, note: nil))
            }
        }
        return fills
    }

    /// Whether `word` may be part of a value of this vocabulary's names: a word of a name, a
    /// name said as one word, or a word one letter off a name's word. Every word a name fill
    /// covers passes; words that pass may still fit no name. `closeNameWords` are the names'
    /// words one letter off `word` (``SpelledWords/closeNameWords``).
    func mayBePartOfAName(_ word: String, closeNameWords: [String]) -> Bool {
        namesByWord[word] != nil || names[word] != nil || closeNameWords.contains { namesByWord[$0] != nil }
            || (!turnedNamesByFirstWord.isEmpty && Self.turnedNameJointWords.contains(word))
    }

    /// Every word of a name, for ``Spellings``.
    var nameWordSet: Dictionary<String, [Int]>.Keys { namesByWord.keys }

    private func nameFills(_ words: SpelledWords, from start: Int) -> [Fill] {
        let tokens = words.tokens
        var fills: [Fill] = []
        let limit = min(longestName, tokens.count - start)
        guard limit > 0 else { return [] }
        var key = ""
        var joined = ""
        for length in 1...limit {
            let word = tokens[start + length - 1].text
            key += (length > 1 ? " " : "") + word
            joined += word
            // Said as the name, or (for names of several words) as one word.
            for entry in names[key] ?? (length > 1 ? names[joined] : nil) ?? [] {
                fills.append(
                    Fill(
                        length: length, title: entries[entry].title, value: entries[entry].value, cost: 0,
                        note: nil))
            }
            // No longer name begins with these words, spaced or run together.
            guard length < limit, someKey(startsWith: key + " ") || someKey(startsWith: joined) else { break }
        }
        if fills.isEmpty { fills = nearMisses(words, from: start) }
        return fills + turnedNames(tokens, from: start)
    }

    /// Whether some key of `names` starts with `prefix` (or is it).
    private func someKey(startsWith prefix: String) -> Bool {
        var low = 0
        var high = sortedKeys.count
        while low < high {
            let middle = (low + high) / 2
            if sortedKeys[middle] < prefix { low = middle + 1 } else { high = middle }
        }
        return low < sortedKeys.count && sortedKeys[low].hasPrefix(prefix)
    }
}
