import PhraseMatching
import VoiceIntents
import VoiceRecognition

extension WordGraph {
    /// The graph of an app's spoken forms: every phrase without free text, or whose free text
    /// has suggestions (as the JSGF of `SpeechGrammar`), after an optional wake phrase that may also be said alone, minimised.
    /// With a `garbage` model, a marker arc from the start to the end stands for the
    /// whole-utterance garbage loop, and (when the model has a `GarbageModel/value`
    /// probability) one in every slot of names stands for a loop in place of a name.
    /// `namesAsOneWord` says a name of several words as one word (`CompoundWord`); each of
    /// `hesitations` may come before a command. With `joinsCommands`, a command may be followed
    /// by a joiner (``PhraseMatcher/joiners``: "and", "and then", "then") and another command.
    /// With `freeText`, a phrase whose slot takes free text without suggestions is in the graph,
    /// the slot one ``FreeTextWords/marker`` arc (the FSG's loop of words); a slot of free text
    /// with suggestions takes the marker beside them, so that other words are heard too.
    init(
        _ forms: SpokenForms, wakePhrase: [String]? = nil, garbage: GarbageModel? = nil,
        namesAsOneWord: Bool = true, hesitations: [String] = [], joinsCommands: Bool = false,
        freeText: Bool = false
    ) {
        var builder = Builder(applicationNames: SpeechGrammar.applicationNames(forms))
        builder.valueGarbage = garbage?.value != nil
        builder.namesAsOneWord = namesAsOneWord
        builder.freeText = freeText
        let end = builder.graph.addState()
        let commands = builder.graph.addState()
        // A command, after one of the hesitations or none.
        let hesitated = [[]] + hesitations.map { [$0] }
        builder.graph.connect(builder.graph.choice(hesitated, from: builder.graph.start), commands)
        if let wakePhrase {
            let woken = builder.graph.chain(wakePhrase, from: builder.graph.start)
            builder.graph.connect(builder.graph.choice(hesitated, from: woken), commands)
            builder.graph.connect(woken, end)
        }
        // Where a command ends: the utterance may end there, or, joining commands, go on with
        // another.
        let said = builder.graph.addState()
        builder.graph.connect(said, end)
        for phrase in forms.phrases where SpeechGrammar.canWrite(phrase, freeText: freeText) {
            let last = builder.sequence(phrase.elements, phrase.placeholders, from: commands)
            builder.graph.connect(last, said)
        }
        if joinsCommands {
            // Through a marker that says nothing: the FSG makes it unlikely (`joinProbability`).
            let joining = builder.graph.addState()
            builder.graph.connect(said, joining, saying: WordGraph.joinMarker)
            builder.graph.connect(builder.graph.choice(PhraseMatcher.joiners, from: joining), commands)
        }
        builder.graph.finals = [end]
        self = builder.graph.minimized()
        if garbage != nil {
            // A final state of its own: a final state of the commands may have arcs of its own
            // ("… in travel tracking"), which garbage must not lead into.
            let end = addState()
            finals.insert(end)
            connect(start, end, saying: GarbageModel.utteranceMarker)
        }
    }

    /// Adds the elements of phrases to a graph.
    struct Builder {
        var graph = WordGraph()
        let applicationNames: [[String]]
        /// Whether slots of names get a garbage loop marker as one more choice.
        var valueGarbage = false
        /// Whether a name of several words is one word (`CompoundWord`).
        var namesAsOneWord = true
        /// Whether slots of free text with suggestions take a ``FreeTextWords/marker`` beside
        /// them.
        var freeText = false

        /// Contractions by the words they stand for: ["what", "is"] → "what's".
        static let contractions = Dictionary(
            TextNormalizer.contractions.filter { $0.key.contains("'") }.map { ($0.value, $0.key) },
            uniquingKeysWith: min)

        mutating func sequence(
            _ elements: [PhraseElement], _ placeholders: [String: SpokenForms.Values], from: Int
        ) -> Int {
            var state = from
            var index = elements.startIndex
            while index < elements.endIndex {
                // Phrases are normalised ("what is"); people say "what's" as often.
                if index + 1 < elements.endIndex, case .word(let first) = elements[index],
                    case .word(let second) = elements[index + 1],
                    let contraction = Self.contractions[[first, second]]
                {
                    state = graph.choice([[first, second], [contraction]], from: state)
                    index += 2
                    continue
                }
                state = element(elements[index], placeholders, from: state)
                index += 1
            }
            return state
        }

        mutating func element(
            _ element: PhraseElement, _ placeholders: [String: SpokenForms.Values], from: Int
        ) -> Int {
            switch element {
            case .word(let word):
                return graph.chain(NumberWords.spokenToken(word), from: from)
            case .applicationName:
                return graph.choice(applicationNames, from: from)
            case .placeholder(let name):
                guard let values = placeholders[name] else { return from }
                return self.values(values, from: from)
            case .optional(let inner):
                let end = sequence(inner, placeholders, from: from)
                graph.connect(from, end)
                return end
            case .alternatives(let branches):
                let end = graph.addState()
                for branch in branches { graph.connect(sequence(branch, placeholders, from: from), end) }
                return end
            case .permutation(let parts):
                let end = graph.addState()
                for order in SpeechGrammar.Writer.orders(of: parts) {
                    graph.connect(sequence(order.flatMap { $0 }, placeholders, from: from), end)
                }
                return end
            }
        }

        mutating func values(_ values: SpokenForms.Values, from: Int) -> Int {
            switch values {
            case .names(let names), .suggestedText(let names):
                // A name of several words is one word to the recognizer (`CompoundWord`).
                let spoken = names.map { CompoundWord.searchWords(of: $0, asOneWord: namesAsOneWord) }
                // Suggestions, and with free text any other words: "toothpaste" beside "eggs".
                let others: [[String]] =
                    if freeText, case .suggestedText = values {
                        [[FreeTextWords.marker]]
                    } else if valueGarbage {
                        [[GarbageModel.valueMarker]]
                    } else { [] }
                return graph.choice(spoken + others, from: from)
            case .integer(let largest):
                return number(from: from, largest: largest)
            case .decimal(let largest):
                let whole = number(from: from, largest: largest)
                let point = graph.chain(["point"], from: whole)
                let digits = graph.choice(NumberWords.units.map { [$0] }, from: point)
                graph.connect(graph.choice(NumberWords.units.map { [$0] }, from: digits), digits)
                let end = graph.addState()
                graph.connect(whole, end)
                graph.connect(digits, end)
                // "and a half", "and three quarters"
                graph.connect(graph.choice(NumberWords.fractions, from: whole), end)
                return end
            case .boolean:
                return graph.choice([["yes"], ["no"], ["true"], ["false"]], from: from)
            case .date:
                let end = graph.choice([["today"], ["tomorrow"], ["yesterday"]], from: from)
                let qualifier = graph.choice([["next"], ["this"], []], from: from)
                let day = graph.choice(NumberWords.weekdays.map { [$0] }, from: qualifier)
                graph.connect(day, end)
                return end
            case .freeText:
                return graph.chain([FreeTextWords.marker], from: from)
            case .url:
                return from
            }
        }

        /// Numbers as `NumberWords/grammar(largest:)` says them: up to ninety-nine when `largest`
        /// is under a hundred (no tens word above it), up to the hundreds ("one hundred and
        /// twenty", "twelve hundred") under a thousand, else up to the thousands ("two thousand
        /// five hundred").
        mutating func number(from: Int, largest: Double?) -> Int {
            let end = graph.addState()
            graph.connect(graph.choice([["a", "dozen"], ["a", "couple"]], from: from), end)
            let limit = largest ?? .infinity
            if limit < 100 {
                graph.connect(belowHundred(from: from, largest: limit), end)
            } else if limit < 1_000 {
                graph.connect(belowThousand(from: from), end)
            } else {
                let below = belowThousand(from: from)
                graph.connect(below, end)
                graph.connect(belowThousand(from: scale(below, from: from, by: "thousand", into: end)), end)
            }
            return end
        }

        /// Zero to ninety-nine, with no word that starts a number above `largest`
        /// (`NumberWords/belowHundred(largest:)`).
        private mutating func belowHundred(from: Int, largest: Double = .infinity) -> Int {
            let words = NumberWords.belowHundred(largest: largest)
            let end = graph.choice(words.single.map { [$0] }, from: from)
            guard !words.tens.isEmpty else { return end }
            let tens = graph.choice(words.tens.map { [$0] }, from: from)
            graph.connect(tens, end)
            graph.connect(graph.choice(NumberWords.units.dropFirst().map { [$0] }, from: tens), end)
            return end
        }

        /// Zero to nine hundred and ninety-nine, and hundreds said as "twelve hundred".
        private mutating func belowThousand(from: Int) -> Int {
            let end = graph.addState()
            let small = belowHundred(from: from)
            graph.connect(small, end)
            graph.connect(belowHundred(from: scale(small, from: from, by: "hundred", into: end)), end)
            return end
        }

        /// `count` (the state after a number's words from `from`) or "a", then `word` ("hundred",
        /// "thousand"), into `end`; returns the state after `word` and an optional "and", where
        /// the rest of the number goes on ("one hundred and five").
        private mutating func scale(_ count: Int, from: Int, by word: String, into end: Int) -> Int {
            let times = graph.addState()
            graph.connect(count, times)
            graph.connect(graph.chain(["a"], from: from), times)
            let scaled = graph.chain([word], from: times)
            graph.connect(scaled, end)
            let next = graph.addState()
            graph.connect(scaled, next)
            graph.connect(graph.chain(["and"], from: scaled), next)
            return next
        }
    }
}
