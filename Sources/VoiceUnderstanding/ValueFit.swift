import PhraseMatching
import VoiceRecognition

extension RecognitionResult {
    /// How much worse per frame than the rest of its sentence a value's words may fit the sound
    /// before the value counts as not heard (``Understanding``).
    ///
    /// A grammar can only hear the names it knows, so a name it does not know comes out as the
    /// nearest one it does ("turn off the garage light" as "turn off the office lights", to an
    /// app with an office and no garage light), and the sentence around it still fits well. On
    /// three speakers' recordings, clean and in four kinds of recorded noise at 10 and 6 dB, two
    /// values really said in 843 scored below this (an "on" in street noise, a "ten" before "of
    /// clubs"), and 77 of the 660 values of other people's speech forced onto an app's names did
    /// (`Benchmarks/Calibration/people/README.md`, "A name that does not fit").
    package static let valueMisfitMargin = -30.0

    /// The acoustic score per frame of the run of spoken words `value` (a matched value's words,
    /// "office"), minus that of the other spoken words; `nil` when the run is not among the words
    /// or nothing else was said.
    package func fitMargin(ofValueWords value: String) -> Double? {
        let run = value.lowercased().split(separator: " ").map(String.init)
        let spoken = spokenWords
        let words = spoken.map { Self.dictionaryForm($0.word) }
        guard !run.isEmpty, run.count < words.count,
            let start = words.indices.first(where: { words[$0...].starts(with: run) })
        else { return nil }
        let inRun = start..<(start + run.count)
        func perFrame(_ segments: [RecognizedWord]) -> Double? {
            let frames = segments.reduce(0) { $0 + max($1.endFrame - $1.startFrame + 1, 1) }
            return frames > 0 ? Double(segments.reduce(0) { $0 + $1.acousticScore }) / Double(frames) : nil
        }
        let rest = spoken.indices.filter { !inRun.contains($0) }.map { spoken[$0] }
        guard let valueScore = perFrame(Array(spoken[inRun])), let restScore = perFrame(rest) else {
            return nil
        }
        return valueScore - restScore
    }

    /// A word as the dictionary spells it, without the number of its alternative pronunciation:
    /// "the(2)" → "the".
    static func dictionaryForm(_ word: String) -> String {
        guard word.hasSuffix(")"), let open = word.lastIndex(of: "(") else { return word.lowercased() }
        return word[..<open].lowercased()
    }
}

extension Understanding {
    /// `match` with every value of its best candidate whose words fit the sound `margin` per
    /// frame worse than the rest of the sentence (`RecognitionResult/fitMargin(ofValueWords:)`)
    /// taken back, as if it had not been said: the runtime asks for it instead of acting on a
    /// name nobody said. A `margin` of `nil` keeps every value.
    package static func checkingValues(
        of match: MatchResult, heard: RecognitionResult, margin: Double? = RecognitionResult.valueMisfitMargin
    ) -> MatchResult {
        guard margin != nil else { return match }
        return checkingValues(of: match, fits: valueFits(of: match, heard: heard), margin: margin)
    }

    /// How much worse per frame than the rest of the sentence each value of `match`'s best
    /// candidate fits the sound, by parameter: the values whose words were found among the words
    /// heard (`RecognitionResult/fitMargin(ofValueWords:)`).
    package static func valueFits(of match: MatchResult, heard: RecognitionResult) -> [String: Double] {
        (match.best?.values ?? [:]).compactMapValues { heard.fitMargin(ofValueWords: $0.words) }
    }

    /// ``checkingValues(of:heard:margin:)`` with the fits already measured (``valueFits(of:heard:)``).
    package static func checkingValues(of match: MatchResult, fits: [String: Double], margin: Double?)
        -> MatchResult
    {
        guard let margin, var best = match.best else { return match }
        // Free text is heard in a pass of its own, and read back before it runs.
        for (parameter, value) in best.values.sorted(by: { $0.key < $1.key })
        where value.isKnown && !value.isFreeText {
            guard let fit = fits[parameter], fit < margin else { continue }
            best = best.withoutValue(
                parameter,
                because:
                    "\"\(value.words)\" fits the sound \(Int((-fit).rounded())) per frame worse than the rest"
            )
        }
        return match.replacingBest(with: best)
    }
}
