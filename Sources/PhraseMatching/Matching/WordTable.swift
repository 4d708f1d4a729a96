/// Every word the phrases and app names use, numbered: the aligner compares numbers, not
/// strings. ``Spellings`` finds the words one letter off a sentence's.
struct WordTable: Sendable {
    private(set) var words: [String] = []
    /// Whether each word is small ("the", "in"): cheap to drop.
    private(set) var isSmall: [Bool] = []
    private var ids: [String: Int32] = [:]

    /// The id of `word`, added if new.
    mutating func id(_ word: String) -> Int32 {
        if let id = ids[word] { return id }
        let id = Int32(words.count)
        words.append(word)
        isSmall.append(Aligner.Costs.smallWords.contains(word))
        ids[word] = id
        return id
    }
}
