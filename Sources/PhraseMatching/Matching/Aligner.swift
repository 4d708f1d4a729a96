// The aligner and the sentence it reads. The sentence's scratch buffers, which every alignment
// with it reuses, are private to this file, so the two stay together and the file runs past 400
// lines. What each edit costs is in AlignerCosts.swift.

import VoiceIntents

/// Aligns a sentence with one phrase graph at the least cost, as an edit distance whose edits
/// are a listener's: an extra word, a dropped word, a misheard word, two words swapped, a value
/// that is not known.
///
/// Costs are in "words": a filler ("uh", "please") costs a quarter, an unknown extra word or a
/// dropped content word about one, a dropped small word ("the", "in") a half. The score divides
/// the cost by the sentence length, so one slip in a long sentence matters less than in a short
/// one. The work is done on numbers (word ids, flat arrays) and stops early in cells whose cost
/// can no longer lead to a useful score.
struct Aligner {
    /// One step of the cheapest alignment, for explanations and values.
    enum Action {
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
    }

    struct Result {
        let cost: Float
        let actions: [Action]
    }

    /// A sentence prepared once for aligning with many phrases.
    final class Sentence {
        let tokens: [Token]
        /// The tokens as the matcher looked them up (ids, near misses, names).
        let spelled: SpelledWords
        /// Each token's word id in the table, or -1.
        let ids: [Int32]
        /// Each token's one-letter-off table words.
        let near: [[Int32]]
        let extraCost: [Float]
        /// Whether the first word makes the sentence a question ("is", "what").
        let opensWithQuestion: Bool
        /// Per word: whether it says where something is ("in", "on", "at").
        let placeWords: [Bool]
        let applicationNames: [[Int32]]
        let vocabularies: [ValueVocabulary]
        private var fillCache: [[[ValueVocabulary.Fill]]?]

        /// - Parameter skipPhrases: Words that may be said anywhere, as normalised words.
        init(
            _ spelled: SpelledWords, applicationNames: [[Int32]], vocabularies: [ValueVocabulary],
            skipPhrases: [[String]] = []
        ) {
            let tokens = spelled.tokens
            self.tokens = tokens
            self.spelled = spelled
            ids = spelled.ids
            near = spelled.near
            var extraCost = tokens.map { Costs.fillers.contains($0.text) ? Costs.filler : Costs.extraWord }
            for start in tokens.indices {
                for skip in skipPhrases
                where start + skip.count <= tokens.count
                    && zip(skip, tokens[start...]).allSatisfy({ $0 == $1.text })
                {
                    for position in start..<(start + skip.count) { extraCost[position] = Costs.skipWord }
                }
            }
            self.extraCost = extraCost
            opensWithQuestion = tokens.first.map { Costs.questionWords.contains($0.text) } ?? false
            placeWords = tokens.map { Costs.placeWords.contains($0.text) }
            self.applicationNames = applicationNames
            self.vocabularies = vocabularies
            fillCache = Array(repeating: nil, count: vocabularies.count)
            flatStart = Array(repeating: [], count: vocabularies.count)
            flatLength = Array(repeating: [], count: vocabularies.count)
            flatCost = Array(repeating: [], count: vocabularies.count)
            unknownSurcharge = Array(repeating: [], count: vocabularies.count)
            takesNames = vocabularies.map { $0.form == .names }
            isOpen = vocabularies.map(\.isOpen)
        }

        /// The ways vocabulary `vocabulary` can fill the words from `position` on.
        func fills(_ vocabulary: Int, _ position: Int) -> [ValueVocabulary.Fill] {
            prepareFills(vocabulary)
            return fillCache[vocabulary]![position]
        }

        /// The same fills as flat arrays for the aligner's inner loop: for a vocabulary, fill `i`
        /// at `position` is at `flatStart[v][position] + i`, up to `flatStart[v][position + 1]`.
        private(set) var flatStart: [[Int32]]
        private(set) var flatLength: [[Int32]]
        private(set) var flatCost: [[Float]]
        /// Per closed set of names: what an unknown name costs on top of its price, at
        /// `position * 4 + length - 1` for a name of 1 to 4 words from `position`.
        private(set) var unknownSurcharge: [[Float]]
        /// Per vocabulary: whether it takes names (so unknown words may stand for a value), and
        /// whether its set is open.
        let takesNames: [Bool]
        let isOpen: [Bool]

        func prepareFills(_ vocabulary: Int) {
            guard fillCache[vocabulary] == nil else { return }
            let all = vocabularies[vocabulary].fillsFromEveryPosition(spelled)
            fillCache[vocabulary] = all
            var start: [Int32] = [0]
            var length: [Int32] = []
            var cost: [Float] = []
            let surcharged = takesNames[vocabulary] && !isOpen[vocabulary]
            // For a closed set of names: what an unknown name costs on top of its price, by where
            // it starts and how many words it takes (AlignerCosts: unknownKind, knownNameSaidOn).
            var surcharge = [Float](repeating: 0, count: surcharged ? tokens.count * 4 : 0)
            for (position, fills) in all.enumerated() {
                var knownName = 0
                for fill in fills {
                    length.append(Int32(fill.length))
                    cost.append(fill.cost)
                    if surcharged, fill.cost == 0, fill.length > knownName, fill.title != nil {
                        knownName = fill.length
                    }
                }
                start.append(Int32(length.count))
                guard surcharged, position < tokens.count else { continue }
                for words in 1...min(4, tokens.count - position) {
                    var extra: Float = 0
                    if !spelled.namingVocabularies[position + words - 1].contains(vocabulary) {
                        extra += Costs.unknownKind
                    }
                    if knownName > 0, knownName < words { extra += Costs.knownNameSaidOn }
                    if words > 2, placeWords[(position + 1)..<(position + words - 1)].contains(true) {
                        extra += Costs.knownNameSaidOn
                    }
                    surcharge[position * 4 + words - 1] = extra
                }
            }
            flatStart[vocabulary] = start
            flatLength[vocabulary] = length
            flatCost[vocabulary] = cost
            unknownSurcharge[vocabulary] = surcharge
        }

        func words(_ range: Range<Int>) -> String {
            tokens[range].map(\.surface).joined(separator: " ")
        }

        // Scratch buffers for the aligner, reused for every phrase aligned with this sentence.
        fileprivate private(set) var capacity = 0
        fileprivate private(set) var cost = UnsafeMutablePointer<Float>.allocate(capacity: 1)
        fileprivate private(set) var backCell = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
        fileprivate private(set) var backStep = UnsafeMutablePointer<Step>.allocate(capacity: 1)
        fileprivate private(set) var backDetail = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
        fileprivate private(set) var backEdge = UnsafeMutablePointer<Int32>.allocate(capacity: 1)

        fileprivate func reserve(_ cells: Int) {
            guard capacity < cells else { return }
            deallocate()
            capacity = cells
            cost = .allocate(capacity: cells)
            backCell = .allocate(capacity: cells)
            backStep = .allocate(capacity: cells)
            backDetail = .allocate(capacity: cells)
            backEdge = .allocate(capacity: cells)
        }

        private func deallocate() {
            cost.deallocate()
            backCell.deallocate()
            backStep.deallocate()
            backDetail.deallocate()
            backEdge.deallocate()
        }

        deinit {
            deallocate()
        }
    }

    /// The word an edge stands for in an explanation: the one heard, for a set of words that
    /// includes it, or the first.
    static func word(
        of edge: Int, in phrase: PhraseMatcher.CompiledPhrase, heard: Int32, table: WordTable
    ) -> String {
        let single = phrase.graph.payloads[edge]
        if single >= 0 { return table.words[Int(single)] }
        let choices = phrase.graph.wordSets[edge]
        return table.words[Int(choices.contains(heard) ? heard : choices[0])]
    }

    fileprivate enum Step: UInt8 {
        case none, extra, matched, misheard, swapped, dropped, applicationName, fuzzyApplicationName,
            droppedApplicationName, filled, missing, unknown, skip
    }

    /// Aligns `sentence` with `phrase`'s graph. Cells costing more than `bound` are abandoned.
    ///
    /// It takes the phrase rather than its graph: a graph handed over on its own is copied, field
    /// by field, for every phrase aligned.
    static func align(
        _ sentence: Sentence, _ phrase: PhraseMatcher.CompiledPhrase, table: WordTable, bound: Float
    ) -> Result? {
        let slotVocabularies = phrase.slotVocabularies
        let count = sentence.tokens.count
        let width = count + 1
        let nodes = phrase.graph.nodeCount
        let cells = nodes * width
        sentence.reserve(cells)
        let cost = sentence.cost
        let backCell = sentence.backCell
        let backStep = sentence.backStep
        let backDetail = sentence.backDetail
        let backEdge = sentence.backEdge
        cost.update(repeating: .infinity, count: cells)
        backCell.update(repeating: -1, count: cells)
        cost[0] = 0
        let ids = sentence.ids
        let extraCost = sentence.extraCost
        let near = sentence.near
        let kinds = phrase.graph.kinds
        let targets = phrase.graph.targets
        let payloads = phrase.graph.payloads
        let isAnchor = phrase.graph.isAnchor
        let edgeStart = phrase.graph.edgeStart
        let wordSets = phrase.graph.wordSets
        let smallEdge = phrase.graph.isSmall
        let takesNames = sentence.takesNames
        let isOpen = sentence.isOpen
        for vocabulary in slotVocabularies where vocabulary >= 0 { sentence.prepareFills(vocabulary) }
        let fillStarts = sentence.flatStart
        let fillLengths = sentence.flatLength
        let fillCosts = sentence.flatCost
        let unknownSurcharges = sentence.unknownSurcharge
        let applicationNames = sentence.applicationNames
        let opensWithQuestion = sentence.opensWithQuestion

        @inline(__always)
        func relax(
            _ node: Int32, _ position: Int, _ value: Float, _ from: Int, _ step: Step, _ edge: Int32,
            _ detail: Int32
        ) {
            let target = Int(node) * width + position
            if value < cost[target] && value <= bound {
                cost[target] = value
                backCell[target] = Int32(from)
                backStep[target] = step
                backEdge[target] = edge
                backDetail[target] = detail
            }
        }

        for node in 0..<nodes {
            let first = Int(edgeStart[node])
            let last = Int(edgeStart[node + 1])
            for position in 0..<width {
                let cell = node * width + position
                let here = cost[cell]
                guard here <= bound else { continue }
                if position < count {
                    relax(Int32(node), position + 1, here + extraCost[position], cell, .extra, -1, 0)
                }
                for edge in first..<last {
                    let to = targets[edge]
                    let edgeID = Int32(edge)
                    switch kinds[edge] {
                    case .empty:
                        relax(to, position, here, cell, .skip, edgeID, 0)
                    case .word:
                        let word = payloads[edge]
                        let anchor = isAnchor[edge]
                        let drop =
                            anchor
                            ? Costs.missedAnchor
                            : smallEdge[edge] ? Costs.droppedSmallWord : Costs.droppedWord
                        relax(to, position, here + drop, cell, .dropped, edgeID, 0)
                        guard position < count else { continue }
                        let heard = ids[position]
                        if heard >= 0 && (heard == word || (word < 0 && wordSets[edge].contains(heard))) {
                            relax(to, position + 1, here, cell, .matched, edgeID, 0)
                            continue
                        }
                        let close =
                            word >= 0
                            ? near[position].contains(word)
                            : near[position].contains(where: wordSets[edge].contains)
                        let replace = close ? Costs.nearWord : anchor ? Costs.missedAnchor : Costs.otherWord
                        relax(to, position + 1, here + replace, cell, .misheard, edgeID, 0)
                        // Two words said the other way round.
                        if word >= 0, position + 1 < count, ids[position + 1] == word, heard >= 0 {
                            let next = Int(to)
                            for second in Int(edgeStart[next])..<Int(edgeStart[next + 1])
                            where kinds[second] == .word && payloads[second] == ids[position] {
                                relax(
                                    targets[second], position + 2, here + Costs.swappedWords, cell, .swapped,
                                    edgeID, Int32(second))
                            }
                        }
                    case .applicationName:
                        relax(
                            to, position, here + Costs.droppedApplicationName, cell, .droppedApplicationName,
                            edgeID, 0)
                        for name in applicationNames where position + name.count <= count {
                            var extra: Float = 0
                            var fits = true
                            for (offset, word) in name.enumerated() where ids[position + offset] != word {
                                if near[position + offset].contains(word) {
                                    extra += Costs.nearApplicationNameWord
                                } else {
                                    fits = false
                                    break
                                }
                            }
                            if fits {
                                relax(
                                    to, position + name.count, here + extra, cell,
                                    extra > 0 ? .fuzzyApplicationName : .applicationName, edgeID, 0)
                            }
                        }
                    case .slot:
                        relax(to, position, here + Costs.missingValue, cell, .missing, edgeID, 0)
                        let vocabulary = slotVocabularies[Int(payloads[edge])]
                        guard position < count, vocabulary >= 0 else { continue }
                        let starts = fillStarts[vocabulary]
                        for fill in Int(starts[position])..<Int(starts[position + 1]) {
                            let fillIndex = Int32(fill - Int(starts[position]))
                            relax(
                                to, position + Int(fillLengths[vocabulary][fill]),
                                here + fillCosts[vocabulary][fill], cell, .filled, edgeID, fillIndex)
                        }
                        // No name opens with the question word that opens the sentence.
                        guard takesNames[vocabulary], position > 0 || !opensWithQuestion else { continue }
                        let isClosed = !isOpen[vocabulary]
                        let price = isClosed ? Costs.unknownValue : Costs.unknownOpenValue
                        for length in 1...min(4, count - position) {
                            var total = here + price + Costs.unknownValueExtraWord * Float(length - 1)
                            if isClosed { total += unknownSurcharges[vocabulary][position * 4 + length - 1] }
                            relax(to, position + length, total, cell, .unknown, edgeID, Int32(length))
                        }
                    }
                }
            }
        }

        let final = phrase.graph.end * width + count
        guard cost[final] <= bound else { return nil }
        var actions: [Action] = []
        var chargedAfter: Float = 0
        /// Whether the word at `position` says what something is: not a filler, a skip word or a
        /// small word.
        func isContentWord(_ position: Int) -> Bool {
            extraCost[position] == Costs.extraWord
                && !Costs.smallWords.contains(sentence.tokens[position].text)
        }
        /// Whether the word at `position` is known only as part of names.
        func isOnlyANameWord(_ position: Int) -> Bool {
            ids[position] < 0 && !sentence.spelled.namingVocabularies[position].isEmpty
        }
        /// Whether the step into `cell`, past empty ones, filled a placeholder with a known name.
        func followsAName(_ cell: Int) -> Bool {
            var cell = cell
            while backStep[cell] == .skip, backCell[cell] >= 0 { cell = Int(backCell[cell]) }
            guard backStep[cell] == .filled, backCell[cell] >= 0 else { return false }
            let edge = Int(backEdge[cell])
            let vocabulary = slotVocabularies[Int(payloads[edge])]
            guard takesNames[vocabulary] else { return false }
            let from = Int(backCell[cell]) % width
            return sentence.fills(vocabulary, from)[Int(backDetail[cell])].title != nil
        }
        var cell = final
        while backCell[cell] >= 0 {
            let previous = Int(backCell[cell])
            let position = previous % width
            if position == 0, opensWithQuestion, backStep[cell] == .extra || backStep[cell] == .misheard {
                chargedAfter += Costs.unsaidQuestion
            }
            switch backStep[cell] {
            case .extra:
                if isContentWord(position) && (isOnlyANameWord(position) || followsAName(previous)) {
                    chargedAfter += Costs.anotherThing
                }
            case .misheard:
                if isContentWord(position) && isOnlyANameWord(position) { chargedAfter += Costs.anotherThing }
            case .unknown:
                let last = position + Int(backDetail[cell]) - 1
                let vocabulary = slotVocabularies[Int(payloads[Int(backEdge[cell])])]
                let naming = sentence.spelled.namingVocabularies[last]
                if last > position, !isOpen[vocabulary], !naming.isEmpty, !naming.contains(vocabulary) {
                    chargedAfter += Costs.anotherThing
                }
            default: break
            }
            let edge = Int(backEdge[cell])
            let word =
                edge >= 0 && kinds[edge] == .word
                ? Self.word(
                    of: edge, in: phrase, heard: position < count ? sentence.ids[position] : -1, table: table)
                : ""
            let slot =
                edge >= 0 && kinds[edge] == .slot ? phrase.graph.slotNames[Int(payloads[edge])] : ""
            switch backStep[cell] {
            case .extra: actions.append(.extra(sentence.tokens[position]))
            case .matched: actions.append(.matched(word))
            case .misheard: actions.append(.misheard(word, as: sentence.tokens[position]))
            case .swapped:
                let second = table.words[Int(payloads[Int(backDetail[cell])])]
                actions.append(.matched(word))
                actions.append(.matched(second))
                actions.append(.swapped(word, second))
            case .dropped: actions.append(.dropped(word))
            case .applicationName: actions.append(.applicationName(fuzzy: false))
            case .fuzzyApplicationName: actions.append(.applicationName(fuzzy: true))
            case .droppedApplicationName: actions.append(.droppedApplicationName)
            case .filled:
                let vocabulary = slotVocabularies[Int(payloads[edge])]
                let fill = sentence.fills(vocabulary, position)[Int(backDetail[cell])]
                actions.append(
                    .filled(slot, fill, words: sentence.words(position..<(position + fill.length))))
            case .missing: actions.append(.missing(slot))
            case .unknown:
                actions.append(
                    .unknown(slot, words: sentence.words(position..<(position + Int(backDetail[cell])))))
            case .skip, .none: break
            }
            cell = previous
        }
        return Result(cost: cost[final] + chargedAfter, actions: actions.reversed())
    }
}
