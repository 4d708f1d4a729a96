/// Every word the phrases and app names use, numbered, with an index of one-letter-off
/// spellings: the aligner compares numbers, not strings.
struct WordTable: Sendable {
    private(set) var words: [String] = []
    /// Whether each word is small ("the", "in"): cheap to drop.
    private(set) var isSmall: [Bool] = []
    private var ids: [String: Int32] = [:]
    /// A word with one letter removed → the ids of table words it comes from.
    private var deletions: [String: [Int32]] = [:]

    /// The id of `word`, added if new.
    mutating func id(_ word: String) -> Int32 {
        if let id = ids[word] { return id }
        let id = Int32(words.count)
        words.append(word)
        isSmall.append(Aligner.Costs.smallWords.contains(word))
        ids[word] = id
        if word.count >= 4 {
            for variant in ValueVocabulary.deletionVariants(of: word) {
                deletions[variant, default: []].append(id)
            }
        }
        return id
    }

    /// The id of `word`, or -1 when no phrase uses it.
    func lookup(_ word: String) -> Int32 {
        ids[word] ?? -1
    }

    /// The table words (of four letters or more) one inserted, deleted or replaced letter away
    /// from `word`; `spellings` are its ``ValueVocabulary/deletionVariants(of:)``.
    func near(_ word: String, spellings: [String]) -> [Int32] {
        guard word.count >= 3 else { return [] }
        var found = deletions[word] ?? []  // a table word with one letter more
        for variant in spellings {
            if let id = ids[variant], words[Int(id)].count >= 4 { found.append(id) }  // one letter less
            found += deletions[variant] ?? []  // one letter different
        }
        let exact = ids[word]
        return found.filter { $0 != exact && ValueVocabulary.withinOneEdit(word, words[Int($0)]) }
    }
}
