import VoiceIntents

/// Where a phrase was declared: in Swift, or at a line of a catalog file.
public struct PhraseSource: Sendable, Hashable, CustomStringConvertible {
    /// The catalog file, or `nil` for a phrase declared in Swift.
    public let file: String?
    public let line: Int
    public let column: Int

    public static let swift = PhraseSource(file: nil, line: 0, column: 0)

    public init(file: String?, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column`, or "Swift".
    public var description: String {
        file.map { "\($0):\(line):\(column)" } ?? "Swift"
    }
}

/// A value a sentence gave a placeholder.
public struct MatchedValue: Sendable, CustomStringConvertible {
    /// The words that stood for it, as said.
    public let words: String
    /// The value's title ("Kinkaku-ji") when the words name a known value; `nil` when they name
    /// none, or several that the runtime must tell apart.
    public let title: String?
    /// The value itself, when known.
    public let value: (any Sendable)?

    /// Whether the words name a value (or candidates the runtime can ask about).
    public let isKnown: Bool
    /// Whether the value is the words themselves: a free-text parameter's.
    package internal(set) var isFreeText = false

    /// What to hand ``IntentRunner``: the value when known, otherwise the words to resolve.
    public var runnerValue: any Sendable { value ?? words }

    public var description: String { title ?? "\"\(words)\"" }
}

/// One way a sentence fits a phrase.
public struct PhraseMatch: Sendable, CustomStringConvertible {
    /// The shortcut reached, as its position in the app's shortcuts.
    public let shortcutIndex: Int
    /// The intent's identifier.
    public let intent: String
    /// The phrase, as written.
    public let phrase: String
    /// Where the phrase was declared.
    public let source: PhraseSource
    /// The values the sentence gave, by parameter name.
    public internal(set) var values: [String: MatchedValue]
    /// Placeholders of the phrase that the sentence did not fill: the runtime asks for them.
    public internal(set) var missing: [String]
    /// Placeholders filled with words that name no known value: the runtime asks about them.
    public internal(set) var unknown: [String]
    /// How well the sentence fits, from 0 to 1 (1: word for word).
    public internal(set) var score: Double
    /// How many words of the sentence matched written words of the phrase; among near-equal
    /// readings, the one that matched more written words is the more specific.
    public let matchedWords: Int
    /// What was forgiven: "ignored "uh"", "assumed "in"", "heard "pichu" as Picchu".
    public internal(set) var explanation: [String]
    /// Values the sentence gave that were taken back after matching, by parameter, with why
    /// (""uluru" fits the sound 40 per frame worse than the rest"): they are among ``missing``.
    public internal(set) var takenBack: [String: String] = [:]

    /// Whether the runtime will have to ask for a value.
    public var isPartial: Bool { !missing.isEmpty || !unknown.isEmpty }

    /// The values to hand ``IntentRunner``: known values, and words for unknown ones.
    public var runnerParameters: [String: any Sendable] {
        values.mapValues(\.runnerValue)
    }

    public var description: String {
        let shown = values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        return "\(intent)(\(shown.joined(separator: ", "))) \(String(format: "%.2f", score))"
    }

    /// Whether `other` asks for the same thing: the same intent with the same values (a known
    /// value by its title, words that name none by their normalised words), whatever phrase or
    /// words reached it ("add apples to my list", "put apples on my list").
    package func asksTheSame(as other: PhraseMatch) -> Bool {
        func named(_ values: [String: MatchedValue]) -> [String: String] {
            values.mapValues { TextNormalizer.key($0.title ?? $0.words) }
        }
        return intent == other.intent && named(values) == named(other.values)
    }

    /// The same match with `parameter`'s value taken back, as if it had not been said: the
    /// runtime asks for it. `why` is kept in ``takenBack``.
    package func withoutValue(_ parameter: String, because why: String) -> PhraseMatch {
        guard values[parameter] != nil else { return self }
        var match = self
        match.values[parameter] = nil
        match.unknown.removeAll { $0 == parameter }
        if !match.missing.contains(parameter) { match.missing.append(parameter) }
        match.takenBack[parameter] = why
        return match
    }
}

/// What the matcher made of a sentence.
public struct MatchResult: Sendable {
    /// The sentence, normalised.
    public let tokens: [Token]
    /// The match to act on: the best candidate at or above the threshold, unless the match is
    /// ambiguous or a negative phrase fits as well.
    public let best: PhraseMatch?
    /// Every candidate considered, best first (runners-up included).
    public let candidates: [PhraseMatch]
    /// Whether two different commands fit almost equally well; ``best`` is `nil` then.
    public let isAmbiguous: Bool
    /// The negative phrase that the sentence fits, when that is why there is no match.
    public let negativePhrase: String?
    /// For a sentence that matches nothing: sentences it may have meant.
    public let suggestions: [String]

    /// The same result with `best` changed (the candidate it was, too).
    package func replacingBest(with match: PhraseMatch) -> MatchResult {
        guard let best else { return self }
        var candidates = candidates
        if let index = candidates.firstIndex(where: {
            $0.shortcutIndex == best.shortcutIndex && $0.phrase == best.phrase
        }) {
            candidates[index] = match
        }
        return MatchResult(
            tokens: tokens, best: match, candidates: candidates, isAmbiguous: isAmbiguous,
            negativePhrase: negativePhrase, suggestions: suggestions)
    }
}
