/// A name of several words ("machu picchu") as one word of the recognizer's dictionary
/// ("machu_picchu"), whose pronunciations are its words' run together.
///
/// PocketSphinx's grammar search does work for every state of the graph in every frame (its
/// history keeps a list per state and phone), whether or not the state is active. A name of
/// two words needs a state between them in every place the name can be said, and the minimal
/// graph of TravelTracking said its fifty landmark names in thirty places: 625 states. Each name
/// as one word leaves 198, and the search takes about a quarter less time (Models/README.md,
/// "Speech benchmark"). The recognizer splits the words apart again before anyone sees them, so
/// transcripts, segments and confidences speak of "machu" and "picchu".
///
/// No pause is heard inside a name, as none was between the words of a name people say in one
/// breath; the grammar's other words keep theirs.
enum CompoundWord {
    /// What joins the words: no normalised word contains it.
    static let separator: Character = "_"

    /// The one word standing for `words`, or the word itself when there is only one.
    static func joining(_ words: [String]) -> String {
        words.joined(separator: String(separator))
    }

    /// Whether `word` stands for several words.
    static func isCompound(_ word: String) -> Bool {
        word.contains(separator)
    }

    /// The words `word` stands for, without a pronunciation's number ("machu_picchu(2)" →
    /// machu, picchu); a word that is no compound is itself.
    static func parts(of word: String) -> [String] {
        var base = Substring(word)
        if base.hasSuffix(")"), let open = base.lastIndex(of: "(") { base = base[..<open] }
        return base.split(separator: separator).map(String.init)
    }

    /// Every way to say the compound made of `parts`, given each part's pronunciations: each
    /// combination, the parts' first pronunciations first, at most `limit` of them.
    static func pronunciations(of parts: [[String]], limit: Int = 16) -> [String] {
        var result = [""]
        for choices in parts {
            result = result.flatMap { prefix in
                choices.map { prefix.isEmpty ? $0 : prefix + " " + $0 }
            }
            if result.count > limit { result = Array(result.prefix(limit)) }
        }
        return result
    }
}
