import Foundation
import VoiceIntents

/// What a fitting phrase makes of the sentence (its values, what was forgiven, what is unknown),
/// and which of the readings comes first.
extension PhraseMatcher {
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
        /// lamp" as one device, not "bedroom" as a room and "lamp" as a word of the phrase), other
        /// than places.
        var namedWords = 0
        /// How many of the sentence's words named places: values of a set the context can give
        /// (``PhraseMatcher/contextVocabularies``). They count after the phrase's own words.
        var placeWords = 0
        /// How many names the sets that took known names hold, narrowed ones as narrowed: the
        /// fewer, the more specific the reading ("is the front door open" as a door's question,
        /// not any device's).
        var nameChoices = 0
        /// How many names the closed sets that took unknown words hold: a name the app does not
        /// know is likelier one of a kind it has many of ("the pantry" as a room, not a floor).
        var unknownKindSize = 0
        /// How many of the phrase's values were to come from the context and did not, because
        /// the context lacks them: such a reading loses to an equal one that needs no context.
        var missingContext = 0
        /// How many of the phrase's values came from the context: with the context at hand, a
        /// reading that uses it ("turn on the lights" on a satellite in the kitchen: the
        /// kitchen's) wins over an equal one that does not.
        var filledContext = 0
    }

    /// The most `candidate`'s cost can fall if its open sets' queries know every unknown word;
    /// `nil` when no unknown word is an open set's (a closed set's unknown name stays unknown).
    func openRecovery(_ candidate: Scored) -> Float? {
        let open = candidate.match.unknown.filter { name in
            candidate.phrase.slots[name].map { vocabularies[$0].isOpen } == true
        }
        guard !open.isEmpty else { return nil }
        return open.compactMap { name in
            guard let words = candidate.match.values[name]?.words else { return nil }
            let length = Float(words.split(separator: " ").count)
            return Aligner.Costs.unknownOpenValue + Aligner.Costs.unknownValueExtraWord * (length - 1)
        }.reduce(0, +)
    }

    func describe(_ phrase: CompiledPhrase, _ alignment: Aligner.Result, score: Double) -> PhraseMatch {
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
                values[name]?.isFreeText = fill.isTheWords
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
    func fillFromContext(_ scored: Scored, _ context: [String: String]) -> Scored {
        var filled = scored
        for (name, key) in scored.phrase.contextValues.sorted(by: { $0.key < $1.key }) {
            if let text = context[key], let vocabulary = scored.phrase.slots[name],
                let value = vocabularies[vocabulary].value(named: text)
            {
                filled.match.values[name] = MatchedValue(
                    words: "", title: value.title, value: value.value, isKnown: true)
                filled.filledContext += 1
            } else {
                filled.missingContext += 1
                if !filled.match.missing.contains(name) { filled.match.missing.append(name) }
            }
        }
        return filled
    }

    /// Asks an open set's query (an ``EntityStringQuery``) about words the vocabulary did not
    /// know; words it recognises stop counting as unknown.
    func resolveOpenValues(_ scored: Scored, answers: inout [String: [NamedValue]]) async -> Scored {
        guard let intent = scored.phrase.intent, let definition = app.intent(intent) else { return scored }
        var match = scored.match
        var values = match.values
        var stillUnknown: [String] = []
        var cost = scored.cost
        for name in match.unknown {
            guard let slot = scored.phrase.slots[name], vocabularies[slot].isOpen, let said = values[name]
            else {
                stillUnknown.append(name)
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
            length: scored.length, id: scored.id, namedWords: scored.namedWords,
            placeWords: scored.placeWords, nameChoices: scored.nameChoices,
            unknownKindSize: scored.unknownKindSize)
    }

    /// Best first: the higher score, then the more words matched; between equals, by what the
    /// phrase and the reading say, never by where the phrase was declared.
    static func ranksBefore(_ first: Scored, _ second: Scored) -> Bool {
        if first.match.score != second.match.score { return first.match.score > second.match.score }
        if first.match.matchedWords != second.match.matchedWords {
            return first.match.matchedWords > second.match.matchedWords
        }
        if first.isNegative != second.isNegative { return !first.isNegative }
        // In this order, each made only when the ones before it are equal.
        let specificities = (specificity(first), specificity(second))
        if specificities.0 != specificities.1 { return specificities.0 > specificities.1 }
        if first.match.phrase != second.match.phrase { return first.match.phrase < second.match.phrase }
        let readings = (reading(first.match), reading(second.match))
        if readings.0 != readings.1 { return readings.0 < readings.1 }
        return first.match.source.description < second.match.source.description
    }

    /// How specific a reading is, most telling first:
    /// 1. whether it needs no context it lacks;
    /// 2. the words its known names take, places aside ("the bedroom lamp" as one device);
    /// 3. its written words matched, so that the phrase's own words come before a place's name
    ///    ("open the garage door" by a phrase that says "garage door", not the room Garage);
    /// 4. the words places' names take;
    /// 5. how much of the context it uses: the context decides only between readings that fit
    ///    the sentence as well ("play the office in the kitchen" said in the bedroom names its
    ///    room; "turn off the lights" said there is the bedroom's);
    /// 6. how many names the sets taking its unknown words hold;
    /// 7. the fewer names its sets of known names offer (a phrase narrowed to doors before one
    ///    that takes any device), then the more values the phrase sets itself.
    static func specificity(_ candidate: Scored) -> Specificity {
        Specificity(
            context: -candidate.missingContext, usedContext: candidate.filledContext,
            namedWords: candidate.namedWords, writtenWords: candidate.match.matchedWords,
            placeWords: candidate.placeWords, unknownKindSize: candidate.unknownKindSize,
            fewerChoices: -candidate.nameChoices, fixedValues: candidate.phrase.fixedValues.count)
    }

    /// ``specificity(_:)``'s measures, compared in their order; greater is more specific.
    struct Specificity: Comparable {
        var context, usedContext, namedWords, writtenWords, placeWords, unknownKindSize: Int
        var fewerChoices, fixedValues: Int

        static func < (first: Specificity, second: Specificity) -> Bool {
            let leading = (
                (first.context, first.namedWords, first.writtenWords, first.placeWords),
                (second.context, second.namedWords, second.writtenWords, second.placeWords)
            )
            if leading.0 != leading.1 { return leading.0 < leading.1 }
            return (first.usedContext, first.unknownKindSize, first.fewerChoices, first.fixedValues)
                < (second.usedContext, second.unknownKindSize, second.fewerChoices, second.fixedValues)
        }
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
