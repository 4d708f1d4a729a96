import PhraseMatching
import VoiceRecognition

extension ConfusabilityCheck {
    /// A word of a phrase's form: what is shown, and what tells it apart (placeholders of one type
    /// share a key).
    struct FormWord: Hashable {
        let text: String
        let key: String
    }

    /// One sentence a phrase allows, ready to compare.
    struct Form {
        let phrase: Int
        /// The phrase's intent, as a number (negative phrases share one).
        let intent: Int
        let words: [FormWord]
        /// The words, only literal words, with placeholders as one mark: forms that differ only
        /// in placeholders are told apart by their values, not their sounds.
        let literal: [String]
        let symbols: [PhoneDistance.Symbol]
        let weight: Int
    }

    func phraseConfusions(_ forms: SpokenForms, limit: Int, phones: inout PhoneCache) -> [Confusion] {
        var slotKeys: [SpokenForms.Values: String] = [:]
        var intents: [String?: Int] = [:]
        var all: [Form] = []
        for (index, phrase) in forms.phrases.enumerated() {
            let intent = intents[phrase.intent] ?? intents.count
            intents[phrase.intent] = intent
            let sentences = expand(phrase.elements) { name in
                guard let values = phrase.placeholders[name] else { return "?" }
                if let key = slotKeys[values] { return key }
                let key = "${slot \(slotKeys.count)}"
                slotKeys[values] = key
                return key
            }
            var seen = Set<[String]>()
            for words in sentences where seen.insert(words.map(\.key)).inserted {
                let symbols = words.flatMap { word in
                    word.key == word.text
                        ? phones.symbols(of: word.text)
                        : [PhoneDistance.Symbol(token: word.key, weight: Self.tokenWeight)]
                }
                let literal = words.map { $0.key.hasPrefix("${slot") ? "${}" : $0.key }
                all.append(
                    Form(
                        phrase: index, intent: intent, words: words, literal: literal, symbols: symbols,
                        weight: symbols.weight))
            }
        }
        all.sort { $0.weight < $1.weight }

        // The closest forms of each pair of phrases.
        let negative = intents[nil]
        var best: [Int: (units: Int, first: Form, second: Form)] = [:]
        var scratch = PhoneDistance.Scratch()
        for position in all.indices {
            let (phrase, intent, weight) = (all[position].phrase, all[position].intent, all[position].weight)
            var next = position + 1
            while next < all.count, all[next].weight - weight <= limit {
                defer { next += 1 }
                let otherIntent = all[next].intent
                guard intent != otherIntent, intent != negative || otherIntent != negative else { continue }
                let ordered = phrase < all[next].phrase ? (position, next) : (next, position)
                let pair = all[ordered.0].phrase * forms.phrases.count + all[ordered.1].phrase
                let known = best[pair]?.units
                guard known != 0,
                    let units = PhoneDistance.units(
                        all[position].symbols, all[next].symbols, limit: known.map { $0 - 1 } ?? limit,
                        scratch: &scratch),
                    all[position].literal != all[next].literal
                else { continue }
                best[pair] = (units, all[ordered.0], all[ordered.1])
            }
        }

        // One report for each pair of intents and differing words, at the first phrases declared.
        var reported = Set<[String]>()
        var confusions: [Confusion] = []
        for pair in best.keys.sorted() {
            let (units, first, second) = best[pair]!
            let (a, b) = Self.difference(first.words, second.words)
            let sides = [(first, a), (second, b)].map { form, words in
                (forms.phrases[form.phrase].intent ?? "") + ": " + words.map(\.key).joined(separator: " ")
            }
            guard reported.insert(sides.sorted()).inserted else { continue }
            func side(_ form: Form, _ differing: [FormWord]) -> Confusion.Side {
                let phrase = forms.phrases[form.phrase]
                return Confusion.Side(
                    text: phrase.text, intent: phrase.intent, source: phrase.source,
                    words: form.words.map(\.text),
                    differingWords: differing.map(\.text),
                    differingPhones: phones.text(of: differing.map(\.text)))
            }
            let span = [a, b].map { words in
                words.reduce(0) { total, word in
                    total + (word.key == word.text ? phones.symbols(of: word.text).weight : Self.tokenWeight)
                }
            }
            confusions.append(
                Confusion(
                    kind: .phrases, first: side(first, a), second: side(second, b),
                    distance: Double(units) / Double(PhoneDistance.unit),
                    length: Double(span.max()!) / Double(PhoneDistance.unit)))
        }
        return confusions
    }

    /// The words of `a` and `b` between their common beginning and common end.
    static func difference(_ a: [FormWord], _ b: [FormWord]) -> ([FormWord], [FormWord]) {
        var start = 0
        while start < min(a.count, b.count), a[start].key == b[start].key { start += 1 }
        var end = 0
        while end < min(a.count, b.count) - start, a[a.count - 1 - end].key == b[b.count - 1 - end].key {
            end += 1
        }
        return (Array(a[start..<(a.count - end)]), Array(b[start..<(b.count - end)]))
    }

    /// The sentences `elements` allow, at most ``formsPerPhrase`` of them: every combination
    /// while there are few enough, then a spread that still takes every option of each part.
    func expand(_ elements: [PhraseElement], slotKey: (String) -> String) -> [[FormWord]] {
        var sentences: [[FormWord]] = [[]]
        for element in elements {
            let options: [[FormWord]]
            switch element {
            case .word(let word):
                options = [NumberWords.spokenToken(word).map { FormWord(text: $0, key: $0) }]
            case .applicationName:
                options = [[FormWord(text: "${applicationName}", key: "${applicationName}")]]
            case .placeholder(let name):
                options = [[FormWord(text: "${\(name)}", key: slotKey(name))]]
            case .optional(let inner):
                options = [[]] + expand(inner, slotKey: slotKey)
            case .alternatives(let branches):
                options = branches.flatMap { expand($0, slotKey: slotKey) }
            case .permutation(let parts):
                options = SpeechGrammar.Writer.orders(of: parts).flatMap {
                    expand($0.flatMap { $0 }, slotKey: slotKey)
                }
            }
            sentences = Self.combine(sentences, options, limit: formsPerPhrase)
        }
        return sentences
    }

    /// Each of `prefixes` followed by each of `options`; beyond `limit`, `limit` of them in which
    /// every prefix (as far as the limit allows) and every option appear.
    static func combine(_ prefixes: [[FormWord]], _ options: [[FormWord]], limit: Int) -> [[FormWord]] {
        guard !options.isEmpty else { return prefixes }
        if prefixes.count * options.count <= limit {
            return prefixes.flatMap { prefix in options.map { prefix + $0 } }
        }
        return (0..<limit).map { index in
            prefixes[index % prefixes.count] + options[(index / prefixes.count + index) % options.count]
        }
    }
}
