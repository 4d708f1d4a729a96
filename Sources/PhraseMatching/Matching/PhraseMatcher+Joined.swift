import VoiceIntents

extension PhraseMatcher {
    /// The words that join two commands said in one breath: "turn off the kitchen light and lock
    /// the front door", "… and then …", "… then …".
    public static let joiners: [[String]] = [["and", "then"], ["and"], ["then"]]

    /// Whether `token` is a word of a joiner.
    static func isJoinerWord(_ token: Token) -> Bool { joiners.contains { $0.contains(token.text) } }

    /// The most commands one sentence is read as.
    public static let mostJoinedCommands = 3

    /// The commands of a sentence that joins several with "and", "and then" or "then", each
    /// matched on its own and in the order said; `nil` when the sentence is one command.
    ///
    /// It is one command when it fits a phrase word for word ("set a timer for 3 hours and 10
    /// minutes"), or fits one at least as well as its weakest part would when cut at a joiner:
    /// a sentence is cut only where every part reaches a command (none ambiguous, none a
    /// negative phrase) and the worst of them fits better than the whole does, or where the
    /// whole does not read the joiner as its own, neither in its phrase nor in a named value
    /// (free text takes it in: "add [apples to my list and turn] on [the lights]"; or it is
    /// skipped). "add eggs and butter to my list" stays one, since "butter to my list" is no
    /// command. Of the cuts that do, the one whose worst part fits best wins, the earlier cut on
    /// a tie. A part that says
    /// "it", "them", "that", "those" or "there" for what the part before named is also read with
    /// the end of that part in the pronoun's place ("turn on the lights in the office and set them
    /// to blue": "set the lights in the office to blue"), and so when that fits better.
    ///
    /// - Parameter whole: The sentence's own match, when the caller has it already.
    public func matchJoined(_ sentence: String, context: [String: String] = [:], whole: MatchResult? = nil)
        async -> [MatchResult]?
    {
        let tokens = TextNormalizer.tokens(sentence)
        guard tokens.contains(where: Self.isJoinerWord) else { return nil }
        let wholeResult: MatchResult
        if let whole { wholeResult = whole } else { wholeResult = await match(sentence, context: context) }
        let wholeScore = wholeResult.best?.score ?? 0
        // A reading that does not account for the joiner (free text takes it in, or it is
        // skipped) is two commands read as one: any cut whose parts are all commands wins.
        let owned = wholeResult.best.map(Self.accountsForTheJoiners) ?? false
        guard wholeScore < 1 || !owned else { return nil }
        guard
            let parts = await joinedParts(
                tokens[...], before: nil, context: context, depth: Self.mostJoinedCommands),
            !owned || Self.weakest(parts) > wholeScore
        else { return nil }
        return parts
    }

    /// The best reading of `tokens` as two commands or more (at most `depth`), or `nil`;
    /// `before`, the command said before them, for their pronouns.
    private func joinedParts(
        _ tokens: ArraySlice<Token>, before: ArraySlice<Token>?, context: [String: String], depth: Int
    ) async -> [MatchResult]? {
        guard depth >= 2 else { return nil }
        var best: [MatchResult]?
        for (start, length) in Self.joinerPositions(tokens) {
            let left = tokens[tokens.startIndex..<start]
            let right = tokens[(start + length)...]
            guard !left.isEmpty, !right.isEmpty else { continue }
            let first = await match(left, before: before, context: context)
            guard Self.reachesACommand(first) else { continue }
            var rest = [await match(right, before: left, context: context)]
            // The rest may itself be two commands, when it fits better so.
            if let more = await joinedParts(right, before: left, context: context, depth: depth - 1),
                !Self.reachesACommand(rest[0]) || Self.weakest(more) > rest[0].best!.score
            {
                rest = more
            }
            guard rest.allSatisfy(Self.reachesACommand) else { continue }
            let reading = [first] + rest
            if best == nil || Self.weakest(reading) > Self.weakest(best!) { best = reading }
        }
        return best
    }

    /// Where a joiner stands in `tokens` (its first token's index) and how many tokens it takes:
    /// "and then" as one joiner, not as "and" before a command that starts with "then".
    private static func joinerPositions(_ tokens: ArraySlice<Token>) -> [(start: Int, length: Int)] {
        var positions: [(Int, Int)] = []
        var index = tokens.startIndex
        while index < tokens.endIndex {
            let joiner = joiners.first { words in
                index + words.count <= tokens.endIndex
                    && zip(tokens[index...], words).allSatisfy { $0.text == $1 }
            }
            if let joiner {
                positions.append((index, joiner.count))
                index += joiner.count
            } else {
                index += 1
            }
        }
        return positions
    }

    /// `tokens` as a sentence again, normalised ("what's" is two tokens of one surface).
    private static func text(_ tokens: ArraySlice<Token>) -> String {
        tokens.map(\.text).joined(separator: " ")
    }

    /// Whether `match` reads a joiner of its sentence as its own: its phrase says one ("… hours
    /// and … minutes"), or a value named by it holds it ("Pride and Prejudice"). Free text that
    /// takes one in, a name found in words that hold one ("dune and order ulysses" for Dune), or
    /// a joiner skipped, is not.
    private static func accountsForTheJoiners(_ match: PhraseMatch) -> Bool {
        func joins(_ text: String) -> Bool {
            TextNormalizer.tokens(text).contains(where: isJoinerWord)
        }
        return joins(match.phrase)
            || match.values.values.contains { $0.isKnown && !$0.isFreeText && joins($0.title ?? "") }
    }

    private static func reachesACommand(_ result: MatchResult) -> Bool {
        result.best != nil && result.negativePhrase == nil
    }

    /// The lowest score among `parts`' best matches.
    private static func weakest(_ parts: [MatchResult]) -> Double {
        parts.map { $0.best?.score ?? 0 }.min() ?? 0
    }

    /// Words that stand for what the command before named.
    static let pronouns: Set<String> = ["it", "them", "that", "those", "there"]

    /// The match of one part of a joined sentence. When it says a pronoun and a command came
    /// before (`before`), each ending of that command ("the lights in the office", "lights in
    /// the office", …) is also tried in the pronoun's place, and the reading that fits best is
    /// taken, with what it took in its explanation.
    private func match(_ part: ArraySlice<Token>, before: ArraySlice<Token>?, context: [String: String]) async
        -> MatchResult
    {
        let plain = await match(Self.text(part), context: context)
        // Only a pronoun the part cannot place: where it reaches no command, or the pronoun is
        // a value that names nothing known ("set [them] to blue"), not "Dune, add it to my list".
        guard let before, before.count > 1,
            let pronoun = part.firstIndex(where: { Self.pronouns.contains($0.text) }),
            plain.best.map({ best in
                best.values.values.contains { value in
                    !value.isKnown
                        && TextNormalizer.tokens(value.words).contains { $0.text == part[pronoun].text }
                }
            }) ?? true
        else { return plain }
        var best = plain
        for start in before.indices.dropFirst() {
            let named = before[start...]
            let reading = part[part.startIndex..<pronoun] + named + part[(pronoun + 1)...]
            let result = await match(Self.text(reading), context: context)
            guard var match = result.best, match.score > (best.best?.score ?? 0), result.negativePhrase == nil
            else { continue }
            match.explanation.append("took \"\(part[pronoun].text)\" for \"\(Self.text(named))\"")
            best = result.replacingBest(with: match)
        }
        return best
    }
}
