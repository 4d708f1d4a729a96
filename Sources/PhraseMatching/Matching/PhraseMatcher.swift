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
        /// The vocabulary of each placeholder, by parameter name.
        let slots: [String: Int]
        /// The vocabulary of each of the graph's slots, in its ``PhraseGraph/slotNames`` order.
        let slotVocabularies: [Int]

        /// The vocabularies of its placeholders, each once.
        let distinctVocabularies: [Int]

        init(
            shortcut: Int?, intent: String?, pattern: PhrasePattern, source: PhraseSource, graph: PhraseGraph,
            slots: [String: Int], slotVocabularies: [Int]
        ) {
            self.shortcut = shortcut
            self.intent = intent
            self.pattern = pattern
            self.source = source
            self.graph = graph
            self.slots = slots
            self.slotVocabularies = slotVocabularies
            self.distinctVocabularies = Array(Set(slotVocabularies.filter { $0 >= 0 })).sorted()
        }
    }

    /// An error in a catalog against the app's declarations.
    public struct CompileError: Error, Sendable, CustomStringConvertible {
        public let source: PhraseSource
        public let message: String

        public var description: String { "\(source): error: \(message)" }
    }

    public let app: AppDescription
    /// The dependencies current when the matcher was made: queries asked at match time (open
    /// sets) read their `@Dependency`s from it.
    let dependencies: AppDependencyManager
    /// The lowest score acted on.
    public let threshold: Double
    /// Scores closer than this between different commands make a match ambiguous.
    public let ambiguityMargin: Double
    let phrases: [CompiledPhrase]
    let vocabularies: [ValueVocabulary]
    /// The names of the parameters that take each vocabulary's values.
    let parametersOfVocabulary: [[String]]
    /// The suggestions of free-text parameters with a `DynamicOptionsProvider`, as normalised
    /// words, by intent and parameter: what grammars offer for them (matching takes any words).
    let suggestedText: [String: [String: [[String]]]]
    let words: WordTable
    let applicationNames: [[Int32]]
    private let index: [String: [Int]]
    private let weights: [String: Double]
    private let unindexed: [Int]
    /// The phrases that have a placeholder of each vocabulary.
    private let phrasesOfVocabulary: [[Int]]

    /// Compiles the app's phrases (Swift and catalog) and the values of their placeholders.
    ///
    /// The values of enums and suggested entities, and the suggestions of free-text parameters
    /// that have a `DynamicOptionsProvider` (a book's title among the catalogue's), are asked for
    /// once, here: ``spokenForms``, and the grammars made from it, offer them as they were then.
    /// Free text still matches any words. When they change, the app calls
    /// `updateAppShortcutParameters()` and a new matcher is made.
    ///
    /// - Parameters:
    ///   - app: The app's declaration.
    ///   - catalog: Extra phrases, names and negative phrases, if any.
    ///   - threshold: The lowest score acted on.
    ///   - ambiguityMargin: How close two different commands' scores may be before the match is
    ///     ambiguous.
    /// - Throws: ``CompileError`` for a catalog phrase whose key, intent or placeholder the app
    ///   does not declare; what an entity query or an options provider throws.
    public init(
        app: AppDescription, catalog: PhraseCatalog? = nil, threshold: Double = 0.75,
        ambiguityMargin: Double = 0.03
    ) async throws {
        self.app = app
        self.dependencies = AppDependencyManager.current
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
        var table = WordTable()
        applicationNames = spoken.map { $0.map { table.id($0) } }

        // Vocabularies, one per value type.
        var vocabularies: [ValueVocabulary] = []
        var vocabularyOfType: [String: Int] = [:]
        var slotsOfIntent: [String: [String: Int]] = [:]
        var parametersOfVocabulary: [[String]] = []
        var suggestedText: [String: [String: [[String]]]] = [:]
        for intent in app.intents {
            var slots: [String: Int] = [:]
            for parameter in intent.parameters {
                if parameter.valueType.kind == .string,
                    let suggested = try await intent.suggestedValues(forParameter: parameter.name)
                {
                    var seen = Set<[String]>()
                    let names = suggested.map { TextNormalizer.tokens($0).map(\.text) }.filter {
                        !$0.isEmpty && seen.insert($0).inserted
                    }
                    if !names.isEmpty {
                        suggestedText[intent.identifier, default: [:]][parameter.name] = names
                    }
                }
                let key = parameter.valueType.typeName
                if vocabularyOfType[key] == nil {
                    let values = try await intent.namedValues(forParameter: parameter.name)
                    vocabularyOfType[key] = vocabularies.count
                    vocabularies.append(
                        ValueVocabulary(
                            valueType: parameter.valueType, isOpen: parameter.isOpenSet, values: values))
                    parametersOfVocabulary.append([])
                }
                let vocabulary = vocabularyOfType[key]!
                slots[parameter.name] = vocabulary
                if !parametersOfVocabulary[vocabulary].contains(parameter.name) {
                    parametersOfVocabulary[vocabulary].append(parameter.name)
                }
            }
            slotsOfIntent[intent.identifier] = slots
        }
        self.vocabularies = vocabularies
        self.parametersOfVocabulary = parametersOfVocabulary
        self.suggestedText = suggestedText

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
            let freeText = Set(slots.filter { vocabularies[$0.value].form == .text }.keys)
            let graph = PhraseGraph(pattern, words: &table, freeText: freeText)
            phrases.append(
                CompiledPhrase(
                    shortcut: shortcut, intent: intent, pattern: pattern, source: source, graph: graph,
                    slots: slots, slotVocabularies: graph.slotNames.map { slots[$0] ?? -1 }))
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
        self.words = table

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
        var phrasesOfVocabulary = Array(repeating: [Int](), count: vocabularies.count)
        for (id, phrase) in phrases.enumerated() {
            for vocabulary in Set(phrase.slots.values)
            where phrase.pattern.placeholders.contains(where: { phrase.slots[$0] == vocabulary }) {
                phrasesOfVocabulary[vocabulary].append(id)
            }
        }
        self.phrasesOfVocabulary = phrasesOfVocabulary
    }

    /// How many phrases are compared with a sentence at most.
    static let candidateLimit = 16
    /// Phrases whose evidence is below this share of the best phrase's are not compared.
    static let candidateShare = 0.5

    /// Matches `sentence`.
    ///
    /// - Parameters:
    ///   - sentence: What was said or typed.
    ///   - limit: How many candidates to return.
    public func match(_ sentence: String, limit: Int = 5) async -> MatchResult {
        let tokens = TextNormalizer.tokens(sentence)
        var scored = align(tokens).sorted { $0.match.score > $1.match.score }
        // Open sets (entities with a string query): ask the query about the unknown words of the
        // candidates that could still come first once their words are known, then rank again.
        let leading = scored.first { $0.match.unknown.isEmpty && !$0.isNegative }?.match.score ?? 0
        var answers: [String: [NamedValue]] = [:]
        for position in scored.indices.prefix(8) where !scored[position].match.unknown.isEmpty {
            let candidate = scored[position]
            let best = Double(max(0, 1 - max(0, candidate.cost - candidate.openRecovery) / candidate.length))
            guard best >= threshold, best >= leading - ambiguityMargin else { continue }
            scored[position] = await resolveOpenValues(candidate, answers: &answers)
        }
        scored.sort { $0.match.score > $1.match.score }
        Self.preferSpecificReading(&scored)

        let negative = scored.first { $0.isNegative }
        let positives = scored.filter { !$0.isNegative }.map(\.match)
        var distinct: [PhraseMatch] = []
        var seenReadings = Set<String>()
        for candidate in positives where seenReadings.insert(Self.reading(candidate)).inserted {
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
        // Sentences the person may have meant: an example of each leading phrase, as it can be said.
        var suggestions: [String] = []
        if best == nil, !isAmbiguous, negativePhrase == nil {
            for candidate in scored where !candidate.isNegative && candidate.match.score > 0.2 {
                guard let example = examples(of: candidate.phrase, limit: 1).first,
                    !suggestions.contains(example)
                else { continue }
                suggestions.append(example)
                if suggestions.count == 3 { break }
            }
        }
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

        /// The most the cost can fall if an open set's query knows every unknown word.
        var openRecovery: Float {
            match.unknown.compactMap { name in
                guard let words = match.values[name]?.words else { return nil }
                let length = Float(words.split(separator: " ").count)
                return Aligner.Costs.unknownOpenValue + Aligner.Costs.unknownValueExtraWord * (length - 1)
            }.reduce(0, +)
        }
    }

    /// Candidate phrases, best first: those with the most evidence in the sentence. A word the
    /// phrase uses counts by how rare it is among phrases; a word one letter off counts less; a
    /// word of a known value counts for every phrase with a placeholder for such values.
    func candidates(for sentence: Aligner.Sentence) -> [Int] {
        var weight = [Double](repeating: 0, count: phrases.count)
        var touched: [Int] = []
        func add(_ ids: [Int], _ amount: Double) {
            for id in ids {
                if weight[id] == 0 { touched.append(id) }
                weight[id] += amount
            }
        }
        var valueEvidence = [Double](repeating: 0, count: vocabularies.count)
        var seen = Set<String>()
        var common: [String] = []
        // Words in more than a quarter of the phrases ("in", "the") say little about which one
        // was meant; they count only when nothing rarer was heard.
        let commonLimit = max(64, phrases.count / 4)
        for (position, token) in sentence.tokens.enumerated() where seen.insert(token.text).inserted {
            if let ids = index[token.text], let w = weights[token.text] {
                if ids.count > commonLimit { common.append(token.text) } else { add(ids, w) }
            }
            for near in sentence.near[position] {
                let word = words.words[Int(near)]
                if let ids = index[word], let w = weights[word], ids.count <= commonLimit {
                    add(ids, 0.7 * w)
                }
            }
            for vocabulary in vocabularies.indices where vocabularies[vocabulary].knows(token.text) {
                valueEvidence[vocabulary] += 1
            }
        }
        if touched.isEmpty {
            for word in common { add(index[word] ?? [], weights[word] ?? 0) }
        }
        // A word of a known value supports the phrases the words already point to, or, when no
        // phrase word was heard, every phrase with a placeholder for such values.
        if touched.isEmpty {
            for (vocabulary, evidence) in valueEvidence.enumerated() where evidence > 0 {
                add(phrasesOfVocabulary[vocabulary], evidence)
            }
        } else if valueEvidence.contains(where: { $0 > 0 }) {
            for id in touched {
                for vocabulary in phrases[id].distinctVocabularies { weight[id] += valueEvidence[vocabulary] }
            }
        }
        // The best few, without sorting them all.
        var best: [Int] = []
        for id in touched {
            let w = weight[id]
            guard best.count < Self.candidateLimit || w > weight[best[best.count - 1]] else { continue }
            let place = best.firstIndex { w > weight[$0] || (w == weight[$0] && id < $0) } ?? best.count
            best.insert(id, at: place)
            if best.count > Self.candidateLimit { best.removeLast() }
        }
        let floor = (best.first.map { weight[$0] } ?? 0) * Self.candidateShare
        return best.filter { weight[$0] >= floor } + unindexed
    }

    func prepare(_ tokens: [Token]) -> Aligner.Sentence {
        Aligner.Sentence(tokens, table: words, applicationNames: applicationNames, vocabularies: vocabularies)
    }

    func align(_ tokens: [Token]) -> [Scored] {
        let sentence = prepare(tokens)
        return align(sentence, candidates: candidates(for: sentence))
    }

    func align(_ sentence: Aligner.Sentence, candidates: [Int]) -> [Scored] {
        let tokens = sentence.tokens
        var results: [Scored] = []
        // Candidates come best first; once one fits well, the others only matter if they come
        // close to it (runners-up, ambiguity), so their alignments may stop earlier.
        var wanted = Self.lowestUsefulScore
        for id in candidates {
            let phrase = phrases[id]
            let length = Float(max(tokens.count, phrase.graph.minimumLength, 2))
            // A phrase with unknown open values may still gain after its query answers.
            let bound = (1 - Float(wanted)) * length + Aligner.Costs.unknownOpenValue
            guard
                let alignment = Aligner.align(
                    sentence, phrase.graph, slotVocabularies: phrase.slotVocabularies, table: words,
                    bound: bound)
            else { continue }
            let score = Double(max(0, 1 - alignment.cost / length))
            if phrase.shortcut != nil { wanted = max(wanted, score - 0.15) }
            results.append(
                Scored(
                    match: describe(phrase, alignment, score: score), isNegative: phrase.shortcut == nil,
                    phrase: phrase, cost: alignment.cost, length: length))
        }
        return results
    }

    /// Candidates scoring below this are dropped (they would not even be suggestions).
    static let lowestUsefulScore = 0.2

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
    private func resolveOpenValues(_ scored: Scored, answers: inout [String: [NamedValue]]) async -> Scored {
        guard let intent = scored.phrase.intent, let definition = app.intent(intent) else { return scored }
        var match = scored.match
        var values = match.values
        var stillUnknown: [String] = []
        var cost = scored.cost
        for name in match.unknown {
            guard let slot = scored.phrase.slots[name], vocabularies[slot].isOpen, let said = values[name]
            else {
                stillUnknown.append(name)
                cost += Aligner.Costs.unknownValue - Aligner.Costs.unknownOpenValue
                continue
            }
            let question = "\(intent)\u{0}\(name)\u{0}\(said.words)"
            if answers[question] == nil {
                answers[question] =
                    (try? await AppDependencyManager.$current.withValue(dependencies) {
                        try await definition.values(matching: said.words, forParameter: name)
                    }) ?? []
            }
            guard let found = answers[question], !found.isEmpty else {
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

    /// What a candidate means: its shortcut and values. Candidates meaning the same are one.
    static func reading(_ match: PhraseMatch) -> String {
        let values = match.values.sorted { $0.key < $1.key }.map {
            "\($0.key)=\($0.value.title ?? $0.value.words.lowercased())"
        }
        return "\(match.shortcutIndex)|" + values.joined(separator: "|")
    }
}

extension PhraseMatcher {
    /// How many phrases were compiled (Swift, catalog and negative).
    public var phraseCount: Int { phrases.count }

    /// Example sentences of every phrase (see ``lint()``), for benchmarks and tools.
    public func phraseExamples(limitPerPhrase: Int = 2) -> [String] {
        phrases.filter { $0.shortcut != nil }.flatMap { examples(of: $0, limit: limitPerPhrase) }
    }

    /// Aligns `sentence` with every phrase, without the candidate index: the baseline the
    /// benchmark compares the index with.
    public func alignWithEveryPhrase(_ sentence: String) -> Int {
        align(prepare(TextNormalizer.tokens(sentence)), candidates: Array(phrases.indices)).count
    }
}

extension PhraseMatcher {
    /// Where matching `sentences` spends its time, as mean microseconds per sentence for each
    /// stage (tokenising, preparing, choosing candidates, aligning) and for the whole match: for
    /// the benchmark's `--breakdown`.
    public func timingBreakdown(_ sentences: [String]) async -> String {
        let clock = ContinuousClock()
        var tokenize = Duration.zero
        var prepare = Duration.zero
        var choose = Duration.zero
        var alignAll = Duration.zero
        var full = Duration.zero
        var candidateCount = 0
        for sentence in sentences {
            var t = clock.now
            let tokens = TextNormalizer.tokens(sentence)
            tokenize += clock.now - t
            t = clock.now
            let prepared = self.prepare(tokens)
            prepare += clock.now - t
            t = clock.now
            let ids = candidates(for: prepared)
            choose += clock.now - t
            candidateCount += ids.count
            t = clock.now
            _ = align(prepared, candidates: ids)
            alignAll += clock.now - t
            t = clock.now
            _ = await match(sentence)
            full += clock.now - t
        }
        let n = Double(sentences.count)
        func us(_ d: Duration) -> String {
            String(
                format: "%.1f",
                Double(d.components.attoseconds) / 1e12 / n + Double(d.components.seconds) * 1e6 / n)
        }
        return
            "tokenize \(us(tokenize)) prepare \(us(prepare)) candidates \(us(choose)) (\(Double(candidateCount) / n)) align \(us(alignAll)) match \(us(full))"
    }
}
