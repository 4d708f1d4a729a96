import Foundation
import VoiceIntents

/// Decides which shortcut a sentence reaches, with which values, and how sure that is.
///
/// ```swift
/// let matcher = try await PhraseMatcher(app: AppDescription(TravelTrackingApp.self), catalog: catalog)
/// let result = await matcher.match("uh find two tickets for machu pichu in travel tracking")
/// result.best?.intent      // "FindTicketsIntent"
/// result.best?.values      // ["ticketCount": 2, "landmark": Machu Picchu]
/// ```
///
/// Every phrase (declared in Swift or in the catalog) is compiled once into a small graph, and
/// every placeholder's values into a vocabulary shared by all phrases that use its type. A
/// sentence is compared only with the phrases that share its rarer words, so the cost of a match
/// grows with the phrases that could fit, not with all phrases times all values.
public final class PhraseMatcher: Sendable {
    struct CompiledPhrase: Sendable {
        let shortcut: Int?
        let intent: String?
        let pattern: PhrasePattern
        let source: PhraseSource
        let graph: PhraseGraph
        let slots: [String: Int]
        /// Words that must be heard (see ``PhraseGraph/anchors(around:)``).
        let anchors: Set<[Int]>
    }

    /// An error in a catalog against the app's declarations.
    public struct CompileError: Error, Sendable, CustomStringConvertible {
        public let source: PhraseSource
        public let message: String

        public var description: String { "\(source): error: \(message)" }
    }

    public let app: AppDescription
    /// The lowest score acted on.
    public let threshold: Double
    /// Scores closer than this between different commands make a match ambiguous.
    public let ambiguityMargin: Double
    let phrases: [CompiledPhrase]
    let vocabularies: [ValueVocabulary]
    let applicationNames: [[String]]
    private let index: [String: [Int]]
    private let weights: [String: Double]
    private let unindexed: [Int]

    /// Compiles the app's phrases (Swift and catalog) and the values of their placeholders.
    ///
    /// - Parameters:
    ///   - app: The app's declaration.
    ///   - catalog: Extra phrases, names and negative phrases, if any.
    ///   - threshold: The lowest score acted on.
    ///   - ambiguityMargin: How close two different commands' scores may be before the match is
    ///     ambiguous.
    /// - Throws: ``CompileError`` for a catalog phrase whose key, intent or placeholder the app
    ///   does not declare.
    public init(
        app: AppDescription, catalog: PhraseCatalog? = nil, threshold: Double = 0.75,
        ambiguityMargin: Double = 0.03
    ) async throws {
        self.app = app
        self.threshold = threshold
        self.ambiguityMargin = ambiguityMargin
        var names = app.spokenNames
        for name in catalog?.names ?? [] where !names.contains(name) { names.append(name) }
        var spoken: [[String]] = []
        for name in names {
            let tokens = TextNormalizer.tokens(name).map(\.text)
            for variant in [tokens, tokens.count > 1 ? [tokens.joined()] : []]
            where !variant.isEmpty && !spoken.contains(variant) {
                spoken.append(variant)
            }
        }
        applicationNames = spoken

        // Vocabularies, one per value type.
        var vocabularies: [ValueVocabulary] = []
        var vocabularyOfType: [String: Int] = [:]
        var slotsOfIntent: [String: [String: Int]] = [:]
        for intent in app.intents {
            var slots: [String: Int] = [:]
            for parameter in intent.parameters {
                let key = parameter.valueType.typeName
                if vocabularyOfType[key] == nil {
                    let values = try await intent.namedValues(forParameter: parameter.name)
                    vocabularyOfType[key] = vocabularies.count
                    vocabularies.append(
                        ValueVocabulary(
                            valueType: parameter.valueType, isOpen: parameter.isOpenSet, values: values))
                }
                slots[parameter.name] = vocabularyOfType[key]
            }
            slotsOfIntent[intent.identifier] = slots
        }
        self.vocabularies = vocabularies

        // Phrases: Swift first, then the catalog's.
        var phrases: [CompiledPhrase] = []
        func add(_ pattern: PhrasePattern, shortcut: Int?, source: PhraseSource) throws(CompileError) {
            let intent = shortcut.map { app.shortcuts[$0] }.map { IntentDefinition($0.intentType).identifier }
            let slots = intent.flatMap { slotsOfIntent[$0] } ?? [:]
            for name in pattern.placeholders where slots[name] == nil {
                let owner = intent ?? "a negative phrase"
                throw CompileError(
                    source: source,
                    message: "placeholder ${\(name)} names no parameter of \(owner)"
                        + (slots.isEmpty ? "" : "; it has: \(slots.keys.sorted().joined(separator: ", "))"))
            }
            let graph = PhraseGraph(pattern)
            let freeText = Set(slots.filter { vocabularies[$0.value].form == .text }.keys)
            phrases.append(
                CompiledPhrase(
                    shortcut: shortcut, intent: intent, pattern: pattern, source: source,
                    graph: graph, slots: slots, anchors: graph.anchors(around: freeText)))
        }
        for (index, shortcut) in app.shortcuts.enumerated() where shortcut.intentType.isDiscoverable {
            for template in shortcut.phrases {
                try add(PhrasePattern(template: template), shortcut: index, source: .swift)
            }
        }
        for negative in app.negativePhrases {
            try add(PhrasePattern(template: negative), shortcut: nil, source: .swift)
        }
        for entry in catalog?.entries ?? [] {
            switch entry.target {
            case .declaredPhrase(let key):
                let wanted = TextNormalizer.key(key)
                guard
                    let shortcut = app.shortcuts.firstIndex(where: { shortcut in
                        shortcut.phrases.contains { TextNormalizer.key($0.description) == wanted }
                    })
                else {
                    throw CompileError(
                        source: entry.source, message: "no phrase declared in Swift reads \"\(key)\"")
                }
                try add(entry.pattern, shortcut: shortcut, source: entry.source)
            case .intent(let identifier):
                guard
                    let shortcut = app.shortcuts.firstIndex(where: {
                        IntentDefinition($0.intentType).identifier == identifier
                    })
                else {
                    let known = app.intents.map(\.identifier).joined(separator: ", ")
                    throw CompileError(
                        source: entry.source,
                        message: "no shortcut runs an intent \"\(identifier)\"; the app has: \(known)")
                }
                try add(entry.pattern, shortcut: shortcut, source: entry.source)
            case .negative:
                try add(entry.pattern, shortcut: nil, source: entry.source)
            }
        }
        self.phrases = phrases

        // The candidate index: word → phrases, weighted by how rare the word is.
        var index: [String: [Int]] = [:]
        var unindexed: [Int] = []
        for (id, phrase) in phrases.enumerated() {
            var words = phrase.graph.words
            if phrase.graph.usesApplicationName { words.formUnion(spoken.flatMap { $0 }) }
            if words.isEmpty { unindexed.append(id) }
            for word in words { index[word, default: []].append(id) }
        }
        let total = Double(max(phrases.count, 1))
        self.weights = index.mapValues { log(1 + total / Double($0.count)) }
        self.index = index
        self.unindexed = unindexed
    }

    /// How many phrases are compared with a sentence at most.
    static let candidateLimit = 48

    /// Matches `sentence`.
    ///
    /// - Parameters:
    ///   - sentence: What was said or typed.
    ///   - limit: How many candidates to return.
    public func match(_ sentence: String, limit: Int = 5) async -> MatchResult {
        let tokens = TextNormalizer.tokens(sentence)
        var scored = align(tokens).sorted { $0.match.score > $1.match.score }
        // Open sets (entities with a string query): ask the query about the unknown words of the
        // leading candidates now, then rank again.
        for position in scored.indices.prefix(8) where !scored[position].match.unknown.isEmpty {
            scored[position] = await resolveOpenValues(scored[position])
        }
        scored.sort { $0.match.score > $1.match.score }
        Self.preferSpecificReading(&scored)

        let negative = scored.first { $0.isNegative }
        let positives = scored.filter { !$0.isNegative }.map(\.match)
        var distinct: [PhraseMatch] = []
        for candidate in positives
        where !distinct.contains(where: {
            $0.shortcutIndex == candidate.shortcutIndex && Self.sameValues($0, candidate)
        }) {
            distinct.append(candidate)
        }
        let top = distinct.first
        var best = top.flatMap { $0.score >= threshold ? $0 : nil }
        var negativePhrase: String?
        if let negative, negative.match.score >= threshold, negative.match.score >= (top?.score ?? 0) {
            best = nil
            negativePhrase = negative.match.phrase
        }
        // Two different shortcuts fitting almost equally well is a question for the person; two
        // readings of one shortcut are settled by ranking (the more specific reading first).
        var isAmbiguous = false
        if let chosen = best,
            let rival = distinct.dropFirst().first(where: { $0.shortcutIndex != chosen.shortcutIndex }),
            abs(chosen.score - rival.score) < ambiguityMargin, rival.score >= threshold,
            chosen.matchedWords <= rival.matchedWords
        {
            isAmbiguous = true
            best = nil
        }
        let suggestions =
            best == nil && !isAmbiguous && negativePhrase == nil
            ? distinct.prefix(3).filter { $0.score > 0.2 }.map(\.phrase) : []
        return MatchResult(
            tokens: tokens, best: best, candidates: Array(distinct.prefix(limit)), isAmbiguous: isAmbiguous,
            negativePhrase: negativePhrase, suggestions: suggestions)
    }

    struct Scored {
        var match: PhraseMatch
        var isNegative: Bool
        var phrase: CompiledPhrase
        /// The alignment's cost and the length it is divided by.
        var cost: Float
        var length: Float
    }

    /// Candidate phrases: those sharing the sentence's rarer words.
    func candidates(for tokens: [Token]) -> [Int] {
        var weight: [Int: Double] = [:]
        for word in Set(tokens.map(\.text)) {
            guard let ids = index[word], let w = weights[word] else { continue }
            for id in ids { weight[id, default: 0] += w }
        }
        let ranked = weight.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        return ranked.prefix(Self.candidateLimit).map(\.key) + unindexed
    }

    func align(_ tokens: [Token]) -> [Scored] {
        var cache: [Int: [[ValueVocabulary.Fill]]] = [:]
        let vocabularies = self.vocabularies
        let fillsAt: (Int, Int) -> [ValueVocabulary.Fill] = { vocabulary, position in
            if cache[vocabulary] == nil {
                cache[vocabulary] = tokens.indices.map { vocabularies[vocabulary].fills(tokens, from: $0) }
            }
            return cache[vocabulary]![position]
        }
        let aligner = Aligner(
            tokens: tokens, applicationNames: applicationNames, fills: fillsAt,
            vocabularyIsOpen: { vocabularies[$0].isOpen },
            vocabularyTakesNames: { vocabularies[$0].form == .names })
        var results: [Scored] = []
        for id in candidates(for: tokens) {
            let phrase = phrases[id]
            guard let alignment = aligner.align(phrase.graph, slots: phrase.slots, anchors: phrase.anchors)
            else { continue }
            let length = Float(max(tokens.count, phrase.graph.minimumLength, 2))
            let score = Double(max(0, 1 - alignment.cost / length))
            results.append(
                Scored(
                    match: describe(phrase, alignment, score: score), isNegative: phrase.shortcut == nil,
                    phrase: phrase, cost: alignment.cost, length: length))
        }
        return results
    }

    private func describe(_ phrase: CompiledPhrase, _ alignment: Aligner.Result, score: Double) -> PhraseMatch
    {
        var values: [String: MatchedValue] = [:]
        var missing: [String] = []
        var unknown: [String] = []
        var notes: [String] = []
        var matchedWords = 0
        for action in alignment.actions {
            switch action {
            case .matched: matchedWords += 1
            case .extra(let token): notes.append("ignored \"\(token.surface)\"")
            case .misheard(let word, let token): notes.append("heard \"\(token.surface)\" as \"\(word)\"")
            case .swapped(let first, let second):
                notes.append("\"\(second) \(first)\" taken as \"\(first) \(second)\"")
            case .dropped(let word): notes.append("assumed \"\(word)\"")
            case .droppedApplicationName: notes.append("assumed the app name")
            case .applicationName(let fuzzy) where fuzzy: notes.append("heard the app name approximately")
            case .filled(let name, let fill, let words):
                values[name] = MatchedValue(words: words, title: fill.title, value: fill.value, isKnown: true)
                if let note = fill.note { notes.append(note) }
            case .missing(let name): missing.append(name)
            case .unknown(let name, let words):
                values[name] = MatchedValue(words: words, title: nil, value: nil, isKnown: false)
                unknown.append(name)
                notes.append("\"\(words)\" is not a known \(name)")
            default: break
            }
        }
        return PhraseMatch(
            shortcutIndex: phrase.shortcut ?? -1, intent: phrase.intent ?? "(negative)",
            phrase: phrase.pattern.text,
            source: phrase.source, values: values, missing: missing, unknown: unknown, score: score,
            matchedWords: matchedWords, explanation: notes)
    }

    /// Asks an open set's query (an ``EntityStringQuery``) about words the vocabulary did not
    /// know; words it recognises stop counting as unknown.
    private func resolveOpenValues(_ scored: Scored) async -> Scored {
        guard let intent = scored.phrase.intent, let definition = app.intent(intent) else { return scored }
        var match = scored.match
        var values = match.values
        var stillUnknown: [String] = []
        var cost = scored.cost
        for name in match.unknown {
            guard let slot = scored.phrase.slots[name], vocabularies[slot].isOpen, let said = values[name],
                let found = try? await definition.values(matching: said.words, forParameter: name),
                !found.isEmpty
            else {
                stillUnknown.append(name)
                cost += Aligner.Costs.unknownValue - Aligner.Costs.unknownOpenValue
                continue
            }
            // Several entities fit: hand the words on, and the runtime asks which one.
            let single = found.count == 1 ? found[0] : nil
            values[name] = MatchedValue(
                words: said.words, title: single?.title, value: single?.value, isKnown: true)
            // The query may match loosely (a substring, extra words): only words that are the
            // value's title take back the whole cost of an unknown value.
            if found.contains(where: { TextNormalizer.key($0.title) == TextNormalizer.key(said.words) }) {
                let length = Float(TextNormalizer.tokens(said.words).count)
                cost -= Aligner.Costs.unknownOpenValue + 0.15 * (length - 1)
            }
        }
        let resolved = Set(match.unknown).subtracting(stillUnknown)
        let notes = match.explanation.filter { note in
            !resolved.contains { name in note == "\"\(values[name]!.words)\" is not a known \(name)" }
        }
        match = PhraseMatch(
            shortcutIndex: match.shortcutIndex, intent: match.intent, phrase: match.phrase,
            source: match.source,
            values: values, missing: match.missing, unknown: stillUnknown,
            score: Double(max(0, 1 - max(cost, 0) / scored.length)), matchedWords: match.matchedWords,
            explanation: notes)
        return Scored(
            match: match, isNegative: scored.isNegative, phrase: scored.phrase, cost: cost,
            length: scored.length)
    }

    /// Among the readings that score almost the same as the leader (within 0.02), puts first the
    /// one that matched more written words: "the road by jack london" read as title and author
    /// rather than as a title containing "by"; "open the poetry shelf" as a shelf, not a book.
    static func preferSpecificReading(_ scored: inout [Scored]) {
        guard let leaderIndex = scored.firstIndex(where: { !$0.isNegative }) else { return }
        let leader = scored[leaderIndex].match
        let close = scored.indices.filter { index in
            !scored[index].isNegative && leader.score - scored[index].match.score < 0.02
        }
        guard let specific = close.max(by: { scored[$0].match.matchedWords < scored[$1].match.matchedWords }),
            scored[specific].match.matchedWords > leader.matchedWords
        else { return }
        let chosen = scored.remove(at: specific)
        scored.insert(chosen, at: leaderIndex)
    }

    static func sameValues(_ a: PhraseMatch, _ b: PhraseMatch) -> Bool {
        a.values.mapValues { $0.title ?? $0.words.lowercased() }
            == b.values.mapValues { $0.title ?? $0.words.lowercased() }
    }
}
