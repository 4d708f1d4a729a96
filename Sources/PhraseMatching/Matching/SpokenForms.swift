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
        /// A whole number.
        case integer
        /// A number with an optional fraction.
        case decimal
        /// Yes or no.
        case boolean
        /// A day: today, tomorrow, a weekday.
        case date
        /// Any words (dictation).
        case freeText
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

        /// A phrase written directly, for grammars that do not come from an app's catalog (such
        /// as a benchmark's grammar of recorded sentences).
        ///
        /// - Parameters:
        ///   - intent: The intent's identifier, or `nil` for a negative phrase.
        ///   - elements: What is said, in order.
        ///   - placeholders: What each placeholder in `elements` accepts, by name.
        public init(intent: String?, elements: [PhraseElement], placeholders: [String: Values] = [:]) {
            self.intent = intent
            self.elements = elements
            self.placeholders = placeholders
        }
    }

    /// The app's spoken names, as normalised words.
    public let applicationNames: [[String]]
    public let phrases: [Phrase]

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
    public init(applicationNames: [[String]] = [], phrases: [Phrase]) {
        self.applicationNames = applicationNames
        self.phrases = phrases
    }
}

extension PhraseMatcher {
    /// What the app's phrases let people say.
    public var spokenForms: SpokenForms {
        let values = vocabularies.map { vocabulary -> SpokenForms.Values in
            switch vocabulary.form {
            case .names: .names(vocabulary.nameWords)
            case .integer: .integer
            case .decimal: .decimal
            case .boolean: .boolean
            case .date: .date
            case .text: .freeText
            case .url: .url
            }
        }
        return SpokenForms(
            applicationNames: applicationNames.map { $0.map { words.words[Int($0)] } },
            phrases: phrases.map { phrase in
                // The placeholders the phrase says, not every parameter of its intent: a free-text
                // parameter it never names must not keep it out of a grammar.
                let said = Set(phrase.pattern.placeholders)
                return SpokenForms.Phrase(
                    intent: phrase.intent, elements: phrase.pattern.elements,
                    placeholders: phrase.slots.filter { said.contains($0.key) }.mapValues { values[$0] })
            })
    }
}
