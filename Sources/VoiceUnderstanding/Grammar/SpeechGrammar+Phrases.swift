import PhraseMatching
import VoiceIntents
import VoiceRecognition

extension SpeechGrammar {
    /// Whether the grammar lets someone say `sentence` (written as a user would: "Find 2 tickets
    /// for Machu Picchu!"), so the recognizer can hear it word for word. Sentences that lean on
    /// the matcher's tolerance (an extra word, a misspelt name) are not in the grammar.
    package func canSay(_ sentence: String) -> Bool {
        graph.accepts(Self.spokenWords(sentence).joined(separator: " "))
    }

    /// Whether `sentence` is a whole sentence of the grammar, and whether the grammar lets more
    /// words follow it that could change what it means ("turn on the lights" may go on "in the
    /// kitchen"; "switch to the world map" only "in travel tracking", which says nothing new):
    /// what the end of speech asks at a pause.
    package func reading(of sentence: String) -> (isWhole: Bool, canGoOn: Bool) {
        reading(ofHeard: Self.spokenWords(sentence).joined(separator: " "))
    }

    /// The words of `sentence` as the grammar spells them: normalised, numbers as words.
    package static func spokenWords(_ sentence: String) -> [String] {
        TextNormalizer.tokens(sentence).flatMap { NumberWords.spokenToken($0.text) }
    }

    /// Writes the grammar of `forms`.
    ///
    /// With a wake phrase, the grammar hears the wake phrase alone, the wake phrase followed by a
    /// command, or a command alone: keyword spotting found the wake phrase too rarely and
    /// mistook commands that end in the app's name for it, while a wake phrase folded into the
    /// grammar kept every command (see Benchmarks/Recognition/README.md).
    ///
    /// - Parameters:
    ///   - forms: The app's spoken forms (`PhraseMatcher/spokenForms`).
    ///   - name: The grammar's name.
    ///   - wakePhrase: Words that wake the app ("Hey Travel Tracking"), or `nil`.
    ///   - garbage: A garbage path for sounds that are not commands, or `nil` (the default).
    ///   - namesAsOneWord: Whether a name of several words is one word to the recognizer
    ///     (`CompoundWord`; the default): a graph with fewer states, searched faster. `false`
    ///     is the speech benchmark's baseline.
    ///   - hesitations: Words a command may begin with, after the wake phrase if there is one
    ///     (``hesitations``, the default; `[]` for none).
    ///   - joinsCommands: Whether a command may be followed by "and", "and then" or "then" and
    ///     another command, in one utterance (``PhraseMatcher/matchJoined(_:context:whole:)``
    ///     reads them). What may follow a whole command for the end of speech stays as without:
    ///     a pause after a command ends it as before.
    ///   - freeText: The words a free-text slot is heard as (``FreeTextWords``): a phrase with
    ///     one without suggestions is in the grammar, its slot a loop of them, and a slot with
    ///     suggestions takes the loop beside them. `nil` (the default) leaves the phrases without
    ///     suggestions out (``freeTextPhrases``) and hears only the suggestions.
    package init(
        _ forms: SpokenForms, name: String, wakePhrase: String? = nil, garbage: GarbageModel? = nil,
        namesAsOneWord: Bool = true, hesitations: [String] = SpeechGrammar.hesitations,
        joinsCommands: Bool = false, freeText: FreeTextWords? = nil
    ) {
        let wake = wakePhrase.map(Self.spokenWords).flatMap { $0.isEmpty ? nil : $0 }
        var writer = Writer()
        writer.freeText = freeText
        let application = Self.applicationNames(forms).map { $0.joined(separator: " ") }
        var alternatives: [String] = []
        var skipped = 0
        for phrase in forms.phrases {
            guard Self.canWrite(phrase, freeText: freeText != nil) else {
                skipped += 1
                continue
            }
            let body = writer.sequence(phrase.elements, phrase.placeholders)
            if !body.isEmpty, !alternatives.contains(body) { alternatives.append(body) }
        }
        var lines = ["#JSGF V1.0;", "", "grammar \(Writer.identifier(name));", ""]
        let said = joinsCommands ? "<commands>" : "<command>"
        let hesitated = hesitations.isEmpty ? said : "[ <hesitation> ] \(said)"
        if let wake {
            lines.append(
                "public <utterance> = \(wake.joined(separator: " ")) [ \(hesitated) ] | \(hesitated);")
            lines.append("")
        } else if !hesitations.isEmpty {
            lines.append("public <utterance> = \(hesitated);")
            lines.append("")
        }
        if joinsCommands {
            let joiners = PhraseMatcher.joiners.map { $0.joined(separator: " ") }.joined(separator: " | ")
            writer.words.formUnion(PhraseMatcher.joiners.joined())
            lines.append(
                (wake == nil && hesitations.isEmpty ? "public " : "")
                    + "<commands> = <command> ( ( \(joiners) ) <command> )*;")
            lines.append("")
        }
        lines.append(
            (wake == nil && hesitations.isEmpty && !joinsCommands ? "public " : "") + "<command> = "
                + alternatives.map { "( \($0) )" }.joined(separator: "\n    | ") + ";")
        lines.append("")
        // JSGF has no empty alternative: an app without spoken names matches nothing there.
        lines.append(
            "<app> = " + (application.isEmpty ? "<VOID>" : application.joined(separator: " | ")) + ";")
        if let rule = writer.hesitationRule(hesitations) { lines.append(rule) }
        for (rule, body) in writer.rules.sorted(by: { $0.key < $1.key }) {
            lines.append("<\(rule)> = \(body);")
        }
        var words = writer.words
        for name in application { words.formUnion(name.split(separator: " ").map(String.init)) }
        let graph = WordGraph(
            forms, wakePhrase: wake, garbage: garbage, namesAsOneWord: namesAsOneWord,
            hesitations: hesitations, joinsCommands: joinsCommands, freeText: freeText != nil)
        // What may follow a whole command and change what it means: never a joiner, so that the
        // end of speech after a command is as without joining.
        let plain = forms.withoutEndingsThatSayNothing ?? (joinsCommands ? forms : nil)
        let news = plain.map {
            WordGraph(
                $0, wakePhrase: wake, namesAsOneWord: namesAsOneWord, hesitations: hesitations,
                freeText: freeText != nil)
        }
        let nameWords = Set(
            forms.phrases.flatMap(\.placeholders.values).flatMap { values -> [String] in
                switch values {
                case .names(let names), .suggestedText(let names):
                    return names.compactMap {
                        CompoundWord.searchWords(of: $0, asOneWord: namesAsOneWord).first
                    }
                default: return []
                }
            })
        self.init(
            name: Writer.identifier(name), jsgf: lines.joined(separator: "\n") + "\n", words: words,
            graph: graph,
            garbage: garbage, wakePhrase: wake, nameWords: nameWords, hesitationWords: Set(hesitations),
            isCommands: true, freeTextPhrases: skipped, news: news, freeText: freeText)
    }

    /// What may be said over a reply the app is speaking: any of the app's commands in `forms`,
    /// or a cancel word ("stop", "never mind"). No wake phrase (the app is already speaking to
    /// the person) and no garbage path; heard as answers are, at once: what is left of a reply's
    /// echo keeps a search of commands waiting for more words until the reply ends, and it is
    /// told from a person by how much of it an echo canceller let through, not by the search.
    package static func commandsOrCancel(_ forms: SpokenForms, name: String) -> SpeechGrammar {
        let cancel = SpokenAnswer.cancelPhrases.map { phrase in
            SpokenForms.Phrase(intent: nil, elements: spokenWords(phrase).map(PhraseElement.word))
        }
        let commands = SpeechGrammar(
            SpokenForms(
                applicationNames: forms.applicationNames, phrases: forms.phrases + cancel,
                valueNames: forms.valueNames),
            name: name)
        return SpeechGrammar(
            name: commands.name, jsgf: commands.jsgf, words: commands.words, graph: commands.graph,
            nameWords: commands.nameWords, hesitationWords: commands.hesitationWords,
            freeTextPhrases: commands.freeTextPhrases)
    }

    /// Whether a grammar can hold `phrase`: none of its placeholders takes a web address, nor
    /// free text without suggestions unless the grammar has words for it (`freeText`).
    static func canWrite(_ phrase: SpokenForms.Phrase, freeText: Bool = false) -> Bool {
        !phrase.placeholders.values.contains { $0 == .url || ($0 == .freeText && !freeText) }
    }

    /// The app's names as words to say. A name written as one word ("traveltracking") is left
    /// out when it is another name run together: it sounds the same, and the recognizer would
    /// pick either.
    static func applicationNames(_ forms: SpokenForms) -> [[String]] {
        let names = forms.applicationNames.map { $0.flatMap(NumberWords.spokenToken) }
        let runTogether = Set(names.filter { $0.count > 1 }.map { $0.joined() })
        return names.filter { $0.count > 1 || !runTogether.contains($0[0]) }
    }

    /// Builds rule bodies and collects the words they use.
    struct Writer {
        var rules: [String: String] = [:]
        var words = Set<String>()
        /// The words of free-text slots; `nil` when they are left out.
        var freeText: FreeTextWords?
        private var valueRules: [SpokenForms.Values: String] = [:]

        static func identifier(_ name: String) -> String {
            let cleaned = name.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "_" }
            return String(cleaned)
        }

        /// A token as a word to say: digits spelled out.
        static func spoken(_ token: String) -> String {
            if let number = Int(token) { return NumberWords.spell(number) }
            return token
        }

        /// The `<hesitation>` rule line for `hesitations`, its words counted; `nil` for none.
        mutating func hesitationRule(_ hesitations: [String]) -> String? {
            guard !hesitations.isEmpty else { return nil }
            words.formUnion(hesitations)
            return "<hesitation> = \(hesitations.joined(separator: " | "));"
        }

        mutating func sequence(_ elements: [PhraseElement], _ placeholders: [String: SpokenForms.Values])
            -> String
        {
            elements.map { element(in: $0, placeholders) }.filter { !$0.isEmpty }.joined(separator: " ")
        }

        mutating func element(in element: PhraseElement, _ placeholders: [String: SpokenForms.Values])
            -> String
        {
            switch element {
            case .word(let word):
                let spoken = Self.spoken(word)
                words.formUnion(spoken.split(separator: " ").map(String.init))
                return spoken
            case .applicationName:
                return "<app>"
            case .placeholder(let name):
                return placeholders[name].map { rule(for: $0) } ?? ""
            case .optional(let inner):
                let body = sequence(inner, placeholders)
                return body.isEmpty ? "" : "[ \(body) ]"
            case .alternatives(let branches):
                let bodies = branches.map { sequence($0, placeholders) }
                let filled = bodies.filter { !$0.isEmpty }
                guard !filled.isEmpty else { return "" }
                let group = "( " + filled.joined(separator: " | ") + " )"
                // An empty alternative makes the group optional.
                return filled.count < bodies.count ? "[ \(group) ]" : group
            case .permutation(let parts):
                let orders = Self.orders(of: parts).map { sequence($0.flatMap { $0 }, placeholders) }
                return "( " + orders.joined(separator: " | ") + " )"
            }
        }

        static func orders(of parts: [[PhraseElement]]) -> [[[PhraseElement]]] {
            guard parts.count > 1 else { return [parts] }
            return parts.indices.flatMap { index in
                var rest = parts
                let first = rest.remove(at: index)
                return orders(of: rest).map { [first] + $0 }
            }
        }

        /// The rule for a kind of value, written once.
        mutating func rule(for values: SpokenForms.Values) -> String {
            if let existing = valueRules[values] { return "<\(existing)>" }
            let name: String
            let body: String
            switch values {
            case .names(let names), .suggestedText(let names):
                name = "value\(valueRules.count)"
                var spoken = Set(names.map { $0.map(Self.spoken).joined(separator: " ") }).sorted()
                for phrase in spoken { words.formUnion(phrase.split(separator: " ").map(String.init)) }
                // Suggestions, and with free text any other words.
                if case .suggestedText = values, freeText != nil { spoken.append(rule(for: .freeText)) }
                body = spoken.isEmpty ? "<VOID>" : spoken.joined(separator: " | ")
            case .integer(let largest):
                name = "number\(valueRules.count)"
                body = NumberWords.grammar(largest: largest)
                words.formUnion(NumberWords.words)
            case .decimal(let largest):
                name = "decimal\(valueRules.count)"
                let whole = rule(for: .integer(largest: largest))
                let fractions = NumberWords.fractions.map { $0.joined(separator: " ") }.joined(
                    separator: " | ")
                body =
                    "\(whole) [ point ( \(NumberWords.units.joined(separator: " | ")) )+ | \(fractions) ]"
                words.formUnion(
                    ["point", "half", "quarter", "quarters"] + NumberWords.units + NumberWords.words)
            case .boolean:
                name = "yes_no"
                body = "yes | no | true | false"
                words.formUnion(["yes", "no", "true", "false"])
            case .date:
                name = "day"
                let days = NumberWords.weekdays
                body = "today | tomorrow | yesterday | [ next | this ] ( \(days.joined(separator: " | ")) )"
                words.formUnion(["today", "tomorrow", "yesterday", "next", "this"] + days)
            case .freeText:
                guard let freeText else { return "" }
                name = "free_text"
                body = "( \(freeText.words.joined(separator: " | ")) )+"
                words.formUnion(freeText.words)
            case .url:
                return ""
            }
            valueRules[values] = name
            rules[name] = body
            return "<\(name)>"
        }
    }
}

extension SpokenForms {
    /// The same phrases with the endings that say nothing new left out: optional parts that take
    /// no value, and the app's name with the word before it ("in", "according to"): "how busy is
    /// [the] ${landmark} [right now] [in ${applicationName}]" → "how busy is [the] ${landmark}",
    /// "what is the closest landmark in ${applicationName}" → "what is the closest landmark".
    /// Said or not, they leave the intent and its values as they were (the app's name picks the
    /// app, and the grammar is one app's). `nil` when no phrase ends so.
    var withoutEndingsThatSayNothing: SpokenForms? {
        var changed = false
        let phrases = phrases.map { phrase in
            var elements = phrase.elements
            while let last = elements.last {
                if case .optional(let inner) = last,
                    PhrasePattern(elements: inner, text: "").placeholders.isEmpty
                {
                    elements.removeLast()
                } else if last == .applicationName {
                    elements.removeLast()
                    if let before = elements.last, before.isAConnectingWord { elements.removeLast() }
                } else {
                    break
                }
            }
            guard elements.count < phrase.elements.count, !elements.isEmpty else { return phrase }
            changed = true
            return Phrase(
                intent: phrase.intent, elements: elements, placeholders: phrase.placeholders,
                source: phrase.source, text: phrase.text)
        }
        return changed
            ? SpokenForms(applicationNames: applicationNames, phrases: phrases, valueNames: valueNames) : nil
    }
}

extension PhraseElement {
    /// Whether the element is a word, or a choice of one or two words ("in | on | according to"),
    /// as comes before the app's name.
    var isAConnectingWord: Bool {
        switch self {
        case .word: true
        case .alternatives(let branches):
            branches.allSatisfy { branch in
                (1...2).contains(branch.count)
                    && branch.allSatisfy { if case .word = $0 { true } else { false } }
            }
        default: false
        }
    }
}
