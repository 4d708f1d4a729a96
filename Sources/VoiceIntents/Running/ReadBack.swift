/// A command said back to the person before it runs, because some of its values were heard less
/// surely than the rest: free text that a recognizer heard among thousands of common words
/// ("Add toothpaste to your shopping list?").
///
/// ``IntentRunner`` asks it as a yes-or-no question once the command's values are in. A yes runs
/// the intent; a no asks for those values again (each parameter's `requestValueDialog`) and reads
/// the command back with the new ones, unless each is one of its parameter's suggestions; a
/// second no cancels it.
package struct ReadBack: Sendable, Hashable {
    /// The command as heard, in the person's words ("add toothpaste to my shopping list"); `nil`
    /// reads back the intent's summary or title and values instead.
    package let sentence: String?
    /// The values to make sure of: each parameter's words as they are in ``sentence``.
    package let values: [String: String]

    package init(sentence: String?, values: [String: String]) {
        self.sentence = sentence
        self.values = values
    }

    /// The person's words as the app says them back: "my" as "your", "me" and "I" as "you".
    static let pronouns = [
        "i": "you", "me": "you", "my": "your", "mine": "yours", "myself": "yourself", "i'm": "you're",
        "i've": "you've", "i'll": "you'll", "i'd": "you'd", "am": "are",
    ]

    /// The question for the values `current` (each parameter's words now, by name): the sentence
    /// with each of ``values`` replaced by its words now and said back to the person, capitalised,
    /// with a question mark; `nil` when there is no sentence or a value is not in it.
    package func question(with current: [String: String]) -> String? {
        guard var words = sentence?.split(separator: " ").map(String.init), !words.isEmpty else {
            return nil
        }
        // Values first (their words are the person's, "my list" in a free-text value stays), the
        // rest said back.
        var kept = Array(repeating: false, count: words.count)
        for (name, said) in values.sorted(by: { $0.key < $1.key }) {
            let old = said.split(separator: " ").map(String.init)
            guard !old.isEmpty,
                let start = words.indices.first(where: { Array(words[$0...].prefix(old.count)) == old })
            else { return nil }
            let new = (current[name] ?? said).split(separator: " ").map(String.init)
            words.replaceSubrange(start..<start + old.count, with: new)
            kept.replaceSubrange(start..<start + old.count, with: Array(repeating: true, count: new.count))
        }
        let spoken = zip(words, kept).map { word, isValue in
            isValue ? word : Self.pronouns[word.lowercased()] ?? word
        }
        let text = spoken.joined(separator: " ")
        return text.prefix(1).uppercased() + text.dropFirst() + "?"
    }
}
