import Foundation
import VoiceIntents

extension PhraseMatcher {
    /// How many phrases were compiled (Swift, catalog and negative).
    public var phraseCount: Int { phrases.count }

    /// Example sentences of every phrase (see ``lint()``), for benchmarks and tools.
    public func phraseExamples(limitPerPhrase: Int = 2) -> [String] {
        phrases.filter { $0.shortcut != nil }.flatMap { examples(of: $0, limit: limitPerPhrase) }
    }

    /// Aligns `sentence` with every phrase, without least-cost bounds: the baseline the
    /// benchmark compares the bounds with.
    package func alignWithEveryPhrase(_ sentence: String) -> Int {
        // Every phrase in written order, with bounds that rule none out.
        let everyPhrase = Candidates(
            order: Array(phrases.indices), wordsCost: Array(repeating: 0, count: phrases.count),
            heard: Array(repeating: 2, count: words.words.count), hearsApplicationName: true,
            valueHeard: Array(repeating: true, count: vocabularies.count))
        return align(prepare(TextNormalizer.tokens(sentence)), candidates: everyPhrase).count
    }
}

extension PhraseMatcher {
    /// Where matching `sentences` spends its time, as mean microseconds per sentence for each
    /// stage (tokenising, preparing, choosing candidates, aligning) and for the whole match: for
    /// the benchmark's `--breakdown`.
    package func timingBreakdown(_ sentences: [String]) async -> String {
        let clock = ContinuousClock()
        var tokenize = Duration.zero
        var prepare = Duration.zero
        var choose = Duration.zero
        var alignAll = Duration.zero
        var full = Duration.zero
        var candidateCount = 0
        for sentence in sentences {
            var t = clock.now
            let tokens = TextNormalizer.tokens(sentence)
            tokenize += clock.now - t
            t = clock.now
            let prepared = self.prepare(tokens)
            prepare += clock.now - t
            t = clock.now
            let ids = candidates(for: prepared)
            choose += clock.now - t
            candidateCount += ids.order.count
            t = clock.now
            _ = align(prepared, candidates: ids)
            alignAll += clock.now - t
            t = clock.now
            _ = await match(sentence)
            full += clock.now - t
        }
        let n = Double(sentences.count)
        func us(_ d: Duration) -> String {
            String(format: "%.1f", d.inSeconds * 1e6 / n)
        }
        return
            "tokenize \(us(tokenize)) prepare \(us(prepare)) candidates \(us(choose)) (\(Double(candidateCount) / n)) align \(us(alignAll)) match \(us(full))"
    }
}

extension PhraseMatcher {
    /// The parameters of `match` whose values are free text (a `String` parameter's words) that
    /// are none of the parameter's suggestions, by name: what a recognizer heard among common
    /// words, which a voice front end reads back before the intent runs.
    package func unsuggestedFreeText(in match: PhraseMatch) -> [String: String] {
        match.values.filter { name, value in
            guard value.isFreeText else { return false }
            let words = TextNormalizer.tokens(value.words).map(\.text)
            return suggestedText[match.intent]?[name]?.contains(words) != true
        }.mapValues(\.words)
    }
}
