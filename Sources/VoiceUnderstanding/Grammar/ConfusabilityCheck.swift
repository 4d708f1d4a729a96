import PhraseMatching
import VoiceRecognition

/// Finds what an app lets people say that sounds too much alike, before any audio is made: two
/// values of one type (landmark names, book titles, enum cases, with their synonyms), and two
/// phrases of different intents, or a negative phrase and a command.
///
/// ```swift
/// let recognizer = try SpeechRecognizer(.installed())
/// try recognizer.useGrammar(SpeechGrammar(matcher.spokenForms, name: "travel_tracking"))
/// let confusions = ConfusabilityCheck().confusions(
///     in: matcher.spokenForms, pronunciation: recognizer.pronunciation(of:))
/// ```
///
/// Sounds are compared as CMU phones with `PhoneDistance`. A pair is reported when the sounds
/// that tell it apart are few and alike: its distance is at most ``maximumDistance`` phones, and
/// at most ``maximumRatio`` of the phones of the words that differ (``Confusion/ratio``). The
/// distance is absolute rather than a share of the whole sentence, because a recognizer tells two
/// sentences apart by the sounds that differ, and the words they share do not make that easier;
/// the ratio keeps short words that are simply different ("buy" and "open") out.
///
/// - **Values**: every name of a value against every name of each other value of the same type;
///   a value's own synonyms are never compared with one another, and two values that share a name
///   word for word are left to the matcher, which asks which one was meant.
/// - **Phrases**: each phrase is expanded into at most ``formsPerPhrase`` sentences (its
///   alternatives and optional parts; beyond the limit, a deterministic spread of them). A
///   placeholder stays one token, the same for all placeholders of one type, and so does the app's
///   name; each token counts as three phones. Forms are compared only with forms of other intents
///   whose lengths are within reach of the limit, with a banded edit distance. Sentences that are
///   the same word for word are the plain lint's collisions and are not repeated here, and forms
///   that differ only in placeholders are told apart by their values; words that differ but sound
///   the same (homophones) are reported at distance 0. Each pair of intents is reported once for
///   each pair of differing words, at the first phrases that show it.
package struct ConfusabilityCheck: Sendable {
    /// The largest phone distance reported.
    package var maximumDistance: Double
    /// The largest share of the differing phones that may differ (``Confusion/ratio``) for a pair
    /// to be reported.
    package var maximumRatio: Double
    /// How many sentences of each phrase are compared at most.
    package var formsPerPhrase: Int

    /// The settings of the check.
    ///
    /// - Parameters:
    ///   - maximumDistance: The largest phone distance reported (see `PhoneDistance`).
    ///   - maximumRatio: The largest ``Confusion/ratio`` reported.
    ///   - formsPerPhrase: How many sentences of each phrase are compared at most.
    package init(maximumDistance: Double = 2, maximumRatio: Double = 0.6, formsPerPhrase: Int = 64) {
        self.maximumDistance = maximumDistance
        self.maximumRatio = maximumRatio
        self.formsPerPhrase = formsPerPhrase
    }

    /// What a placeholder or the app's name weighs, in phones.
    static let tokenWeight = 3 * PhoneDistance.unit

    /// Every word whose pronunciation the check asks for: the phrases' words (numbers spelled
    /// out) and the values' names.
    package static func words(in forms: SpokenForms) -> Set<String> {
        var words = Set<String>()
        func visit(_ elements: [PhraseElement]) {
            for element in elements {
                switch element {
                case .word(let word): words.formUnion(NumberWords.spokenToken(word))
                case .optional(let inner): visit(inner)
                case .alternatives(let branches), .permutation(let branches): branches.forEach(visit)
                case .applicationName, .placeholder: break
                }
            }
        }
        forms.phrases.forEach { visit($0.elements) }
        for type in forms.valueNames {
            for value in type.values {
                words.formUnion(value.names.joined().flatMap(NumberWords.spokenToken))
            }
        }
        return words
    }

    /// The pairs that sound alike, closest first.
    ///
    /// - Parameters:
    ///   - forms: The app's spoken forms (`PhraseMatcher/spokenForms`).
    ///   - pronunciation: The CMU phones of a word ("M AE P"), or `nil` when unknown; such a word
    ///     is compared as a token of its own, like a placeholder.
    package func confusions(in forms: SpokenForms, pronunciation: (String) -> String?) -> [Confusion] {
        withoutActuallyEscaping(pronunciation) { pronunciation in
            var phones = PhoneCache(pronunciation: pronunciation)
            let limit = Int((maximumDistance * Double(PhoneDistance.unit)).rounded(.down))
            let found =
                valueConfusions(forms, limit: limit, phones: &phones)
                + phraseConfusions(forms, limit: limit, phones: &phones)
            // Stable: closest first, then in the order found (values, then phrases as declared).
            return found.enumerated().filter { $0.element.ratio <= maximumRatio }.sorted {
                ($0.element.distance, $0.element.ratio, $0.offset) < (
                    $1.element.distance, $1.element.ratio, $1.offset
                )
            }.map(\.element)
        }
    }

    private func valueConfusions(_ forms: SpokenForms, limit: Int, phones: inout PhoneCache) -> [Confusion] {
        var confusions: [Confusion] = []
        var scratch = PhoneDistance.Scratch()
        for type in forms.valueNames {
            let names = type.values.map { value in
                value.names.map { words in (words, words.flatMap { phones.symbols(of: $0) }) }
            }
            for first in names.indices {
                for second in names.indices where second > first {
                    var best: (units: Int, first: [String], second: [String], weight: Int)?
                    for (wordsA, a) in names[first] {
                        for (wordsB, b) in names[second] where wordsA != wordsB {
                            let bound = best.map { $0.units - 1 } ?? limit
                            guard bound >= 0, abs(a.weight - b.weight) <= bound,
                                let units = PhoneDistance.units(a, b, limit: bound, scratch: &scratch)
                            else { continue }
                            best = (units, wordsA, wordsB, max(a.weight, b.weight))
                        }
                    }
                    guard let best else { continue }
                    func side(_ index: Int, _ words: [String]) -> Confusion.Side {
                        Confusion.Side(
                            text: type.values[index].title, intent: nil, source: .swift, words: words,
                            differingWords: words, differingPhones: phones.text(of: words))
                    }
                    confusions.append(
                        Confusion(
                            kind: .values(typeName: type.typeName), first: side(first, best.first),
                            second: side(second, best.second),
                            distance: Double(best.units) / Double(PhoneDistance.unit),
                            length: Double(best.weight) / Double(PhoneDistance.unit)))
                }
            }
        }
        return confusions
    }
}

/// The phones of each word, looked up once.
struct PhoneCache {
    let pronunciation: (String) -> String?
    private var cache: [String: [PhoneDistance.Symbol]] = [:]

    init(pronunciation: @escaping (String) -> String?) {
        self.pronunciation = pronunciation
    }

    mutating func symbols(of word: String) -> [PhoneDistance.Symbol] {
        if let known = cache[word] { return known }
        let spoken = NumberWords.spokenToken(word)
        let symbols = spoken.flatMap { part -> [PhoneDistance.Symbol] in
            guard let phones = pronunciation(part) else {
                return [PhoneDistance.Symbol(token: "word " + part, weight: ConfusabilityCheck.tokenWeight)]
            }
            return PhoneDistance.symbols(phones)
        }
        cache[word] = symbols
        return symbols
    }

    /// The phones of `words` as text ("M AE P"); a placeholder stays as it is (`${landmark}`), and
    /// a word with no pronunciation is shown as `?word?`.
    func text(of words: [String]) -> String {
        words.flatMap(NumberWords.spokenToken).map { word in
            word.hasPrefix("${") ? word : pronunciation(word) ?? "?\(word)?"
        }.joined(separator: " ")
    }
}

extension [PhoneDistance.Symbol] {
    /// What deleting them all costs.
    var weight: Int { reduce(0) { $0 + $1.weight } }
}
