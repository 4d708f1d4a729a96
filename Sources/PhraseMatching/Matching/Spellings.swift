import VoiceIntents

/// Every word the phrases and the values' names use, with their spellings one letter short, in
/// one dictionary: a sentence's word and its ``ValueVocabulary/deletionVariants(of:)`` are each
/// looked up once, for the word table and for every vocabulary at the same time. The phrases' and
/// names' own words, all a transcript heard through the grammar holds, are looked up as the
/// dictionary is made.
struct Spellings: Sendable {
    private struct Entry: Sendable {
        /// The table word spelled so, or -1.
        var tableID: Int32 = -1
        /// Table words (of four letters or more) spelled so with one letter left out.
        var tableLonger: [Int32] = []
        /// The vocabularies with a known name that contains the word spelled so.
        var vocabularies: [Int] = []
        /// Name words (of four letters or more) spelled so with one letter left out.
        var nameLonger: [String] = []
    }

    private let entries: [String: Entry]
    /// The phrases' and the names' words, looked up already.
    private let known: [String: Spelled]
    private let table: WordTable

    init(table: WordTable, vocabularies: [ValueVocabulary]) {
        var entries: [String: Entry] = [:]
        for (id, word) in table.words.enumerated() {
            entries[word, default: Entry()].tableID = Int32(id)
            guard word.count >= 4 else { continue }
            for variant in ValueVocabulary.deletionVariants(of: word) {
                entries[variant, default: Entry()].tableLonger.append(Int32(id))
            }
        }
        var vocabulariesOfWord: [String: [Int]] = [:]
        for (index, vocabulary) in vocabularies.enumerated() {
            for word in vocabulary.nameWordSet { vocabulariesOfWord[word, default: []].append(index) }
        }
        for word in vocabulariesOfWord.keys.sorted() {
            entries[word, default: Entry()].vocabularies = vocabulariesOfWord[word]!
            guard word.count >= 4 else { continue }
            for variant in ValueVocabulary.deletionVariants(of: word) {
                entries[variant, default: Entry()].nameLonger.append(word)
            }
        }
        self.entries = entries
        self.table = table
        var known: [String: Spelled] = [:]
        for (word, entry) in entries where entry.tableID >= 0 || !entry.vocabularies.isEmpty {
            known[word] = Self.spelled(word, in: entries, table: table)
        }
        self.known = known
    }

    /// `tokens` as the matcher looks them up.
    func spell(_ tokens: [Token]) -> SpelledWords {
        var ids: [Int32] = []
        var near: [[Int32]] = []
        var closeNameWords: [[String]] = []
        var namingVocabularies: [[Int]] = []
        ids.reserveCapacity(tokens.count)
        near.reserveCapacity(tokens.count)
        closeNameWords.reserveCapacity(tokens.count)
        namingVocabularies.reserveCapacity(tokens.count)
        for token in tokens {
            let spelled = known[token.text] ?? Self.spelled(token.text, in: entries, table: table)
            ids.append(spelled.id)
            near.append(spelled.near)
            closeNameWords.append(spelled.close)
            namingVocabularies.append(spelled.vocabularies)
        }
        return SpelledWords(
            tokens: tokens, ids: ids, near: near, closeNameWords: closeNameWords,
            namingVocabularies: namingVocabularies)
    }

    /// One word as ``spell(_:)`` looks it up: the phrases' and names' own words are looked up
    /// once, when the dictionary is made, since a sentence heard through the grammar holds no
    /// others.
    private struct Spelled: Sendable {
        var id: Int32
        var near: [Int32]
        var close: [String]
        var vocabularies: [Int]
    }

    private static func spelled(_ word: String, in entries: [String: Entry], table: WordTable) -> Spelled {
        let entry = entries[word]
        let id = entry?.tableID ?? -1
        let vocabularies = entry?.vocabularies ?? []
        guard word.count >= 3 else {
            return Spelled(id: id, near: [], close: [], vocabularies: vocabularies)
        }
        // A word the phrases use is taken as heard; only the others may be a near miss.
        var nearTable: [Int32] = id >= 0 ? [] : entry?.tableLonger ?? []  // one letter more
        var close: [String] = vocabularies.isEmpty ? [] : [word]
        close += entry?.nameLonger ?? []  // a name word with one letter more
        for variant in ValueVocabulary.deletionVariants(of: word) {
            guard let shorter = entries[variant] else { continue }
            if id < 0 {
                if shorter.tableID >= 0, table.words[Int(shorter.tableID)].count >= 4 {
                    nearTable.append(shorter.tableID)  // one letter less
                }
                nearTable += shorter.tableLonger  // one letter different
            }
            if !shorter.vocabularies.isEmpty { close.append(variant) }  // one letter less
            close += shorter.nameLonger  // one letter different
        }
        if close.count > 1 {
            var seen = Set<String>()
            close = close.filter { seen.insert($0).inserted }
        }
        return Spelled(
            id: id, near: nearTable.filter { ValueVocabulary.withinOneEdit(word, table.words[Int($0)]) },
            close: close, vocabularies: vocabularies)
    }
}

/// A sentence's words as the matcher looks them up, made once and shared by the aligner and
/// every vocabulary.
struct SpelledWords {
    let tokens: [Token]
    /// Each word's id in the word table, or -1.
    let ids: [Int32]
    /// For each word the phrases do not use, the table words (of four letters or more) one
    /// inserted, deleted or replaced letter away.
    let near: [[Int32]]
    /// The names' words each word may be heard as: itself, and those with one letter more, less
    /// or different (some of them two edits off, which callers that need one check).
    let closeNameWords: [[String]]
    /// The vocabularies with a known name that contains each word as it is.
    let namingVocabularies: [[Int]]
}
