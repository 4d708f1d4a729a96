/// A name of several words ("machu picchu") as one word of the recognizer's dictionary
/// ("machu_picchu"), whose pronunciations are its words' run together.
///
/// PocketSphinx's grammar search does work for every state of the graph in every frame (its
/// history keeps a list per state and phone), whether or not the state is active. A name of
/// two words needs a state between them in every place the name can be said, and the minimal
/// graph of TravelTracking said its fifty landmark names in thirty places: 625 states. Each name
/// as one word leaves 198, and the search takes about a quarter less time (Benchmarks/Recognition/README.md,
/// "Speech benchmark"). The recognizer splits the words apart again before anyone sees them, so
/// transcripts, segments and confidences speak of "machu" and "picchu".
///
/// The graph has no silence between a name's words, as it has between the others; one more
/// pronunciation, with a pause (`SIL`) between the words, hears someone who stops inside a name.
package enum CompoundWord {
    /// What joins the words: no normalised word contains it.
    package static let separator: Character = "_"

    /// The one word standing for `words`, or the word itself when there is only one.
    package static func joining(_ words: [String]) -> String {
        words.joined(separator: String(separator))
    }

    /// The words the search says for `name` (tokens as written): its spoken words, joined into
    /// one when it has several and `asOneWord`.
    package static func searchWords(of name: [String], asOneWord: Bool) -> [String] {
        let words = name.flatMap(NumberWords.spokenToken)
        return asOneWord && words.count > 1 ? [joining(words)] : words
    }

    /// Whether `word` stands for several words.
    package static func isCompound(_ word: String) -> Bool {
        word.contains(separator)
    }

    /// The words `word` stands for, without a pronunciation's number ("machu_picchu(2)" →
    /// machu, picchu); a word that is no compound is itself.
    package static func parts(of word: String) -> [String] {
        var base = Substring(word)
        if base.hasSuffix(")"), let open = base.lastIndex(of: "(") { base = base[..<open] }
        return base.split(separator: separator).map(String.init)
    }

    /// The phone of a pause.
    package static let pause = "SIL"

    /// Every way to say the compound made of `parts`, given each part's pronunciations: each
    /// combination, the parts' first pronunciations first, at most `limit` of them; then the
    /// first pronunciations with a pause between the words.
    ///
    /// Measured on eSpeak NG names with 0.15 or 0.3 s of silence inside them (36 sentences of
    /// TravelTracking, three voices): 21 heard word for word without the paused pronunciation,
    /// 25 with it, 26 with the names word by word; its cost fell within the speech benchmark's
    /// noise.
    package static func pronunciations(of parts: [[String]], limit: Int = 16) -> [String] {
        var result = [""]
        for choices in parts {
            result = result.flatMap { prefix in
                choices.map { prefix.isEmpty ? $0 : prefix + " " + $0 }
            }
            if result.count > limit { result = Array(result.prefix(limit)) }
        }
        guard parts.count > 1, parts.allSatisfy({ !$0.isEmpty }) else { return result }
        return result + [parts.map { $0[0] }.joined(separator: " \(pause) ")]
    }
}
