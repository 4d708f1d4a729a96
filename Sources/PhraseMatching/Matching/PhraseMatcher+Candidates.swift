import Foundation
import VoiceIntents

/// Which phrases a sentence can fit, before any is aligned: a least cost for each that no
/// alignment can undercut, and the order to align them in.
extension PhraseMatcher {
    /// What bounds the cost of each phrase for one sentence, and the order to align them in.
    struct Candidates {
        /// Every phrase: the least their sentence words can cost first, and among equals those
        /// with the most evidence in the sentence, so that a good fit is found early and bounds
        /// the rest. The order decides only how soon; which phrases fit does not depend on it.
        var order: [Int]
        /// The least the sentence's words can cost with each phrase.
        var wordsCost: [Float]
        /// How each table word was heard: 2 as said, 1 one letter off, 0 not at all.
        var heard: [UInt8]
        var hearsApplicationName: Bool
        /// Whether some value of each vocabulary may be in the sentence.
        var valueHeard: [Bool]
    }

    /// The candidates for `sentence`: the sentence's side of every phrase's least cost, and the
    /// order to align them in.
    ///
    /// The least cost counts the extra-word cost of each word that nothing in the phrase can take
    /// (none of its words, no word one letter off one of them, no value of its placeholders, not
    /// the app's name), or what a placeholder that takes names would charge for those words as an
    /// unknown value, if less: every edit that takes such a word costs at least as much.
    func candidates(for sentence: Aligner.Sentence) -> Candidates {
        let count = sentence.tokens.count
        // What the phrase can take of the sentence's words: all of their extra-word cost, and of
        // the words that cost more to leave out than to add to an unknown value (not skip words),
        // the cost and the count.
        var taken = [Float](repeating: 0, count: phrases.count)
        var takenDear = [Float](repeating: 0, count: phrases.count)
        var takenDearWords = [Int32](repeating: 0, count: phrases.count)
        let isDear = sentence.extraCost.map { $0 > Aligner.Costs.unknownValueExtraWord }
        var lastPosition = [Int32](repeating: -1, count: phrases.count)
        // The positions each vocabulary's values may cover (names: any word that may be part of
        // one, without looking for the names themselves).
        var covered = Array(repeating: [Bool](repeating: false, count: count), count: vocabularies.count)
        for vocabulary in vocabularies.indices where !phrasesOfVocabulary[vocabulary].isEmpty {
            if vocabularies[vocabulary].form == .names {
                for position in 0..<count {
                    let id = sentence.ids[position]
                    covered[vocabulary][position] =
                        id >= 0
                        ? mayBeInAName[vocabulary][Int(id)]
                        : vocabularies[vocabulary].mayBePartOfAName(
                            sentence.tokens[position].text,
                            closeNameWords: sentence.spelled.closeNameWords[position])
                }
                continue
            }
            if vocabularies[vocabulary].form == .text {  // free text may take any word
                covered[vocabulary] = [Bool](repeating: true, count: count)
                continue
            }
            for position in 0..<count {
                for fill in sentence.fills(vocabulary, position) {
                    for covering in position..<min(count, position + fill.length) {
                        covered[vocabulary][covering] = true
                    }
                }
            }
        }
        for position in 0..<count {
            let cost = sentence.extraCost[position]
            let dear = isDear[position]
            let mark = Int32(position)
            func take(_ ids: [Int]) {
                for id in ids where lastPosition[id] != mark {
                    lastPosition[id] = mark
                    taken[id] += cost
                    if dear {
                        takenDear[id] += cost
                        takenDearWords[id] += 1
                    }
                }
            }
            if sentence.ids[position] >= 0 { take(phrasesOfWord[Int(sentence.ids[position])]) }
            for near in sentence.near[position] { take(phrasesOfWord[Int(near)]) }
            for vocabulary in vocabularies.indices where covered[vocabulary][position] {
                take(phrasesOfVocabulary[vocabulary])
            }
        }
        let total = sentence.extraCost.reduce(0, +)
        let totalDear = zip(sentence.extraCost, isDear).filter(\.1).map(\.0).reduce(0, +)
        let dearWords = isDear.filter { $0 }.count
        var wordsCost = [Float](repeating: 0, count: phrases.count)
        for id in phrases.indices {
            // Words cheaper to leave out than to take as part of an unknown value cost what they
            // cost; the others may all go to one unknown value instead, if less.
            let leftDear = max(0, totalDear - takenDear[id])
            let leftCheap = max(0, (total - taken[id]) - leftDear)
            let leftDearWords = dearWords - Int(takenDearWords[id])
            var dearCost = leftDear
            if leftDearWords > 0, let price = unknownWordsPrice[id] {
                dearCost = min(
                    leftDear, price + Aligner.Costs.unknownValueExtraWord * Float(leftDearWords - 1))
            }
            wordsCost[id] = leftCheap + dearCost
        }
        var heard = [UInt8](repeating: 0, count: words.words.count)
        for position in 0..<count {
            for near in sentence.near[position] { heard[Int(near)] = max(heard[Int(near)], 1) }
            if sentence.ids[position] >= 0 { heard[Int(sentence.ids[position])] = 2 }
        }
        let weight = evidence(in: sentence)
        // Phrases out of reach even of the lowest useful score are never aligned.
        let reach =
            (1 - Float(Self.lowestUsefulScore)) * Float(max(count, longestPhrase, 2))
            + Aligner.Costs.unknownOpenValue
        let order = phrases.indices.filter { wordsCost[$0] <= reach }.sorted {
            wordsCost[$0] != wordsCost[$1]
                ? wordsCost[$0] < wordsCost[$1] : weight[$0] != weight[$1] ? weight[$0] > weight[$1] : $0 < $1
        }
        return Candidates(
            order: order, wordsCost: wordsCost, heard: heard,
            hearsApplicationName: applicationNames.joined().contains { heard[Int($0)] > 0 },
            valueHeard: covered.map { $0.contains(true) })
    }

    /// The least cost of aligning each phrase with `sentence` (both sides, ``phraseCost(_:_:)``).
    func leastCosts(for sentence: Aligner.Sentence) -> [Float] {
        let candidates = candidates(for: sentence)
        return phrases.indices.map {
            candidates.wordsCost[$0] + phraseCost(phrases[$0].requiredParts, candidates)
        }
    }

    /// The least the parts every way of saying the phrase says can cost beyond what the
    /// sentence's words are charged: a word not heard is dropped, or heard as another word whose
    /// cost beyond that word's extra-word cost is charged here; a placeholder none of whose values
    /// is heard, and that takes no unknown names, is missing; an app name of which no word is
    /// heard is dropped.
    func phraseCost(_ requiredParts: [RequiredPart], _ candidates: Candidates) -> Float {
        let replaced = Aligner.Costs.otherWord - Aligner.Costs.extraWord
        let replacedAnchor = Aligner.Costs.missedAnchor - Aligner.Costs.extraWord
        var cost: Float = 0
        for part in requiredParts {
            switch part {
            case .word(let choices, let isAnchor):
                var best: UInt8 = 0
                var small = true
                for choice in choices {
                    best = max(best, candidates.heard[Int(choice)])
                    small = small && words.isSmall[Int(choice)]
                }
                if best == 2 { continue }
                if best == 1 {
                    cost += Aligner.Costs.nearWord
                } else if isAnchor {
                    cost += replacedAnchor
                } else {
                    cost += min(small ? Aligner.Costs.droppedSmallWord : Aligner.Costs.droppedWord, replaced)
                }
            case .applicationName:
                if !candidates.hearsApplicationName { cost += Aligner.Costs.droppedApplicationName }
            case .value(let vocabulary):
                if !candidates.valueHeard[vocabulary], vocabularies[vocabulary].form != .names {
                    cost += Aligner.Costs.missingValue
                }
            }
        }
        return cost
    }

    /// How much evidence of each phrase the sentence holds. A word the phrase uses counts by how
    /// rare it is among phrases; a word one letter off counts less; a word of a known value
    /// counts for every phrase with a placeholder for such values.
    func evidence(in sentence: Aligner.Sentence) -> [Double] {
        var weight = [Double](repeating: 0, count: phrases.count)
        var touched: [Int] = []
        func add(_ ids: [Int], _ amount: Double) {
            for id in ids {
                if weight[id] == 0 { touched.append(id) }
                weight[id] += amount
            }
        }
        var valueEvidence = [Double](repeating: 0, count: vocabularies.count)
        var common: [Int32] = []
        // Words in more than a quarter of the phrases ("in", "the") say little about which one
        // was meant; they count only when nothing rarer was heard.
        let commonLimit = max(64, phrases.count / 4)
        let tokens = sentence.tokens
        for (position, token) in tokens.enumerated()
        where !tokens[..<position].contains(where: { $0.text == token.text }) {
            let id = sentence.ids[position]
            if id >= 0 {
                let ids = phrasesOfWord[Int(id)]
                if ids.count > commonLimit { common.append(id) } else { add(ids, wordWeights[Int(id)]) }
            }
            for near in sentence.near[position] {
                let ids = phrasesOfWord[Int(near)]
                if !ids.isEmpty, ids.count <= commonLimit { add(ids, 0.7 * wordWeights[Int(near)]) }
            }
            for vocabulary in sentence.spelled.namingVocabularies[position] { valueEvidence[vocabulary] += 1 }
        }
        if touched.isEmpty {
            for id in common { add(phrasesOfWord[Int(id)], wordWeights[Int(id)]) }
        }
        // A word of a known value supports the phrases the words already point to, or, when no
        // phrase word was heard, every phrase with a placeholder for such values.
        if touched.isEmpty {
            for (vocabulary, evidence) in valueEvidence.enumerated() where evidence > 0 {
                add(phrasesOfVocabulary[vocabulary], evidence)
            }
        } else if valueEvidence.contains(where: { $0 > 0 }) {
            for id in touched {
                for vocabulary in phrases[id].distinctVocabularies { weight[id] += valueEvidence[vocabulary] }
            }
        }
        return weight
    }
}
