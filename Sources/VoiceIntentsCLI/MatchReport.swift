import Foundation
import PhraseMatching
import VoiceIntents

/// How `match` prints a result: text for people, JSON for tools.
enum MatchReport {
    /// The commands a sentence joins, each as ``text(_:app:)`` reports it, numbered.
    static func text(joined parts: [MatchResult], app: AppDescription) -> String {
        var text = "\(parts.count) commands, run in order:\n"
        for (index, part) in parts.enumerated() {
            text +=
                "\(index + 1). "
                + MatchReport.text(part, app: app).replacingOccurrences(of: "\n", with: "\n   ")
            text = text.trimmingCharacters(in: .whitespaces)
            if !text.hasSuffix("\n") { text += "\n" }
        }
        return text
    }

    static func text(_ result: MatchResult, app: AppDescription) -> String {
        var lines: [String] = []
        if let best = result.best {
            lines.append(
                "\(best.intent)  score \(format(best.score))\(best.isPartial ? "  (partial: the app will ask)" : "")"
            )
            lines += details(of: best, app: app).map { "  " + $0 }
        } else if result.isAmbiguous {
            lines.append("ambiguous: two commands fit almost equally well")
        } else if let negative = result.negativePhrase {
            lines.append("no match: the sentence is a negative phrase (\"\(negative)\")")
        } else {
            lines.append("no match")
            if !result.suggestions.isEmpty {
                lines.append("did you mean:")
                lines += result.suggestions.map { "  \($0)" }
            }
        }
        let others = result.candidates.filter { $0.description != result.best?.description }
        if !others.isEmpty {
            lines.append("runners-up:")
            for candidate in others.prefix(4) {
                lines.append(
                    "  \(candidate.intent)  score \(format(candidate.score))  \"\(candidate.phrase)\"")
                lines += candidate.values.sorted { $0.key < $1.key }.map {
                    "    \(valueLine($0.key, $0.value))"
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func details(of match: PhraseMatch, app: AppDescription) -> [String] {
        var lines = ["phrase: \"\(match.phrase)\" (\(match.source))"]
        if app.shortcuts.indices.contains(match.shortcutIndex) {
            lines.insert("shortcut: \(app.shortcuts[match.shortcutIndex].shortTitle)", at: 0)
        }
        lines += match.values.sorted { $0.key < $1.key }.map { valueLine($0.key, $0.value) }
        lines += match.missing.map { name in
            match.takenBack[name].map { "\(name): taken back, \($0) (the app will ask)" }
                ?? "\(name): missing (the app will ask)"
        }
        if !match.explanation.isEmpty {
            lines.append("forgiven: \(match.explanation.joined(separator: "; "))")
        }
        return lines
    }

    private static func valueLine(_ name: String, _ value: MatchedValue) -> String {
        if let title = value.title {
            return title == value.words
                ? "\(name) = \(title)" : "\(name) = \(title)  (said \"\(value.words)\")"
        }
        return value.isKnown
            ? "\(name) = \"\(value.words)\"  (several fit: the app will ask which)"
            : "\(name) = \"\(value.words)\"  (unknown: the app will ask)"
    }

    static func format(_ score: Double) -> String { String(format: "%.2f", score) }

    struct JSONMatch: Encodable {
        let intent: String
        let shortcut: Int
        let phrase: String
        let source: String
        let score: Double
        let values: [String: JSONMatchedValue]
        let missing: [String]
        let unknown: [String]
        let explanation: [String]

        init(_ match: PhraseMatch) {
            intent = match.intent
            shortcut = match.shortcutIndex
            phrase = match.phrase
            source = match.source.description
            score = (match.score * 1000).rounded() / 1000
            values = match.values.mapValues {
                JSONMatchedValue(words: $0.words, title: $0.title, known: $0.isKnown)
            }
            missing = match.missing
            unknown = match.unknown
            explanation = match.explanation
        }
    }

    struct JSONMatchedValue: Encodable {
        let words: String
        let title: String?
        let known: Bool
    }

    struct JSONResult: Encodable {
        let sentence: String
        let tokens: [String]
        let match: JSONMatch?
        let ambiguous: Bool
        let negativePhrase: String?
        let candidates: [JSONMatch]
        let suggestions: [String]
        /// The commands the sentence joins, in order, when it is several.
        let commands: [JSONMatch]?
    }

    static func json(_ result: MatchResult, sentence: String, joined: [MatchResult]? = nil) -> String {
        let report = JSONResult(
            sentence: sentence, tokens: result.tokens.map(\.text), match: result.best.map(JSONMatch.init),
            ambiguous: result.isAmbiguous, negativePhrase: result.negativePhrase,
            candidates: result.candidates.map(JSONMatch.init), suggestions: result.suggestions,
            commands: joined?.compactMap { $0.best.map(JSONMatch.init) })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(report)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
