/// Aligns a sentence with one phrase graph at the least cost, as an edit distance whose edits
/// are a listener's: an extra word, a dropped word, a misheard word, two words swapped, a value
/// that is not known.
///
/// Costs are in "words": a filler ("uh", "please") costs a quarter, an unknown extra word or a
/// dropped content word about one, a dropped small word ("the", "in") a half. The score divides
/// the cost by the sentence length, so one slip in a long sentence matters less than in a short one.
struct Aligner {
    struct Costs {
        static let filler: Float = 0.25
        static let extraWord: Float = 0.9
        static let droppedSmallWord: Float = 0.5
        static let droppedWord: Float = 1.0
        static let nearWord: Float = 0.35
        /// A different word in a word's place costs nearly as much as dropping one and adding
        /// another: "sell tickets" is not "buy tickets" misheard.
        static let otherWord: Float = 1.8
        static let swappedWords: Float = 0.6
        /// A phrase's command word, or a word next to free text, dropped or replaced: "sell" is not
        /// "buy" misheard, and without "add" there is no telling where "add ${title}" starts.
        static let missedAnchor: Float = 2.5
        static let droppedApplicationName: Float = 0.6
        static let nearApplicationNameWord: Float = 0.3
        static let missingValue: Float = 0.55
        static let unknownValue: Float = 0.8
        /// Words an open set may know; charged in full if its query does not know them either.
        static let unknownOpenValue: Float = 0.45

        static let fillers: Set<String> = [
            "uh", "um", "er", "erm", "ah", "hmm", "mm", "please", "the", "a", "an", "like", "so", "okay",
            "ok", "hey", "just", "well", "now", "oh", "could", "can", "you", "would", "kindly",
        ]
        static let smallWords: Set<String> = [
            "the", "a", "an", "to", "in", "on", "at", "for", "with", "of", "from", "my", "me", "is",
            "and", "by", "into", "up", "some", "please",
        ]
    }

    /// One step of the cheapest alignment, for explanations and values.
    enum Action {
        case start
        case extra(Token)
        case matched(String)
        case misheard(String, as: Token)
        case swapped(String, String)
        case dropped(String)
        case applicationName(fuzzy: Bool)
        case droppedApplicationName
        case filled(String, ValueVocabulary.Fill, words: String)
        case missing(String)
        case unknown(String, words: String)
        case skip
    }

    struct Result {
        let cost: Float
        let actions: [Action]
    }

    let tokens: [Token]
    let applicationNames: [[String]]
    /// The ways each vocabulary fills each position, computed once per sentence.
    let fills: (_ vocabulary: Int, _ position: Int) -> [ValueVocabulary.Fill]
    let vocabularyIsOpen: (_ vocabulary: Int) -> Bool
    let vocabularyTakesNames: (_ vocabulary: Int) -> Bool

    func align(_ graph: PhraseGraph, slots: [String: Int], anchors: Set<[Int]> = []) -> Result? {
        let width = tokens.count + 1
        let nodes = graph.nodeCount
        var cost = [Float](repeating: .infinity, count: nodes * width)
        var back = [(Int, Action)](repeating: (-1, .start), count: nodes * width)
        cost[0] = 0

        func relax(_ node: Int, _ position: Int, _ value: Float, from cell: Int, _ action: Action) {
            let target = node * width + position
            if value < cost[target] {
                cost[target] = value
                back[target] = (cell, action)
            }
        }

        for node in 0..<nodes {
            for position in 0..<width {
                let cell = node * width + position
                let here = cost[cell]
                guard here.isFinite else { continue }
                if position < tokens.count {
                    let token = tokens[position]
                    let extra = Costs.fillers.contains(token.text) ? Costs.filler : Costs.extraWord
                    relax(node, position + 1, here + extra, from: cell, .extra(token))
                }
                for (edgeIndex, edge) in graph.edges[node].enumerated() {
                    switch edge {
                    case .empty(let to):
                        relax(to, position, here, from: cell, .skip)
                    case .word(let word, let to):
                        let anchor = !anchors.isEmpty && anchors.contains([node, edgeIndex])
                        let small = Costs.smallWords.contains(word)
                        let drop =
                            anchor ? Costs.missedAnchor : small ? Costs.droppedSmallWord : Costs.droppedWord
                        relax(to, position, here + drop, from: cell, .dropped(word))
                        guard position < tokens.count else { continue }
                        let heard = tokens[position]
                        if heard.text == word {
                            relax(to, position + 1, here, from: cell, .matched(word))
                        } else {
                            let near = word.count >= 4 && ValueVocabulary.withinOneEdit(heard.text, word)
                            let replace =
                                near ? Costs.nearWord : anchor ? Costs.missedAnchor : Costs.otherWord
                            relax(to, position + 1, here + replace, from: cell, .misheard(word, as: heard))
                            // Two words said the other way round.
                            if position + 1 < tokens.count, tokens[position + 1].text == word {
                                for next in graph.edges[to] {
                                    if case .word(let second, let after) = next, second == heard.text {
                                        relax(
                                            after, position + 2, here + Costs.swappedWords, from: cell,
                                            .swapped(word, second))
                                    }
                                }
                            }
                        }
                    case .applicationName(let to):
                        relax(
                            to, position, here + Costs.droppedApplicationName, from: cell,
                            .droppedApplicationName)
                        for name in applicationNames where position + name.count <= tokens.count {
                            var extra: Float = 0
                            var fits = true
                            for (offset, word) in name.enumerated() {
                                let heard = tokens[position + offset].text
                                if heard == word { continue }
                                if word.count >= 4 && ValueVocabulary.withinOneEdit(heard, word) {
                                    extra += Costs.nearApplicationNameWord
                                } else {
                                    fits = false
                                    break
                                }
                            }
                            if fits {
                                relax(
                                    to, position + name.count, here + extra, from: cell,
                                    .applicationName(fuzzy: extra > 0))
                            }
                        }
                    case .slot(let name, let to):
                        relax(to, position, here + Costs.missingValue, from: cell, .missing(name))
                        guard position < tokens.count, let vocabulary = slots[name] else { continue }
                        for fill in fills(vocabulary, position) {
                            let words = tokens[position..<(position + fill.length)].map(\.surface).joined(
                                separator: " ")
                            relax(
                                to, position + fill.length, here + fill.cost, from: cell,
                                .filled(name, fill, words: words))
                        }
                        if vocabularyTakesNames(vocabulary) {
                            let open = vocabularyIsOpen(vocabulary)
                            for length in 1...min(4, tokens.count - position) {
                                let words = tokens[position..<(position + length)].map(\.surface).joined(
                                    separator: " ")
                                let price =
                                    (open ? Costs.unknownOpenValue : Costs.unknownValue) + 0.15
                                    * Float(length - 1)
                                relax(
                                    to, position + length, here + price, from: cell,
                                    .unknown(name, words: words))
                            }
                        }
                    }
                }
            }
        }

        let final = graph.end * width + tokens.count
        guard cost[final].isFinite else { return nil }
        var actions: [Action] = []
        var cell = final
        while back[cell].0 >= 0 {
            let (previous, action) = back[cell]
            actions.append(action)
            cell = previous
        }
        return Result(cost: cost[final], actions: actions.reversed())
    }
}
