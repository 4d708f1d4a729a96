import PhraseMatching
import VoiceIntents
import VoiceRecognition

extension SpeechGrammar {
    /// What may be said in answer to a question.
    package enum Answer: Sendable, Hashable {
        /// A value: one of these names, a number, a day, yes or no ("which landmark?"). Free
        /// text with suggestions is one of the suggestions; other free text and web addresses
        /// are left out: dictation hears them.
        case values(SpokenForms.Values)
        /// A list of up to four of these values, "and" between them: "the Louvre and the
        /// Colosseum".
        case list(SpokenForms.Values)
        /// Yes or no, in the words people use for them ("yeah", "go ahead", "no thanks").
        case yesOrNo
        /// A place in a list read out: "the second one", "first", "the last".
        case ordinals
        /// Any of these sentences.
        case phrases([String])
        /// Any run of the words of these sentences: what a microphone hears of the app's own
        /// reply while it plays, so that the echo is heard as itself and not forced onto a
        /// cancel word (barge-in).
        case echo(of: [String])
    }

    /// The most values a ``Answer/list(_:)`` answer holds.
    static let longestList = 4

    /// The places in a list an answer grammar hears, in order ("first" for the first option).
    package static let ordinalWords = [
        "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
    ]

    /// The single words people say for multi-word names, as words to say: "niagara" and "falls"
    /// for "Niagara Falls", "great", "wall" and "china" for "Great Wall of China". Asked "Which
    /// landmark?", people answer "Niagara" or "the falls"; an answer grammar of whole names
    /// would force those onto some full name instead.
    ///
    /// ```swift
    /// let names = ["Niagara Falls", "Victoria Falls", "Uluru"]
    /// SpeechGrammar.shortForms(of: names)     // ["niagara", "falls", "victoria"]
    /// let grammar = SpeechGrammar(
    ///     answers: [.values(.names((names + SpeechGrammar.shortForms(of: names)).map(SpeechGrammar.spokenWords)))],
    ///     name: "landmark")
    /// ```
    ///
    /// Left out: words that join a name rather than name it ("of", "the", "and"), numbers (an
    /// answer grammar hears those as numbers and ordinals), fragments shorter than three letters
    /// ("ji" of "Kinkaku-ji"), and words that are a whole name already. Each word appears once,
    /// in the order the names give them.
    ///
    /// - Parameter names: The names, as written.
    package static func shortForms(of names: [String]) -> [String] {
        let spokenNames = names.map(spokenWords)
        let whole = Set(spokenNames.filter { $0.count == 1 }.map { $0[0] })
        var seen = Set<String>()
        var forms: [String] = []
        for words in spokenNames where words.count > 1 {
            for word in words
            where word.count >= 3 && !nameLinkWords.contains(word) && !NumberWords.words.contains(word)
                && !whole.contains(word) && seen.insert(word).inserted
            {
                forms.append(word)
            }
        }
        return forms
    }

    /// `text` without the ``hesitations`` it begins with: "um three" is "three", "uh cancel" is
    /// "cancel". What an answer grammar heard, as the conversation reads it.
    package static func withoutHesitation(_ text: String) -> String {
        let words = text.split(separator: " ")
        let said = words.drop { hesitations.contains(String($0)) }
        return said.count == words.count ? text : said.joined(separator: " ")
    }

    /// Whether `text`, as a grammar heard it, is a cancel word ("uh never mind"):
    /// ``SpokenAnswer/isCancel(_:)`` of it without the hesitations it begins with.
    package static func isCancel(heard text: String) -> Bool {
        SpokenAnswer.isCancel(withoutHesitation(text))
    }

    /// Words that join the parts of a name and are never said alone for it.
    static let nameLinkWords: Set<String> = [
        "the", "and", "for", "from", "with", "into", "onto", "upon", "del", "des", "der", "den", "die",
        "das", "von", "van", "les", "los", "las",
    ]

    /// A grammar of the answers to one question, for the recognizer to switch to while the app
    /// waits for them, with "cancel", "never mind" and "stop" always in.
    ///
    /// ```swift
    /// let which = SpeechGrammar(answers: [.values(.names([["kyoto"], ["uluru"]])), .ordinals], name: "landmark")
    /// try recognizer.useGrammar(which)        // the acoustic model stays loaded
    /// ```
    ///
    /// - Parameters:
    ///   - answers: What may be said.
    ///   - name: The grammar's name.
    ///   - cancel: Whether cancel words are in (they end the conversation at any prompt).
    ///   - hesitations: Words an answer may begin with ("um three"; ``hesitations``, the
    ///     default; `[]` for none). ``withoutHesitation(_:)`` takes them off what was heard.
    ///   - freeText: The words free text is heard as (``FreeTextWords``): a free-text value is
    ///     a loop of them, and free text with suggestions takes the loop beside them. `nil` (the
    ///     default) leaves free text to dictation and hears only the suggestions.
    package init(
        answers: [Answer], name: String, cancel: Bool = true,
        hesitations: [String] = SpeechGrammar.hesitations, freeText: FreeTextWords? = nil
    ) {
        var writer = Writer()
        writer.freeText = freeText
        var builder = WordGraph.Builder(applicationNames: [])
        builder.freeText = freeText != nil
        // Every answer begins here, after one of the hesitations or none.
        let start = builder.graph.choice([[]] + hesitations.map { [$0] }, from: builder.graph.start)
        let end = builder.graph.addState()
        var alternatives: [String] = []
        func add(_ sentences: [String]) {
            for sentence in sentences {
                let words = Self.spokenWords(sentence)
                guard !words.isEmpty else { continue }
                builder.graph.connect(builder.graph.chain(words, from: start), end)
                alternatives.append(words.joined(separator: " "))
                writer.words.formUnion(words)
            }
        }
        for answer in answers {
            switch answer {
            case .values(.freeText) where freeText != nil:
                // Any words, as a loop of the free-text words.
                builder.graph.connect(builder.values(.freeText, from: start), end)
                alternatives.append(writer.rule(for: .freeText))
            case .values(.freeText), .values(.url):
                // Any words: heard by dictation, not by a grammar.
                continue
            case .values(.names(let names)), .values(.suggestedText(let names)):
                // "Kyoto", or "the Kyoto one" as people answer from a list; free text with
                // suggestions takes other words too, when there are free-text words.
                var values = SpokenForms.Values.names(names)
                if freeText != nil, case .values(.suggestedText) = answer { values = .suggestedText(names) }
                let article = builder.graph.choice([["the"], []], from: start)
                let value = builder.values(values, from: article)
                builder.graph.connect(value, end)
                builder.graph.connect(builder.graph.chain(["one"], from: value), end)
                alternatives.append("[ the ] \(writer.rule(for: values)) [ one ]")
                writer.words.formUnion(["the", "one"])
            case .list(let values):
                // "[the] Louvre [and [the] Colosseum …]", up to four.
                var from = start
                let rule = writer.rule(for: values)
                for _ in 0..<Self.longestList {
                    let article = builder.graph.choice([["the"], []], from: from)
                    let value = builder.values(values, from: article)
                    builder.graph.connect(value, end)
                    from = builder.graph.chain(["and"], from: value)
                }
                alternatives.append(
                    "[ the ] \(rule)"
                        + String(repeating: " [ and [ the ] \(rule)", count: Self.longestList - 1)
                        + String(repeating: " ]", count: Self.longestList - 1))
                writer.words.formUnion(["the", "and"])
            case .values(let values):
                // A number, a day, yes or no, as it is: "the" and "one" around a number are no
                // number ("the eleven", and "twenty six one" read as 27).
                builder.graph.connect(builder.values(values, from: start), end)
                alternatives.append(writer.rule(for: values))
            case .yesOrNo:
                add(SpokenAnswer.yesPhrases + SpokenAnswer.noPhrases)
            case .ordinals:
                let ordinals = Self.ordinalWords + ["last"]
                let article = builder.graph.choice([["the"], []], from: start)
                let place = builder.graph.choice(ordinals.map { [$0] }, from: article)
                builder.graph.connect(place, end)
                builder.graph.connect(builder.graph.chain(["one"], from: place), end)
                alternatives.append("[ the ] ( \(ordinals.joined(separator: " | ")) ) [ one ]")
                writer.words.formUnion(ordinals + ["the", "one"])
            case .phrases(let sentences):
                add(sentences)
            case .echo(let sentences):
                let words = Set(sentences.flatMap(Self.spokenWords)).sorted()
                guard !words.isEmpty else { continue }
                let heard = builder.graph.addState()
                for word in words {
                    builder.graph.connect(start, heard, saying: word)
                    builder.graph.connect(heard, heard, saying: word)
                }
                builder.graph.connect(heard, end)
                alternatives.append("( \(words.joined(separator: " | ")) )+")
                writer.words.formUnion(words)
            }
        }
        if cancel { add(SpokenAnswer.cancelPhrases) }
        builder.graph.finals = [end]
        var lines = ["#JSGF V1.0;", "", "grammar \(Writer.identifier(name));", ""]
        if !hesitations.isEmpty {
            lines.append("public <utterance> = [ <hesitation> ] <answer>;")
            lines.append("")
        }
        lines.append(
            (hesitations.isEmpty ? "public " : "") + "<answer> = "
                + alternatives.map { "( \($0) )" }.joined(separator: "\n    | ") + ";")
        if let rule = writer.hesitationRule(hesitations) { lines.append(rule) }
        for (rule, body) in writer.rules.sorted(by: { $0.key < $1.key }) {
            lines.append("<\(rule)> = \(body);")
        }
        let graph = builder.graph.minimized()
        self.init(
            name: Writer.identifier(name), jsgf: lines.joined(separator: "\n") + "\n",
            words: writer.words.union(graph.words), graph: graph, freeText: freeText)
    }
}
