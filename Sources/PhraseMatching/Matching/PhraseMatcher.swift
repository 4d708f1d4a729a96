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
    /// The suggestions of free-text parameters with a `DynamicOptionsProvider`, as normalised
    /// words, by intent and parameter: what grammars offer for them (matching takes any words).
    let suggestedText: [String: [String: [[String]]]]
    let words: WordTable
    let applicationNames: [[Int32]]
    /// The phrases that have a placeholder of each vocabulary.
    private let phrasesOfVocabulary: [[Int]]
    /// Words the catalog says may be said anywhere (`skip:`), as normalised words.
    let skipPhrases: [[String]]
    /// The fewest words each phrase can be said in, and the largest of those.
    private let minimumLengths: [Int]
    private let longestPhrase: Int
    /// For each word of the table, the phrases that use it (the app name's words: the phrases
    /// that say the app's name).
    private let phrasesOfWord: [[Int]]
    /// How rare each table word is among the phrases, as evidence of the phrases that use it.
    private let wordWeights: [Double]
    /// For each vocabulary that takes names, whether each table word may be part of a name.
    private let mayBeInAName: [[Bool]]
    /// An example of each phrase, to suggest when nothing fits.
    private let firstExamples: [String?]
    /// The table's and the names' words and their spellings one letter short, for near misses.
    private let spellings: Spellings
    /// For each phrase, the least its placeholders charge for words that name no known value:
    /// `nil` when none takes names, 0 when one takes an open set (its query may know them).
    private let unknownWordsPrice: [Float?]

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
                // A parameter with value words of its own has a vocabulary of its own.
                let valueWords = catalog?.valueWords[parameter.name] ?? []
                let key =
                    parameter.valueType.typeName
                    + (valueWords.isEmpty && parameter.inclusiveRange == nil ? "" : "|\(parameter.name)")
                if vocabularyOfType[key] == nil {
                    let values = try await intent.namedValues(forParameter: parameter.name)
                    vocabularyOfType[key] = vocabularies.count
                    vocabularies.append(
                        try Self.vocabulary(for: parameter, values: values, valueWords: valueWords))
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
        let parameterNames = Set(app.intents.flatMap { $0.parameters.map(\.name) })
        for (name, words) in catalog?.valueWords ?? [:] where !parameterNames.contains(name) {
            throw CompileError(
                source: words[0].source,
                message:
                    "values: no intent has a parameter \"\(name)\"; they have: \(parameterNames.sorted().joined(separator: ", "))"
            )
        }
        self.vocabularies = vocabularies
        self.parametersOfVocabulary = parametersOfVocabulary
        self.suggestedText = suggestedText

        // Phrases: Swift first, then the catalog's.
        var phrases: [CompiledPhrase] = []
        func add(
            _ pattern: PhrasePattern, shortcut: Int?, source: PhraseSource, fixed: [String: String] = [:]
        ) throws(CompileError) {
            let intent = shortcut.map { app.shortcuts[$0] }.map { IntentDefinition($0.intentType).identifier }
            let slots = intent.flatMap { slotsOfIntent[$0] } ?? [:]
            for name in pattern.placeholders where slots[name] == nil {
                let owner = intent ?? "a negative phrase"
                throw CompileError(
                    source: source,
                    message: "placeholder ${\(name)} names no parameter of \(owner)"
                        + (slots.isEmpty ? "" : "; it has: \(slots.keys.sorted().joined(separator: ", "))"))
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
                try add(entry.pattern, shortcut: shortcut, source: entry.source, fixed: entry.fixedValues)
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
                try add(entry.pattern, shortcut: shortcut, source: entry.source, fixed: entry.fixedValues)
            case .negative:
                try add(entry.pattern, shortcut: nil, source: entry.source)
            }
        }
        self.phrases = phrases
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
        for position in scored.indices.prefix(8) where !scored[position].match.unknown.isEmpty {
            let candidate = scored[position]
            let best = Double(max(0, 1 - max(0, candidate.cost - candidate.openRecovery) / candidate.length))
            guard best >= threshold, best >= leading - ambiguityMargin else { continue }
            scored[position] = await resolveOpenValues(candidate, answers: &answers)
        }
        scored.sort(by: Self.ranksBefore)
        Self.preferSpecificReading(&scored)

        let negative = scored.first { $0.isNegative }
        var distinctScored: [Scored] = []
        var seenReadings = Set<String>()
        for candidate in scored
        where !candidate.isNegative && seenReadings.insert(Self.reading(candidate.match)).inserted {
            distinctScored.append(candidate)
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

    struct Scored {
        var match: PhraseMatch
        var isNegative: Bool
        var phrase: CompiledPhrase
        /// The alignment's cost and the length it is divided by.
        var cost: Float
        var length: Float
        /// The phrase's position among the compiled phrases.
        var id: Int
        /// How many of the sentence's words named known values of a set of names ("bedroom
        /// lamp" as one device, not "bedroom" as a room and "lamp" as a word of the phrase).
        var namedWords = 0

        /// The most the cost can fall if an open set's query knows every unknown word.
        var openRecovery: Float {
            match.unknown.compactMap { name in
                guard let words = match.values[name]?.words else { return nil }
                let length = Float(words.split(separator: " ").count)
                return Aligner.Costs.unknownOpenValue + Aligner.Costs.unknownValueExtraWord * (length - 1)
            }.reduce(0, +)
        }
    }

    /// The vocabulary of `parameter`'s values, with the catalog's words for some of them: more
    /// names for a named value, or words that stand for a number.
    static func vocabulary(
        for parameter: IntentParameterDescription, values: [NamedValue], valueWords: [PhraseCatalog.ValueWord]
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
                    throw CompileError(
                        source: word.source,
                        message:
                            "values: \(parameter.name) has no value \"\(word.value)\"; it has: \(values.map(\.title).joined(separator: ", "))"
                    )
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

    /// What bounds the cost of each phrase for one sentence, and the order to align them in.
    struct Candidates {
        /// Every phrase: the least their sentence words can cost first, and among equals those
        /// with the most evidence in the sentence, so that a good fit is found early and bounds
        /// the rest. The order decides only how soon; which phrases fit does not depend on it.
        var order: [Int]
        /// The least the sentence's words can cost with each phrase.
        var wordsCost: [Float]
        /// How each table word was heard: 2 as said, 1 one letter off, 0 not at all.
        var heard: [UInt8]
        var hearsApplicationName: Bool
        /// Whether some value of each vocabulary may be in the sentence.
        var valueHeard: [Bool]
    }

    /// The candidates for `sentence`: the sentence's side of every phrase's least cost, and the
    /// order to align them in.
    ///
    /// The least cost counts the extra-word cost of each word that nothing in the phrase can take
    /// (none of its words, no word one letter off one of them, no value of its placeholders, not
    /// the app's name), or what a placeholder that takes names would charge for those words as an
    /// unknown value, if less: every edit that takes such a word costs at least as much.
    func candidates(for sentence: Aligner.Sentence) -> Candidates {
        let count = sentence.tokens.count
        // What the phrase can take of the sentence's words: all of their extra-word cost, and of
        // the words that cost more to leave out than to add to an unknown value (not skip words),
        // the cost and the count.
        var taken = [Float](repeating: 0, count: phrases.count)
        var takenDear = [Float](repeating: 0, count: phrases.count)
        var takenDearWords = [Int32](repeating: 0, count: phrases.count)
        let isDear = sentence.extraCost.map { $0 > Aligner.Costs.unknownValueExtraWord }
        var lastPosition = [Int32](repeating: -1, count: phrases.count)
        // The positions each vocabulary's values may cover (names: any word that may be part of
        // one, without looking for the names themselves).
        var covered = Array(repeating: [Bool](repeating: false, count: count), count: vocabularies.count)
        for vocabulary in vocabularies.indices where !phrasesOfVocabulary[vocabulary].isEmpty {
            if vocabularies[vocabulary].form == .names {
                for position in 0..<count {
                    let id = sentence.ids[position]
                    covered[vocabulary][position] =
                        id >= 0
                        ? mayBeInAName[vocabulary][Int(id)]
                        : vocabularies[vocabulary].mayBePartOfAName(
                            sentence.tokens[position].text,
                            closeNameWords: sentence.spelled.closeNameWords[position])
                }
                continue
            }
            if vocabularies[vocabulary].form == .text {  // free text may take any word
                covered[vocabulary] = [Bool](repeating: true, count: count)
                continue
            }
            for position in 0..<count {
                for fill in sentence.fills(vocabulary, position) {
                    for covering in position..<min(count, position + fill.length) {
                        covered[vocabulary][covering] = true
                    }
                }
            }
        }
        for position in 0..<count {
            let cost = sentence.extraCost[position]
            let dear = isDear[position]
            let mark = Int32(position)
            func take(_ ids: [Int]) {
                for id in ids where lastPosition[id] != mark {
                    lastPosition[id] = mark
                    taken[id] += cost
                    if dear {
                        takenDear[id] += cost
                        takenDearWords[id] += 1
                    }
                }
            }
            if sentence.ids[position] >= 0 { take(phrasesOfWord[Int(sentence.ids[position])]) }
            for near in sentence.near[position] { take(phrasesOfWord[Int(near)]) }
            for vocabulary in vocabularies.indices where covered[vocabulary][position] {
                take(phrasesOfVocabulary[vocabulary])
            }
        }
        let total = sentence.extraCost.reduce(0, +)
        let totalDear = zip(sentence.extraCost, isDear).filter(\.1).map(\.0).reduce(0, +)
        let dearWords = isDear.filter { $0 }.count
        var wordsCost = [Float](repeating: 0, count: phrases.count)
        for id in phrases.indices {
            // Words cheaper to leave out than to take as part of an unknown value cost what they
            // cost; the others may all go to one unknown value instead, if less.
            let leftDear = max(0, totalDear - takenDear[id])
            let leftCheap = max(0, (total - taken[id]) - leftDear)
            let leftDearWords = dearWords - Int(takenDearWords[id])
            var dearCost = leftDear
            if leftDearWords > 0, let price = unknownWordsPrice[id] {
                dearCost = min(
                    leftDear, price + Aligner.Costs.unknownValueExtraWord * Float(leftDearWords - 1))
            }
            wordsCost[id] = leftCheap + dearCost
        }
        var heard = [UInt8](repeating: 0, count: words.words.count)
        for position in 0..<count {
            for near in sentence.near[position] { heard[Int(near)] = max(heard[Int(near)], 1) }
            if sentence.ids[position] >= 0 { heard[Int(sentence.ids[position])] = 2 }
        }
        let weight = evidence(in: sentence)
        // Phrases out of reach even of the lowest useful score are never aligned.
        let reach =
            (1 - Float(Self.lowestUsefulScore)) * Float(max(count, longestPhrase, 2))
            + Aligner.Costs.unknownOpenValue
        let order = phrases.indices.filter { wordsCost[$0] <= reach }.sorted {
            wordsCost[$0] != wordsCost[$1]
                ? wordsCost[$0] < wordsCost[$1] : weight[$0] != weight[$1] ? weight[$0] > weight[$1] : $0 < $1
        }
        return Candidates(
            order: order, wordsCost: wordsCost, heard: heard,
            hearsApplicationName: applicationNames.joined().contains { heard[Int($0)] > 0 },
            valueHeard: covered.map { $0.contains(true) })
    }

    /// The least cost of aligning each phrase with `sentence` (both sides, ``phraseCost(_:_:)``).
    func leastCosts(for sentence: Aligner.Sentence) -> [Float] {
        let candidates = candidates(for: sentence)
        return phrases.indices.map {
            candidates.wordsCost[$0] + phraseCost(phrases[$0].requiredParts, candidates)
        }
    }

    /// The least the parts every way of saying the phrase says can cost beyond what the
    /// sentence's words are charged: a word not heard is dropped, or heard as another word whose
    /// cost beyond that word's extra-word cost is charged here; a placeholder none of whose values
    /// is heard, and that takes no unknown names, is missing; an app name of which no word is
    /// heard is dropped.
    func phraseCost(_ requiredParts: [RequiredPart], _ candidates: Candidates) -> Float {
        let replaced = Aligner.Costs.otherWord - Aligner.Costs.extraWord
        let replacedAnchor = Aligner.Costs.missedAnchor - Aligner.Costs.extraWord
        var cost: Float = 0
        for part in requiredParts {
            switch part {
            case .word(let choices, let isAnchor):
                var best: UInt8 = 0
                var small = true
                for choice in choices {
                    best = max(best, candidates.heard[Int(choice)])
                    small = small && words.isSmall[Int(choice)]
                }
                if best == 2 { continue }
                if best == 1 {
                    cost += Aligner.Costs.nearWord
                } else if isAnchor {
                    cost += replacedAnchor
                } else {
                    cost += min(small ? Aligner.Costs.droppedSmallWord : Aligner.Costs.droppedWord, replaced)
                }
            case .applicationName:
                if !candidates.hearsApplicationName { cost += Aligner.Costs.droppedApplicationName }
            case .value(let vocabulary):
                if !candidates.valueHeard[vocabulary], vocabularies[vocabulary].form != .names {
                    cost += Aligner.Costs.missingValue
                }
            }
        }
        return cost
    }

    /// How much evidence of each phrase the sentence holds. A word the phrase uses counts by how
    /// rare it is among phrases; a word one letter off counts less; a word of a known value
    /// counts for every phrase with a placeholder for such values.
    func evidence(in sentence: Aligner.Sentence) -> [Double] {
        var weight = [Double](repeating: 0, count: phrases.count)
        var touched: [Int] = []
        func add(_ ids: [Int], _ amount: Double) {
            for id in ids {
                if weight[id] == 0 { touched.append(id) }
                weight[id] += amount
            }
        }
        var valueEvidence = [Double](repeating: 0, count: vocabularies.count)
        var common: [Int32] = []
        // Words in more than a quarter of the phrases ("in", "the") say little about which one
        // was meant; they count only when nothing rarer was heard.
        let commonLimit = max(64, phrases.count / 4)
        let tokens = sentence.tokens
        for (position, token) in tokens.enumerated()
        where !tokens[..<position].contains(where: { $0.text == token.text }) {
            let id = sentence.ids[position]
            if id >= 0 {
                let ids = phrasesOfWord[Int(id)]
                if ids.count > commonLimit { common.append(id) } else { add(ids, wordWeights[Int(id)]) }
            }
            for near in sentence.near[position] {
                let ids = phrasesOfWord[Int(near)]
                if !ids.isEmpty, ids.count <= commonLimit { add(ids, 0.7 * wordWeights[Int(near)]) }
            }
            for vocabulary in sentence.spelled.namingVocabularies[position] { valueEvidence[vocabulary] += 1 }
        }
        if touched.isEmpty {
            for id in common { add(phrasesOfWord[Int(id)], wordWeights[Int(id)]) }
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
        return weight
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
                let alignment = Aligner.align(
                    sentence, phrase.graph, slotVocabularies: phrase.slotVocabularies, table: words,
                    bound: reach)
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
            for case .filled(let slot, let fill, _) in alignment.actions
            where fill.title != nil && phrase.slots[slot].map({ vocabularies[$0].form == .names }) == true {
                namedWords += fill.length
            }
            let score = Double(max(0, 1 - alignment.cost / length))
            return Scored(
                match: describe(phrase, alignment, score: score), isNegative: phrase.shortcut == nil,
                phrase: phrase, cost: alignment.cost, length: length, id: id, namedWords: namedWords)
        }
    }

    /// Candidates scoring below this are dropped (they would not even be suggestions).
    static let lowestUsefulScore = 0.2

    private func describe(_ phrase: CompiledPhrase, _ alignment: Aligner.Result, score: Double) -> PhraseMatch
    {
        var values = phrase.fixedValues
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
                values[name] = MatchedValue(
                    words: words, title: fill.isTheWords ? words : fill.title,
                    value: fill.isTheWords ? words : fill.value, isKnown: true)
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

    /// The candidate with the values its phrase takes from `context`; a value the context lacks,
    /// or that names nothing the parameter takes, is missing.
    private func fillFromContext(_ scored: Scored, _ context: [String: String]) -> Scored {
        var filled = scored
        for (name, key) in scored.phrase.contextValues.sorted(by: { $0.key < $1.key }) {
            if let text = context[key], let vocabulary = scored.phrase.slots[name],
                let value = vocabularies[vocabulary].value(named: text)
            {
                filled.match.values[name] = MatchedValue(
                    words: "", title: value.title, value: value.value, isKnown: true)
            } else if !filled.match.missing.contains(name) {
                filled.match.missing.append(name)
            }
        }
        return filled
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
        match.values = values
        match.unknown = stillUnknown
        match.score = Double(max(0, 1 - max(cost, 0) / scored.length))
        match.explanation = notes
        return Scored(
            match: match, isNegative: scored.isNegative, phrase: scored.phrase, cost: cost,
            length: scored.length, id: scored.id, namedWords: scored.namedWords)
    }

    /// Best first: the higher score, then the more words matched; between equals, by what the
    /// phrase and the reading say, never by where the phrase was declared.
    static func ranksBefore(_ first: Scored, _ second: Scored) -> Bool {
        if first.match.score != second.match.score { return first.match.score > second.match.score }
        if first.match.matchedWords != second.match.matchedWords {
            return first.match.matchedWords > second.match.matchedWords
        }
        if first.isNegative != second.isNegative { return !first.isNegative }
        return (first.match.phrase, reading(first.match), first.match.source.description)
            < (second.match.phrase, reading(second.match), second.match.source.description)
    }

    /// How specific a reading is: the words its known names take, then its written words matched.
    static func specificity(_ candidate: Scored) -> (Int, Int) {
        (candidate.namedWords, candidate.match.matchedWords)
    }

    /// Among the readings that score almost the same as the leader (within 0.02), puts first the
    /// one whose known names take more of the sentence ("the bedroom lamp" as one device, not as
    /// a room and a word of the phrase), then the one that matched more written words: "the road
    /// by jack london" read as title and author rather than as a title containing "by"; "open
    /// the poetry shelf" as a shelf, not a book.
    static func preferSpecificReading(_ scored: inout [Scored]) {
        guard let leaderIndex = scored.firstIndex(where: { !$0.isNegative }) else { return }
        let leader = scored[leaderIndex].match
        let close = scored.indices.filter { index in
            !scored[index].isNegative && leader.score - scored[index].match.score < 0.02
        }
        guard let specific = close.max(by: { specificity(scored[$0]) < specificity(scored[$1]) }),
            specificity(scored[specific]) > specificity(scored[leaderIndex])
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

    /// Aligns `sentence` with every phrase, without least-cost bounds: the baseline the
    /// benchmark compares the bounds with.
    public func alignWithEveryPhrase(_ sentence: String) -> Int {
        // Every phrase in written order, with bounds that rule none out.
        let everyPhrase = Candidates(
            order: Array(phrases.indices), wordsCost: Array(repeating: 0, count: phrases.count),
            heard: Array(repeating: 2, count: words.words.count), hearsApplicationName: true,
            valueHeard: Array(repeating: true, count: vocabularies.count))
        return align(prepare(TextNormalizer.tokens(sentence)), candidates: everyPhrase).count
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
            candidateCount += ids.order.count
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
