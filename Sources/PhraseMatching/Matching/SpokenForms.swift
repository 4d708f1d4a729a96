import VoiceIntents

/// What an app's phrases let people say, for grammar generators: each phrase's elements and
/// what each of its placeholders accepts.
///
/// ```swift
/// for phrase in matcher.spokenForms.phrases { … }
/// ```
public struct SpokenForms: Sendable {
    /// What a placeholder accepts.
    public enum Values: Sendable, Hashable {
        /// One of these names, each as its normalised words.
        case names([[String]])
        /// A whole number, at most `largest` when the parameter is bounded (`inclusiveRange:`): a
        /// grammar says numbers only as large as it takes (up to the thousands when unbounded).
        case integer(largest: Double? = nil)
        /// A number with an optional fraction ("point five", "and a half"), at most `largest`.
        case decimal(largest: Double? = nil)
        /// Yes or no.
        case boolean
        /// A day: today, tomorrow, a weekday.
        case date
        /// Any words (dictation).
        case freeText
        /// Any words, of which these are the likely ones, each as its normalised words: the
        /// values a parameter's `DynamicOptionsProvider` suggested when the matcher was made
        /// (book titles from a catalogue). A grammar says only these; the matcher takes any words.
        case suggestedText([[String]])
        /// A web address.
        case url
    }

    /// One phrase as spoken forms.
    public struct Phrase: Sendable {
        /// The intent's identifier, or `nil` for a negative phrase.
        public let intent: String?
        public let elements: [PhraseElement]
        /// What each placeholder accepts, by name.
        public let placeholders: [String: Values]
        /// Where the phrase was declared, for diagnostics.
        public let source: PhraseSource
        /// The phrase as written (`"(go | take me) to [the] ${navigationOption}"`).
        public let text: String

        /// A phrase written directly, for grammars that do not come from an app's catalog (such
        /// as a benchmark's grammar of recorded sentences).
        ///
        /// - Parameters:
        ///   - intent: The intent's identifier, or `nil` for a negative phrase.
        ///   - elements: What is said, in order.
        ///   - placeholders: What each placeholder in `elements` accepts, by name.
        ///   - source: Where the phrase was declared.
        ///   - text: The phrase as written; by default, `elements` written in the catalog syntax.
        public init(
            intent: String?, elements: [PhraseElement], placeholders: [String: Values] = [:],
            source: PhraseSource = .swift, text: String? = nil
        ) {
            self.intent = intent
            self.elements = elements
            self.placeholders = placeholders
            self.source = source
            self.text = text ?? PhraseElement.text(of: elements)
        }
    }

    /// The names of one type's values (an enum's cases, an entity's suggested values), each value
    /// with its synonyms, for checks that compare values with one another.
    public struct ValueNames: Sendable {
        /// One value: its title and every name it is known by.
        public struct Value: Sendable {
            /// The title ("Kinkaku-ji").
            public let title: String
            /// Every name, the title first, as normalised words (`[["kinkaku", "ji"], ["kyoto"]]`).
            public let names: [[String]]

            public init(title: String, names: [[String]]) {
                self.title = title
                self.names = names
            }
        }

        /// The Swift type's name (`LandmarkEntity`).
        public let typeName: String
        /// The parameters that take these values (`["landmark", "target"]`).
        public let parameters: [String]
        public let values: [Value]

        /// Values written directly.
        ///
        /// ```swift
        /// let sections = SpokenForms.ValueNames(typeName: "NavigationOption", parameters: ["navigationOption"],
        ///     values: [.init(title: "Map", names: [["map"], ["world", "map"]])])
        /// ```
        ///
        /// - Parameters:
        ///   - typeName: The Swift type's name.
        ///   - parameters: The parameters that take these values.
        ///   - values: Each value with its names.
        public init(typeName: String, parameters: [String], values: [Value]) {
            self.typeName = typeName
            self.parameters = parameters
            self.values = values
        }
    }

    /// The app's spoken names, as normalised words.
    public let applicationNames: [[String]]
    public let phrases: [Phrase]
    /// The named values of each enum and entity type the app's parameters take.
    public let valueNames: [ValueNames]

    /// Spoken forms written directly rather than read from a ``PhraseMatcher``.
    ///
    /// ```swift
    /// let forms = SpokenForms(phrases: [
    ///     SpokenForms.Phrase(intent: "move", elements: [.word("go"), .word("forward")])
    /// ])
    /// ```
    ///
    /// - Parameters:
    ///   - applicationNames: The app's spoken names, as normalised words (none: the phrases do
    ///     not use ``PhraseElement/applicationName``).
    ///   - phrases: The phrases.
    ///   - valueNames: The named values of the app's enum and entity types.
    public init(applicationNames: [[String]] = [], phrases: [Phrase], valueNames: [ValueNames] = []) {
        self.applicationNames = applicationNames
        self.phrases = phrases
        self.valueNames = valueNames
    }
}

extension PhraseMatcher {
    /// What the app's phrases let people say. A free-text placeholder whose parameter has a
    /// `DynamicOptionsProvider` is ``SpokenForms/Values/suggestedText(_:)`` with the suggestions
    /// the provider gave when the matcher was made; without one, ``SpokenForms/Values/freeText``.
    /// `elements` with each placeholder of `numberWords` said as its number or one of its words.
    static func saying(_ numberWords: [String: [[String]]], in elements: [PhraseElement]) -> [PhraseElement] {
        guard !numberWords.isEmpty else { return elements }
        return elements.map { element in
            switch element {
            case .placeholder(let name):
                guard let words = numberWords[name] else { return element }
                return .alternatives([[element]] + words.map { $0.map(PhraseElement.word) })
            case .optional(let inner): return .optional(saying(numberWords, in: inner))
            case .alternatives(let branches):
                return .alternatives(branches.map { saying(numberWords, in: $0) })
            case .permutation(let parts): return .permutation(parts.map { saying(numberWords, in: $0) })
            case .word, .applicationName: return element
            }
        }
    }

    public var spokenForms: SpokenForms {
        let values = vocabularies.map { vocabulary -> SpokenForms.Values in
            switch vocabulary.form {
            case .names: .names(vocabulary.nameWords)
            case .integer: .integer(largest: vocabulary.bounds?.upperBound)
            case .decimal: .decimal(largest: vocabulary.bounds?.upperBound)
            case .boolean: .boolean
            case .date: .date
            case .text: .freeText
            case .url: .url
            }
        }
        func placeholder(_ name: String, of intent: String?, vocabulary: Int) -> SpokenForms.Values {
            guard let intent, let suggested = suggestedText[intent]?[name] else { return values[vocabulary] }
            return .suggestedText(suggested)
        }
        // Words that may be said anywhere are said, in a grammar, before or after a phrase.
        let skip: [PhraseElement] =
            skipPhrases.isEmpty
            ? [] : [.optional([.alternatives(skipPhrases.map { $0.map(PhraseElement.word) })])]
        return SpokenForms(
            applicationNames: applicationNames.map { $0.map { words.words[Int($0)] } },
            phrases: phrases.map { phrase in
                // The placeholders the phrase says, not every parameter of its intent: a free-text
                // parameter it never names must not keep it out of a grammar.
                let said = Set(phrase.pattern.placeholders)
                // Words that stand for a number are said in the number's place ("max").
                var numberWords: [String: [[String]]] = [:]
                for (name, vocabulary) in phrase.slots where said.contains(name) {
                    let words = vocabularies[vocabulary].numberWordTokens
                    if !words.isEmpty { numberWords[name] = words }
                }
                let elements = Self.saying(numberWords, in: phrase.pattern.elements)
                return SpokenForms.Phrase(
                    intent: phrase.intent,
                    elements: elements.isEmpty ? [] : skip + elements + skip,
                    placeholders: Dictionary(
                        uniqueKeysWithValues: phrase.slots.filter { said.contains($0.key) }.map {
                            ($0.key, placeholder($0.key, of: phrase.intent, vocabulary: $0.value))
                        }),
                    source: phrase.source, text: phrase.pattern.text)
            },
            valueNames: vocabularies.indices.compactMap { index in
                let vocabulary = vocabularies[index]
                // A narrowed vocabulary's names are its type's already.
                guard vocabulary.form == .names, !narrowedVocabularies.contains(index) else { return nil }
                return SpokenForms.ValueNames(
                    typeName: vocabulary.valueType.typeName, parameters: parametersOfVocabulary[index],
                    values: vocabulary.namesByValue.map {
                        SpokenForms.ValueNames.Value(title: $0.title, names: $0.names)
                    })
            })
    }
}

extension PhraseElement {
    /// `elements` written in the catalog's phrase syntax: `(a | b) [c] ${name}`.
    static func text(of elements: [PhraseElement]) -> String {
        elements.map { element in
            switch element {
            case .word(let word): word
            case .applicationName: "${applicationName}"
            case .placeholder(let name): "${\(name)}"
            case .optional(let inner): "[\(text(of: inner))]"
            case .alternatives(let branches): "(" + branches.map(text).joined(separator: " | ") + ")"
            case .permutation(let parts): "(" + parts.map(text).joined(separator: " ; ") + ")"
            }
        }.joined(separator: " ")
    }
}
