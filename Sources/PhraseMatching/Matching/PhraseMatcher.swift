// The matcher's compiled state, the compile step and `match`. The compile step is one pass that
// fills the tables the other files read, which is why this file runs past 400 lines. Candidate
// selection is in PhraseMatcher+Candidates.swift, what a fit means and how fits rank in
// PhraseMatcher+Readings.swift, and what benchmarks and tools ask in PhraseMatcher+Tools.swift.

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
/// every placeholder's values into a vocabulary shared by all phrases that use its type. For a
/// sentence, each phrase gets a least cost that no alignment of it can go below (the sentence's
/// words it cannot take, the words it must say that were not heard); a phrase whose least cost
/// is out of reach of the best fit found is never aligned. So no phrase that fits is left out,
/// the result does not depend on the order phrases are written in, and the cost of a match grows
/// with the phrases that could fit, not with all phrases times all values.
public final class PhraseMatcher: Sendable {
    final class CompiledPhrase: Sendable {
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
        /// What every way of saying the phrase says, for the least cost of a sentence.
        let requiredParts: [RequiredPart]
        /// Values the phrase gives without their being said (a catalog phrase's `set:`).
        let fixedValues: [String: MatchedValue]
        /// Values the phrase takes from the runtime's context, by parameter: the context key.
        let contextValues: [String: String]

        init(
            shortcut: Int?, intent: String?, pattern: PhrasePattern, source: PhraseSource, graph: PhraseGraph,
            slots: [String: Int], slotVocabularies: [Int], fixedValues: [String: MatchedValue] = [:],
            contextValues: [String: String] = [:]
        ) {
            self.fixedValues = fixedValues
            self.contextValues = contextValues
            self.shortcut = shortcut
            self.intent = intent
            self.pattern = pattern
            self.source = source
            self.graph = graph
            self.slots = slots
            self.slotVocabularies = slotVocabularies
            self.distinctVocabularies = Array(Set(slotVocabularies.filter { $0 >= 0 })).sorted()
            self.requiredParts = graph.edgesOnEveryPath().compactMap { edge in
                switch graph.kinds[edge] {
                case .empty: return nil
                case .word:
                    return .word(
                        graph.payloads[edge] >= 0 ? [graph.payloads[edge]] : graph.wordSets[edge],
                        isAnchor: graph.isAnchor[edge])
                case .applicationName: return .applicationName
                case .slot:
                    let vocabulary = slotVocabularies[Int(graph.payloads[edge])]
                    return vocabulary >= 0 ? .value(vocabulary) : nil
                }
            }
        }
    }

    /// A part every way of saying a phrase says.
    enum RequiredPart: Sendable {
        /// One of these words (a word that must be heard, when an anchor).
        case word([Int32], isAnchor: Bool)
        case applicationName
        /// A value of this vocabulary.
        case value(Int)
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
    /// The vocabularies of placeholders that accept only some of their type's entities in one
    /// phrase (`only:`): subsets of another vocabulary.
    let narrowedVocabularies: Set<Int>
    /// The vocabularies whose values some phrase takes from the context (`set: { area: $area }`),
    /// narrowed ones included: names of where something is, which count after the phrase's own
    /// words when readings are ranked ("the garage door" as a door's words, not the room Garage
    /// and a door).
    let contextVocabularies: Set<Int>
    /// The suggestions of free-text parameters with a `DynamicOptionsProvider`, as normalised
    /// words, by intent and parameter: what grammars offer for them (matching takes any words).
    let suggestedText: [String: [String: [[String]]]]
    let words: WordTable
    let applicationNames: [[Int32]]
    /// The phrases that have a placeholder of each vocabulary.
    let phrasesOfVocabulary: [[Int]]
    /// What of the catalog is not applied (``PhraseCatalog/warnings``).
    public let catalogWarnings: [PhraseDiagnostic]
    /// Words the catalog says may be said anywhere (`skip:`), as normalised words.
    let skipPhrases: [[String]]
    /// The fewest words each phrase can be said in, and the largest of those.
    let minimumLengths: [Int]
    let longestPhrase: Int
    /// For each word of the table, the phrases that use it (the app name's words: the phrases
    /// that say the app's name).
    let phrasesOfWord: [[Int]]
    /// How rare each table word is among the phrases, as evidence of the phrases that use it.
    let wordWeights: [Double]
    /// For each vocabulary that takes names, whether each table word may be part of a name.
    let mayBeInAName: [[Bool]]
    /// An example of each phrase, to suggest when nothing fits.
    let firstExamples: [String?]
    /// The table's and the names' words and their spellings one letter short, for near misses.
    let spellings: Spellings
    /// For each phrase, the least its placeholders charge for words that name no known value:
    /// `nil` when none takes names, 0 when one takes an open set (its query may know them).
    let unknownWordsPrice: [Float?]

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
        self.skipPhrases = (catalog?.skipWords ?? []).map { TextNormalizer.tokens($0).map(\.text) }.filter {
            !$0.isEmpty
        }
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
        // What each vocabulary was made from, for the narrowed vocabularies of phrases that
        // accept only some of its entities (`only:`).
        var madeFrom:
            [(parameter: IntentParameterDescription, values: [NamedValue], words: [PhraseCatalog.ValueWord])] =
                []
        var suggestedText: [String: [String: [[String]]]] = [:]
        for intent in app.intents {
            var slots: [String: Int] = [:]
            for parameter in intent.parameters {
                // Free text is suggested what its options provider suggests, and the catalog's
                // words for it (a Home Assistant list of values).
                let listed =
                    parameter.valueType.kind == .string ? catalog?.valueWords[parameter.name] ?? [] : []
                for word in listed where TextNormalizer.key(word.value) != TextNormalizer.key(word.words) {
                    throw Self.notWordsForText(word, parameter: parameter.name)
                }
                if parameter.valueType.kind == .string,
                    let suggested = try await intent.suggestedValues(forParameter: parameter.name)
                        ?? (listed.isEmpty ? nil : [])
                {
                    var seen = Set<[String]>()
                    let names = (suggested + listed.map(\.words)).map {
                        TextNormalizer.tokens($0).map(\.text)
                    }.filter {
                        !$0.isEmpty && seen.insert($0).inserted
                    }
                    if !names.isEmpty {
                        suggestedText[intent.identifier, default: [:]][parameter.name] = names
                    }
                }
                // A parameter with value words of its own has a vocabulary of its own.
                let valueWords =
                    parameter.valueType.kind == .string ? [] : catalog?.valueWords[parameter.name] ?? []
                let key =
                    parameter.valueType.typeName
                    + (valueWords.isEmpty && parameter.inclusiveRange == nil ? "" : "|\(parameter.name)")
                if vocabularyOfType[key] == nil {
                    let values = try await intent.namedValues(forParameter: parameter.name)
                    vocabularyOfType[key] = vocabularies.count
                    vocabularies.append(
                        try Self.vocabulary(for: parameter, values: values, valueWords: valueWords))
                    parametersOfVocabulary.append([])
                    madeFrom.append((parameter, values, valueWords))
                }
                let vocabulary = vocabularyOfType[key]!
                slots[parameter.name] = vocabulary
                if !parametersOfVocabulary[vocabulary].contains(parameter.name) {
                    parametersOfVocabulary[vocabulary].append(parameter.name)
                }
            }
            slotsOfIntent[intent.identifier] = slots
        }
        let parameterNames = Set(app.intents.flatMap { $0.parameters.map(\.name) })
        for (name, words) in catalog?.valueWords ?? [:] where !parameterNames.contains(name) {
            throw CompileError(
                source: words[0].source,
                message:
                    "values: no intent has a parameter \"\(name)\"; they have: \(parameterNames.sorted().joined(separator: ", "))"
            )
        }
        // Narrowed vocabularies by their vocabulary and what they accept.
        var narrowedVocabularies: [String: Int] = [:]
        var narrowed = Set<Int>()
        // Vocabularies with a phrase's own value words, by their vocabulary and the words.
        var withWords: [String: Int] = [:]
        // The vocabulary each one narrows (itself when it narrows none), and those the context gives.
        var baseVocabulary = Array(vocabularies.indices)
        var fromContext = Set<Int>()

        // Phrases: Swift first, then the catalog's.
        var phrases: [CompiledPhrase] = []
        func add(
            _ pattern: PhrasePattern, shortcut: Int?, source: PhraseSource, fixed: [String: String] = [:],
            narrowing: [String: PhraseCatalog.Narrowing] = [:],
            valueWords: [String: [PhraseCatalog.ValueWord]] = [:],
            unknownValue: ((CompileError) -> Void)? = nil
        ) throws(CompileError) {
            let intent = shortcut.map { app.shortcuts[$0] }.map { IntentDefinition($0.intentType).identifier }
            var slots = intent.flatMap { slotsOfIntent[$0] } ?? [:]
            for name in pattern.placeholders where slots[name] == nil {
                let owner = intent ?? "a negative phrase"
                throw CompileError(
                    source: source,
                    message: "placeholder ${\(name)} names no parameter of \(owner)"
                        + (slots.isEmpty ? "" : "; it has: \(slots.keys.sorted().joined(separator: ", "))"))
            }
            for (name, only) in narrowing.sorted(by: { $0.key < $1.key }) {
                guard pattern.placeholders.contains(name), let vocabulary = slots[name] else {
                    throw CompileError(
                        source: only.source, message: "only: ${\(name)} is not said in the phrase")
                }
                let key =
                    "\(vocabulary)|"
                    + only.values.sorted { $0.key < $1.key }.map {
                        "\($0.key)=\($0.value.map(TextNormalizer.key).sorted())"
                    }.joined(separator: ",")
                if narrowedVocabularies[key] == nil {
                    let base = madeFrom[vocabulary]
                    let values = try Self.narrowed(base.values, of: base.parameter, to: only)
                    narrowedVocabularies[key] = vocabularies.count
                    narrowed.insert(vocabularies.count)
                    baseVocabulary.append(vocabulary)
                    vocabularies.append(
                        try Self.vocabulary(for: base.parameter, values: values, valueWords: base.words))
                    parametersOfVocabulary.append([name])
                    madeFrom.append((base.parameter, values, base.words))
                }
                slots[name] = narrowedVocabularies[key]
            }
            // The phrase's own words for its values: free text is suggested them (for the
            // intent's parameter), other values get a vocabulary with them.
            for (name, words) in valueWords.sorted(by: { $0.key < $1.key }) {
                guard let vocabulary = slots[name], let intent else { continue }
                let base = madeFrom[vocabulary]
                if base.parameter.valueType.kind == .string {
                    var suggested = suggestedText[intent]?[name] ?? []
                    for word in words {
                        guard TextNormalizer.key(word.value) == TextNormalizer.key(word.words) else {
                            throw Self.notWordsForText(word, parameter: name)
                        }
                        let tokens = TextNormalizer.tokens(word.words).map(\.text)
                        if !tokens.isEmpty && !suggested.contains(tokens) { suggested.append(tokens) }
                    }
                    suggestedText[intent, default: [:]][name] = suggested
                    continue
                }
                let key =
                    "\(vocabulary)+"
                    + words.map { "\(TextNormalizer.key($0.words))=\($0.value)" }.joined(separator: ",")
                if withWords[key] == nil {
                    withWords[key] = vocabularies.count
                    if narrowed.contains(vocabulary) { narrowed.insert(vocabularies.count) }
                    baseVocabulary.append(baseVocabulary[vocabulary])
                    vocabularies.append(
                        try Self.vocabulary(
                            for: base.parameter, values: base.values, valueWords: base.words + words,
                            unknownValue: unknownValue))
                    parametersOfVocabulary.append([name])
                    madeFrom.append((base.parameter, base.values, base.words + words))
                }
                slots[name] = withWords[key]
            }
            var fixedValues: [String: MatchedValue] = [:]
            var contextValues: [String: String] = [:]
            for (name, text) in fixed.sorted(by: { $0.key < $1.key }) {
                guard let vocabulary = slots[name] else {
                    throw CompileError(
                        source: source,
                        message:
                            "set: \(intent ?? "the intent") has no parameter \"\(name)\"; it has: \(slots.keys.sorted().joined(separator: ", "))"
                    )
                }
                guard !pattern.placeholders.contains(name) else {
                    throw CompileError(
                        source: source,
                        message: "set: ${\(name)} is said in the phrase, so the phrase cannot set it")
                }
                // "$area": the value the runtime gives as the context's area ("here").
                if text.hasPrefix("$"), text.count > 1 {
                    contextValues[name] = String(text.dropFirst())
                    fromContext.insert(baseVocabulary[vocabulary])
                    continue
                }
                guard let value = vocabularies[vocabulary].value(named: text) else {
                    throw CompileError(
                        source: source, message: "set: \"\(text)\" is no value of \(name)")
                }
                fixedValues[name] = MatchedValue(
                    words: "", title: value.title, value: value.value, isKnown: true)
            }
            let freeText = Set(slots.filter { vocabularies[$0.value].form == .text }.keys)
            let graph = PhraseGraph(pattern, words: &table, freeText: freeText)
            phrases.append(
                CompiledPhrase(
                    shortcut: shortcut, intent: intent, pattern: pattern, source: source, graph: graph,
                    slots: slots, slotVocabularies: graph.slotNames.map { slots[$0] ?? -1 },
                    fixedValues: fixedValues, contextValues: contextValues))
        }
        for (index, shortcut) in app.shortcuts.enumerated() where shortcut.intentType.isDiscoverable {
            for template in shortcut.phrases {
                try add(PhrasePattern(template: template), shortcut: index, source: .swift)
            }
        }
        for negative in app.negativePhrases {
            try add(PhrasePattern(template: negative), shortcut: nil, source: .swift)
        }
        var warnings = catalog?.warnings ?? []
        var warned = Set(warnings.map(\.message))
        // A Home Assistant sentence the app cannot take is left out, and said once.
        func warn(_ error: CompileError, _ phrase: String) {
            guard warned.insert(error.message).inserted else { return }
            warnings.append(
                PhraseDiagnostic(
                    severity: .warning, source: error.source, phrase: phrase,
                    message: "\(error.message); left out"))
        }
        for entry in catalog?.entries ?? [] {
            let lenient = entry.origin == .homeAssistant
            let unknownValue: ((CompileError) -> Void)? = lenient ? { warn($0, entry.pattern.text) } : nil
            do throws(CompileError) {
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
                    try add(
                        entry.pattern, shortcut: shortcut, source: entry.source, fixed: entry.fixedValues,
                        narrowing: entry.narrowing, valueWords: entry.valueWords)
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
                    try add(
                        entry.pattern, shortcut: shortcut, source: entry.source, fixed: entry.fixedValues,
                        narrowing: entry.narrowing, valueWords: entry.valueWords, unknownValue: unknownValue)
                case .negative:
                    try add(entry.pattern, shortcut: nil, source: entry.source)
                }
            } catch {
                guard lenient else { throw error }
                warn(error, entry.pattern.text)
            }
        }
        catalogWarnings = warnings
        self.suggestedText = suggestedText
        self.phrases = phrases
        self.vocabularies = vocabularies
        self.parametersOfVocabulary = parametersOfVocabulary
        self.narrowedVocabularies = narrowed
        contextVocabularies = Set(vocabularies.indices.filter { fromContext.contains(baseVocabulary[$0]) })
        firstExamples = phrases.map {
            Self.examples(of: $0, appName: app.name, vocabularies: vocabularies, limit: 1).first
        }
        self.words = table

        // Word → phrases, weighted by how rare the word is: evidence, and the words each phrase takes.
        var index: [String: [Int]] = [:]
        for (id, phrase) in phrases.enumerated() {
            var words = phrase.graph.words
            if phrase.graph.usesApplicationName { words.formUnion(spoken.flatMap { $0 }) }
            for word in words { index[word, default: []].append(id) }
        }
        let total = Double(max(phrases.count, 1))
        phrasesOfWord = table.words.map { index[$0] ?? [] }
        wordWeights = phrasesOfWord.map { $0.isEmpty ? 0 : log(1 + total / Double($0.count)) }
        minimumLengths = phrases.map(\.graph.minimumLength)
        longestPhrase = minimumLengths.max() ?? 0
        let spellings = Spellings(table: table, vocabularies: vocabularies)
        self.spellings = spellings
        let closeNameWords = spellings.spell(table.words.map { Token(text: $0, surface: $0) }).closeNameWords
        mayBeInAName = vocabularies.map { vocabulary in
            vocabulary.form == .names
                ? zip(table.words, closeNameWords).map { vocabulary.mayBePartOfAName($0, closeNameWords: $1) }
                : []
        }
        var phrasesOfVocabulary = Array(repeating: [Int](), count: vocabularies.count)
        for (id, phrase) in phrases.enumerated() {
            for vocabulary in Set(phrase.slots.values)
            where phrase.pattern.placeholders.contains(where: { phrase.slots[$0] == vocabulary }) {
                phrasesOfVocabulary[vocabulary].append(id)
            }
        }
        self.phrasesOfVocabulary = phrasesOfVocabulary
        unknownWordsPrice = phrases.map { phrase in
            let names = phrase.distinctVocabularies.filter { vocabularies[$0].form == .names }
            if names.isEmpty { return nil }
            return names.contains { vocabularies[$0].isOpen } ? 0 : Aligner.Costs.unknownValue
        }
    }

    /// Matches `sentence`.
    ///
    /// - Parameters:
    ///   - sentence: What was said or typed.
    ///   - limit: How many candidates to return.
    ///   - context: What the runtime knows without being told, by key ("area": the room the
    ///     device is in). A phrase whose catalog entry sets `parameter: $key` takes its value from
    ///     here ("turn on the lights here"); when the context lacks it, the value is missing and
    ///     the runtime asks.
    public func match(_ sentence: String, limit: Int = 5, context: [String: String] = [:]) async
        -> MatchResult
    {
        let tokens = TextNormalizer.tokens(sentence)
        var scored = align(tokens).map { fillFromContext($0, context) }.sorted(by: Self.ranksBefore)
        // Open sets (entities with a string query): ask the query about the unknown words of the
        // candidates that could still come first once their words are known, then rank again.
        let leading = scored.first { $0.match.unknown.isEmpty && !$0.isNegative }?.match.score ?? 0
        var answers: [String: [NamedValue]] = [:]
        for position in scored.indices.prefix(8) {
            let candidate = scored[position]
            guard let recovery = openRecovery(candidate) else { continue }
            let best = Double(max(0, 1 - max(0, candidate.cost - recovery) / candidate.length))
            guard best >= threshold, best >= leading - ambiguityMargin else { continue }
            scored[position] = await resolveOpenValues(candidate, answers: &answers)
        }
        scored.sort(by: Self.ranksBefore)
        Self.preferSpecificReading(&scored)

        let negative = scored.first { $0.isNegative }
        var distinctScored: [Scored] = []
        var seenReadings = Set<String>()
        for candidate in scored where !candidate.isNegative {
            // Enough once there are `limit` readings and a rival of another shortcut among them:
            // the rest would change neither the candidates returned nor the ambiguity check.
            if distinctScored.count >= limit, let first = distinctScored.first,
                distinctScored.contains(where: { $0.match.shortcutIndex != first.match.shortcutIndex })
            {
                break
            }
            if seenReadings.insert(Self.reading(candidate.match)).inserted {
                distinctScored.append(candidate)
            }
        }
        let distinct = distinctScored.map(\.match)
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
        if best != nil, let chosen = distinctScored.first,
            let rival = distinctScored.dropFirst().first(where: {
                $0.match.shortcutIndex != chosen.match.shortcutIndex
            }),
            abs(chosen.match.score - rival.match.score) < ambiguityMargin, rival.match.score >= threshold,
            Self.specificity(chosen) <= Self.specificity(rival)
        {
            isAmbiguous = true
            best = nil
        }
        // Sentences the person may have meant: an example of each leading phrase, as it can be said.
        var suggestions: [String] = []
        if best == nil, !isAmbiguous, negativePhrase == nil {
            for candidate in scored where !candidate.isNegative && candidate.match.score > 0.2 {
                guard let example = firstExamples[candidate.id],
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

    /// The entities of `values` that `only` accepts: those each of whose properties named has one
    /// of its values.
    static func narrowed(
        _ values: [NamedValue], of parameter: IntentParameterDescription, to only: PhraseCatalog.Narrowing
    ) throws(CompileError) -> [NamedValue] {
        guard parameter.valueType.kind == .entity, let first = values.first else {
            throw CompileError(
                source: only.source,
                message:
                    "only: \(parameter.name) takes \(parameter.valueType.typeName), not entities with suggested values and properties"
            )
        }
        let known = EntityProperties.all(of: first.value)
        for property in only.values.keys
        where !known.contains(where: {
            $0.name == property || $0.title.map(TextNormalizer.key) == TextNormalizer.key(property)
        }) {
            throw CompileError(
                source: only.source,
                message:
                    "only: \(parameter.valueType.typeName) has no property \"\(property)\"; it has: \(known.map(\.name).joined(separator: ", "))"
            )
        }
        let accepted = values.filter { value in
            let properties = EntityProperties.all(of: value.value)
            return only.values.allSatisfy { property, wanted in
                let keys = Set(wanted.map(TextNormalizer.key))
                return properties.contains { found in
                    (found.name == property
                        || found.title.map(TextNormalizer.key) == TextNormalizer.key(property))
                        && found.value.map {
                            keys.contains(TextNormalizer.key(EntityProperties.text(of: $0)))
                        } == true
                }
            }
        }
        guard !accepted.isEmpty else {
            let wanted = only.values.sorted { $0.key < $1.key }.map {
                "\($0.key) \($0.value.joined(separator: " or "))"
            }
            throw CompileError(
                source: only.source,
                message: "only: no \(parameter.valueType.typeName) has \(wanted.joined(separator: " and "))")
        }
        return accepted
    }

    /// Words that would stand for another value of a parameter that takes the words said.
    static func notWordsForText(_ word: PhraseCatalog.ValueWord, parameter: String) -> CompileError {
        CompileError(
            source: word.source,
            message:
                "values: \(parameter) takes the words said (a String), so \"\(word.words)\" cannot stand for \"\(word.value)\"; declare it an AppEnum or an AppEntity to map words to values"
        )
    }

    /// The vocabulary of `parameter`'s values, with the catalog's words for some of them: more
    /// names for a named value, or words that stand for a number.
    ///
    /// - Parameter unknownValue: Given, words for a value the parameter lacks are said to it and
    ///   left out; without, they are an error.
    static func vocabulary(
        for parameter: IntentParameterDescription, values: [NamedValue],
        valueWords: [PhraseCatalog.ValueWord],
        unknownValue: ((CompileError) -> Void)? = nil
    ) throws(CompileError) -> ValueVocabulary {
        var values = values
        var numberWords: [String: ValueVocabulary.Entry] = [:]
        for word in valueWords {
            let spoken = TextNormalizer.tokens(word.words).map(\.text).joined(separator: " ")
            switch parameter.valueType.kind {
            case .enumeration, .entity:
                let wanted = TextNormalizer.key(word.value)
                guard
                    let index = values.firstIndex(where: {
                        $0.names.contains { TextNormalizer.key($0) == wanted }
                    })
                else {
                    // Words that already name a value (a list whose values are written as said
                    // and stand for ids) add nothing.
                    let said = TextNormalizer.key(word.words)
                    if values.contains(where: { $0.names.contains { TextNormalizer.key($0) == said } }) {
                        continue
                    }
                    let error = CompileError(
                        source: word.source,
                        message:
                            "values: \(parameter.name) has no value \"\(word.value)\"; it has: \(values.map(\.title).joined(separator: ", "))"
                    )
                    guard let unknownValue else { throw error }
                    unknownValue(error)
                    continue
                }
                let value = values[index]
                values[index] = NamedValue(
                    title: value.title, names: value.names + [word.words], value: value.value)
            case .integer, .decimal:
                let isInteger = parameter.valueType.kind == .integer
                guard let number = ValueVocabulary.number(written: word.value, integer: isInteger) else {
                    throw CompileError(
                        source: word.source,
                        message:
                            "values: \(parameter.name) takes \(isInteger ? "whole numbers" : "numbers"), not \"\(word.value)\""
                    )
                }
                numberWords[spoken] = number
            default:
                throw CompileError(
                    source: word.source,
                    message:
                        "values: words can stand for numbers and named values, and \(parameter.name) takes neither"
                )
            }
        }
        return ValueVocabulary(
            valueType: parameter.valueType, isOpen: parameter.isOpenSet, values: values,
            numberWords: numberWords, bounds: parameter.inclusiveRange)
    }

    func prepare(_ tokens: [Token]) -> Aligner.Sentence {
        Aligner.Sentence(
            spellings.spell(tokens), applicationNames: applicationNames, vocabularies: vocabularies,
            skipPhrases: skipPhrases)
    }

    func align(_ tokens: [Token]) -> [Scored] {
        let sentence = prepare(tokens)
        return align(sentence, candidates: candidates(for: sentence))
    }

    /// The phrases that fit: every phrase whose cost is within reach of the best fit found
    /// (runners-up, ambiguity), whatever order the candidates come in. Once one fits well, the
    /// others only matter if they come close to it, so their alignments may stop earlier, and a
    /// phrase whose least cost is already out of reach is not aligned at all.
    func align(_ sentence: Aligner.Sentence, candidates: Candidates) -> [Scored] {
        let tokens = sentence.tokens
        var fits: [(id: Int, alignment: Aligner.Result, length: Float)] = []
        var wanted = Self.lowestUsefulScore
        func bound(_ id: Int, _ length: Float) -> Float {
            // A phrase with unknown open values may still gain after its query answers.
            (1 - Float(wanted)) * length + (unknownWordsPrice[id] == 0 ? Aligner.Costs.unknownOpenValue : 0)
        }
        for id in candidates.order {
            let length = Float(max(tokens.count, minimumLengths[id], 2))
            let reach = bound(id, length)
            guard candidates.wordsCost[id] <= reach,
                candidates.wordsCost[id] + phraseCost(phrases[id].requiredParts, candidates) <= reach
            else { continue }
            let phrase = phrases[id]
            guard
                let alignment = Aligner.align(sentence, phrase, table: words, bound: reach)
            else { continue }
            let score = Double(max(0, 1 - alignment.cost / length))
            if phrase.shortcut != nil { wanted = max(wanted, score - 0.15) }
            fits.append((id, alignment, length))
        }
        // Those aligned before the best fit raised the bar: keep only what the final bar keeps,
        // so the result is the same in any order.
        return fits.filter { $0.alignment.cost <= bound($0.id, $0.length) }.map { id, alignment, length in
            let phrase = phrases[id]
            var namedWords = 0
            var placeWords = 0
            var nameChoices = 0
            var unknownKindSize = 0
            for action in alignment.actions {
                switch action {
                case .filled(let slot, let fill, _)
                where fill.title != nil && phrase.slots[slot].map({ vocabularies[$0].form == .names }) == true:
                    let vocabulary = phrase.slots[slot]!
                    if contextVocabularies.contains(vocabulary) {
                        placeWords += fill.length
                    } else {
                        namedWords += fill.length
                    }
                    nameChoices += vocabularies[vocabulary].entries.count
                case .unknown(let slot, _):
                    if let vocabulary = phrase.slots[slot].map({ vocabularies[$0] }), !vocabulary.isOpen {
                        unknownKindSize += vocabulary.entries.count
                    }
                default: break
                }
            }
            let score = Double(max(0, 1 - alignment.cost / length))
            return Scored(
                match: describe(phrase, alignment, score: score), isNegative: phrase.shortcut == nil,
                phrase: phrase, cost: alignment.cost, length: length, id: id, namedWords: namedWords,
                placeWords: placeWords, nameChoices: nameChoices, unknownKindSize: unknownKindSize)
        }
    }

    /// Candidates scoring below this are dropped (they would not even be suggestions).
    static let lowestUsefulScore = 0.2

}
