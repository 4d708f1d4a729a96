import PhraseMatching
import VoiceRecognition

/// Two things an app lets people say that sound alike: two values of one parameter type, or two
/// phrases of different intents (or a negative phrase and a command). Found by
/// ``ConfusabilityCheck``.
///
/// ```swift
/// for confusion in ConfusabilityCheck().confusions(in: matcher.spokenForms, pronunciation: lookUp) {
///     print(confusion.diagnostic)   // Swift: warning: "Kyoto": sounds like "Tokyo" …
/// }
/// ```
package struct Confusion: Sendable {
    /// What sounds alike.
    package enum Kind: Sendable, Hashable {
        /// Two values of the type named (`LandmarkEntity`).
        case values(typeName: String)
        /// Two phrases.
        case phrases
    }

    /// One of the two.
    package struct Side: Sendable {
        /// The phrase as written, or the value's title.
        package let text: String
        /// The phrase's intent (`nil` for a negative phrase or a value).
        package let intent: String?
        /// Where it was declared.
        package let source: PhraseSource
        /// The closest form of it, as words: a phrase's with placeholders as `${name}` and the
        /// app's name as `${applicationName}`, or the value's name (the title or a synonym).
        package let words: [String]
        /// The words that differ from the other side's closest form (none: it has only extra
        /// words on the other side).
        package let differingWords: [String]
        /// The phones of ``differingWords``, as CMU phones.
        package let differingPhones: String
    }

    package let kind: Kind
    package let first: Side
    package let second: Side
    /// The phone distance between the two closest forms (see `PhoneDistance`); 0 for words that
    /// are said the same (homophones).
    package let distance: Double
    /// The number of phones of the longer of the two differing parts: the words that differ in
    /// two phrases, or the two names of values (a placeholder or the app's name counts three).
    package let length: Double

    /// How much of what tells the two apart differs: ``distance`` over ``length``, from 0 (said
    /// the same) to about 1 (nothing alike).
    package var ratio: Double { length > 0 ? distance / length : 0 }

    /// The finding as a lint warning at the first side's source:
    /// `file:line:column: warning: "phrase": message`.
    package var diagnostic: PhraseDiagnostic {
        let distance = "phone distance \(Self.format(distance)) in \(Self.format(length)) phones"
        let differs =
            "\(Self.quote(first.differingWords)) (\(first.differingPhones)) vs "
            + "\(Self.quote(second.differingWords)) (\(second.differingPhones))"
        let message: String
        switch kind {
        case .values(let typeName):
            message =
                "sounds like \"\(second.text)\" (both \(typeName)): \(differs), \(distance); "
                + "rename one, or give one a synonym that sounds different"
        case .phrases:
            let other =
                second.intent.map { "\($0)'s \"\(second.text)\"" } ?? "the negative phrase \"\(second.text)\""
            let mine = first.intent ?? "this negative phrase"
            message =
                "\(mine) sounds like \(other) (\(second.source)): \"\(first.words.joined(separator: " "))\" "
                + "and \"\(second.words.joined(separator: " "))\" differ only in \(differs), \(distance); "
                + "rephrase one so the words that tell them apart sound more different"
        }
        return PhraseDiagnostic(
            severity: .warning, source: first.source, phrase: first.text, message: message)
    }

    private static func quote(_ words: [String]) -> String {
        words.isEmpty ? "nothing" : "\"\(words.joined(separator: " "))\""
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String((value * 100).rounded() / 100)
    }
}
