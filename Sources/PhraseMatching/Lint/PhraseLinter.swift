import VoiceIntents

/// A problem with an app's phrases, found without any audio.
public struct PhraseDiagnostic: Sendable, Hashable, CustomStringConvertible {
    public enum Severity: String, Sendable, Hashable {
        case warning, error
    }

    public let severity: Severity
    public let source: PhraseSource
    /// The phrase, as written.
    public let phrase: String
    public let message: String

    /// A diagnostic made by a check of its own (such as the acoustic lint of the `Speech` module).
    ///
    /// ```swift
    /// PhraseDiagnostic(severity: .warning, source: .swift, phrase: "Kyoto", message: "sounds like \"Tokyo\"")
    /// ```
    ///
    /// - Parameters:
    ///   - severity: Whether it is an error or a warning.
    ///   - source: Where the phrase (or value) was declared.
    ///   - phrase: The phrase as written, or the value's name.
    ///   - message: What is wrong, and what to do.
    public init(severity: Severity, source: PhraseSource, phrase: String, message: String) {
        self.severity = severity
        self.source = source
        self.phrase = phrase
        self.message = message
    }

    /// `file:line:column: warning: "phrase": message`, as compilers print diagnostics; phrases
    /// declared in Swift start with `Swift:`.
    public var description: String {
        "\(source): \(severity.rawValue): \"\(phrase)\": \(message)"
    }
}

extension PhraseMatcher {
    /// What of the catalog is not applied (``catalogWarnings``), then checks every phrase:
    /// - the app name: missing (Apple requires it, unless the app is not addressed by name) or
    ///   said more than once;
    /// - placeholders of a type that cannot be spoken (URL);
    /// - duplicates;
    /// - two shortcuts reachable by the same sentence (the sentence is shown);
    /// - phrases that can never win, because another shortcut takes every sentence they allow;
    /// - negative phrases that block a command;
    /// - phrases that say "and" or "then" before words that are a command of their own: a
    ///   sentence that fits them less than word for word may be read as two commands
    ///   (``matchJoined(_:context:whole:)``).
    public func lint() async -> [PhraseDiagnostic] {
        var diagnostics = catalogWarnings
        func report(_ phrase: CompiledPhrase, _ message: String) {
            diagnostics.append(
                PhraseDiagnostic(
                    severity: .warning, source: phrase.source, phrase: phrase.pattern.text, message: message))
        }

        // Phrases of the same words whose placeholders accept other names (`only:`) are no
        // duplicates.
        var seen: [[PhraseElement]: [CompiledPhrase]] = [:]
        for phrase in phrases {
            let maximum = phrase.pattern.applicationNameUse.maximum
            if phrase.shortcut != nil {
                if maximum == 0 && app.isAddressedByName {
                    report(
                        phrase,
                        "does not contain ${applicationName}; Apple requires the app name in every phrase")
                } else if maximum > 1 {
                    report(phrase, "can contain ${applicationName} \(maximum) times")
                }
            }
            for name in phrase.pattern.placeholders {
                if let slot = phrase.slots[name], vocabularies[slot].form == .url {
                    report(phrase, "${\(name)} is a URL, which cannot be spoken reliably")
                }
            }
            let said = Set(phrase.pattern.placeholders)
            if let earlier = seen[phrase.pattern.elements]?.first(where: { earlier in
                said.allSatisfy { earlier.slots[$0] == phrase.slots[$0] }
            }) {
                report(phrase, "duplicates the phrase at \(earlier.source)")
            } else {
                seen[phrase.pattern.elements, default: []].append(phrase)
            }
        }

        var collisions = Set<String>()
        for phrase in phrases {
            let sentences = examples(of: phrase)
            var wins = 0
            for sentence in sentences {
                let result = await match(sentence, limit: 8)
                guard let top = result.candidates.first else { continue }
                if phrase.shortcut == nil {
                    continue
                }
                if result.negativePhrase != nil {
                    report(
                        phrase,
                        "\"\(sentence)\" is blocked by the negative phrase \"\(result.negativePhrase!)\"")
                    continue
                }
                let ties = result.candidates.filter { top.score - $0.score < ambiguityMargin }
                if ties.contains(where: { $0.shortcutIndex == phrase.shortcut }) { wins += 1 }
                let others = ties.filter { $0.shortcutIndex != phrase.shortcut }
                for other in others {
                    let key =
                        [phrase.shortcut!, other.shortcutIndex].sorted().map(String.init).joined(
                            separator: "-") + sentence
                    guard collisions.insert(key).inserted else { continue }
                    report(
                        phrase,
                        "\"\(sentence)\" reaches both \(phrase.intent ?? "?") and \(other.intent) (\"\(other.phrase)\" at \(other.source))"
                    )
                }
            }
            if phrase.shortcut != nil, !sentences.isEmpty, wins == 0 {
                report(phrase, "can never win: every sentence it allows reaches another shortcut first")
            }
            if phrase.shortcut != nil, let (sentence, rest) = await joinerBeforeACommand(sentences) {
                report(
                    phrase,
                    "\"\(sentence)\" goes on after a joiner with a command of its own (\(rest)): said any less than word for word, it may be read as two commands"
                )
            }
        }
        return diagnostics
    }

    /// The first of `sentences` in which "and" or "then" comes before words that reach a
    /// command alone, with that command's intent.
    private func joinerBeforeACommand(_ sentences: [String]) async -> (String, String)? {
        for sentence in sentences {
            let tokens = TextNormalizer.tokens(sentence)
            for index in tokens.indices.dropLast() where Self.isJoinerWord(tokens[index]) && index > 0 {
                let rest = tokens[(index + 1)...].map(\.text).joined(separator: " ")
                if let command = await match(rest).best { return (sentence, command.intent) }
            }
        }
        return nil
    }

    /// Sentences a phrase allows, with example values: each alternative once, optional parts with
    /// and without, parts in any order in their written order.
    func examples(of phrase: CompiledPhrase, limit: Int = 12) -> [String] {
        Self.examples(of: phrase, appName: app.name, vocabularies: vocabularies, limit: limit)
    }

    static func examples(
        of phrase: CompiledPhrase, appName: String, vocabularies: [ValueVocabulary], limit: Int
    ) -> [String] {
        func expand(_ elements: [PhraseElement]) -> [[String]] {
            var sentences: [[String]] = [[]]
            for element in elements {
                let options: [[String]]
                switch element {
                case .word(let word): options = [[word]]
                case .applicationName: options = [[appName]]
                case .placeholder(let name):
                    options = [[phrase.slots[name].map { vocabularies[$0].example } ?? "something"]]
                case .optional(let inner): options = [[]] + expand(inner)
                case .alternatives(let branches): options = branches.flatMap(expand)
                case .permutation(let parts): options = expand(parts.flatMap { $0 })
                }
                sentences = sentences.flatMap { prefix in options.map { prefix + $0 } }
                if sentences.count > limit * 4 { sentences = Array(sentences.prefix(limit * 4)) }
            }
            return sentences
        }
        var unique: [String] = []
        for words in expand(phrase.pattern.elements) {
            let sentence = words.joined(separator: " ")
            if !sentence.isEmpty, !unique.contains(sentence) { unique.append(sentence) }
            if unique.count == limit { break }
        }
        return unique
    }
}
