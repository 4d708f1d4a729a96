import Foundation
import PhraseMatching
import VoiceIntents
import VoiceRecognition
import VoiceUnderstanding

/// What a spoken evaluation found: every clip's outcome and the figures over them.
///
/// A clip of a command is *accepted* when the transcript reaches the expected intent with every
/// expected value and no other; a clip of a no-match sentence is a *false accept* when its
/// transcript reaches any intent. ``markdown(command:bar:plots:words:)`` gives the report for people;
/// `JSONEncoder` gives the figures for tools (the clips are left out of the JSON, as they can be
/// tens of thousands: ``clipLines()`` gives them as JSON Lines).
package struct EvaluationReport: Sendable, Codable {
    /// One clip and what became of it.
    package struct Clip: Sendable, Codable {
        package let sentence: String
        /// Where the test is: `file:line:column`.
        package let source: String
        /// The voice and rate, or `recorded`.
        package let speaker: String
        package let voice: String
        /// `clean`, or the noise and its ratio (`babble 10 dB`).
        package let condition: String
        /// The signal-to-noise ratio in dB; `nil` for clean.
        package let snr: Double?
        /// What the test expects and what the transcript reached, as phrase tests write them.
        package let expected: String
        package let got: String
        package let expectedIntent: String?
        package let gotIntent: String?
        /// What the recognizer heard.
        package let heard: String
        /// Whether the test expects a command (not no match).
        package let isCommand: Bool
        /// Whether the grammar can say the sentence word for word.
        package let isSayable: Bool
        /// Whether the transcript reached exactly what the test expects.
        package let isRight: Bool
        /// Per expected parameter, whether the intent and that value were right.
        package let values: [String: Bool]
        package let wordErrors: Int
        package let wordsSaid: Int
        /// Words said that were heard as another word, or lost ("" heard).
        package let misheard: [Misheard]
        /// Utterances with words in the clip (more than one: the sentence was cut in two).
        package let utterances: Int
        package let duration: Double
        package let decodeTime: Double
        package let latency: Double
        /// The confidence the voice loop would act on (``Understanding/confidence``: the
        /// recognizer's times the matcher's score; 0 when nothing was heard), when it was measured.
        package var confidence: Double? = nil
        /// The confidence below which the voice loop ignores what it heard (`listen`'s bar);
        /// `nil` for none: everything that reached an intent is acted on.
        package var bar: Double? = nil
        /// The parameters the voice loop would ask for before it runs the intent reached (not
        /// said, a name it does not know, or one whose words fit the sound too poorly); `nil`
        /// when none. A clip that asks still counts as acted on.
        package var asks: [String]? = nil
        /// Per value of the match, how much worse per frame its words fit the sound than the rest
        /// of the sentence (``RecognitionResult/fitMargin(ofValueWords:)``), when measured.
        package var valueFit: [String: Double]? = nil
        /// Which stretch of the condition's noise was under the clip (``SpokenEvaluation/takes``);
        /// `nil` for the first.
        package var take: Int? = nil
        /// The first utterance's best path, segment by segment (silences, fillers and garbage
        /// phone-words included), for work on rejection; `nil` when nothing was heard.
        package var path: [Segment]? = nil

        /// Whether the voice loop would act on the clip: it reached an intent at a confidence no
        /// lower than the ``bar``.
        package var isActedOn: Bool { gotIntent != nil && (bar.map { (confidence ?? 0) >= $0 } ?? true) }
        /// A command's intent and values all right, and acted on.
        package var isAccepted: Bool { isCommand && isRight && isActedOn }
        /// A no-match sentence acted on as a command.
        package var isFalseAccept: Bool { !isCommand && isActedOn }
        /// A command that was not acted on: it reached nothing, or stayed under the bar.
        package var isFalseReject: Bool { isCommand && !isActedOn }
        /// A command heard right that stayed under the bar.
        package var isRightBelowBar: Bool { isCommand && isRight && !isActedOn }
    }

    /// One segment of a clip's best path: a word, a silence or filler, or a garbage phone-word.
    package struct Segment: Sendable, Codable, Hashable {
        package let word: String
        /// First and last 10 ms frame.
        package let start: Int
        package let end: Int
        /// PocketSphinx's acoustic score (log scale, against the best sound in each frame).
        package let score: Int

        /// Whether the segment is a word said: no silence, filler or garbage phone-word.
        package var isSpoken: Bool { !RecognizedWord.isFiller(word) && !GarbageModel.isGarbage(word) }
    }

    /// A word said and what was heard in its place (empty: nothing).
    package struct Misheard: Sendable, Codable, Hashable {
        package let said: String
        package let heard: String
    }

    /// The figures over a group of clips.
    package struct Figures: Sendable, Codable {
        package let clips: Int
        package let commands: Int
        /// Commands with intent and every value right, 0 to 1.
        package let commandAcceptance: Double
        /// The same over the commands the grammar can say word for word: what the recognizer
        /// alone decides (the others also lean on the matcher's tolerance).
        package let sayableCommands: Int
        package let sayableAcceptance: Double
        /// Commands whose intent was right, 0 to 1.
        package let intentAccuracy: Double
        /// Per parameter: expected values heard right, 0 to 1, and how many were expected.
        package let valueAccuracy: [String: Double]
        package let valueCounts: [String: Int]
        /// No-match sentences, and the share of them that reached an intent.
        package let noMatchClips: Int
        package let falseAccepts: Double
        /// Commands not acted on (they reached nothing, or stayed under the bar), as a share of
        /// commands.
        package let falseRejects: Double
        /// Commands heard right that stayed under the bar.
        package let rightBelowBar: Int
        /// Word errors over words said, in the clips of commands (a no-match sentence is not in
        /// the grammar, so it can never be heard word for word).
        package let wordErrorRate: Double
        /// Decoding time over audio time, one core.
        package let realTimeFactor: Double
        /// Milliseconds from the end of the audio that ended the utterance to its transcript.
        package let latencyMilliseconds: Percentiles
        /// Clips whose sentence was heard as two utterances or more.
        package let splitClips: Int
        /// False accepts on which the voice loop would only ask for a value (``Clip/asks``)
        /// before running anything; `nil` in reports written before it was counted.
        package let falseAcceptsThatAsk: Int?

        init(_ clips: [Clip]) {
            self.clips = clips.count
            let commands = clips.filter(\.isCommand)
            let others = clips.filter { !$0.isCommand }
            self.commands = commands.count
            commandAcceptance = Self.share(commands, \.isAccepted)
            let sayable = commands.filter(\.isSayable)
            sayableCommands = sayable.count
            sayableAcceptance = Self.share(sayable, \.isAccepted)
            intentAccuracy = Self.share(commands) { $0.gotIntent == $0.expectedIntent }
            var right: [String: Int] = [:]
            var counts: [String: Int] = [:]
            for clip in commands {
                for (name, isRight) in clip.values {
                    counts[name, default: 0] += 1
                    if isRight { right[name, default: 0] += 1 }
                }
            }
            valueCounts = counts
            valueAccuracy = Dictionary(
                uniqueKeysWithValues: counts.map { ($0.key, Double(right[$0.key] ?? 0) / Double($0.value)) })
            noMatchClips = others.count
            falseAccepts = others.isEmpty ? 0 : Self.share(others, \.isFalseAccept)
            falseRejects = commands.isEmpty ? 0 : Self.share(commands, \.isFalseReject)
            rightBelowBar = commands.count(where: \.isRightBelowBar)
            let said = commands.reduce(0) { $0 + $1.wordsSaid }
            wordErrorRate = said == 0 ? 0 : Double(commands.reduce(0) { $0 + $1.wordErrors }) / Double(said)
            let audio = clips.reduce(0) { $0 + $1.duration }
            realTimeFactor = audio == 0 ? 0 : clips.reduce(0) { $0 + $1.decodeTime } / audio
            latencyMilliseconds = Percentiles(clips.filter { !$0.heard.isEmpty }.map { $0.latency * 1_000 })
            splitClips = clips.count { $0.utterances > 1 }
            falseAcceptsThatAsk = others.count { $0.isFalseAccept && $0.asks != nil }
        }

        static func share(_ clips: [Clip], _ predicate: (Clip) -> Bool) -> Double {
            clips.isEmpty ? 1 : Double(clips.count(where: predicate)) / Double(clips.count)
        }
    }

    /// The median, 90th and 99th percentiles and the maximum of a set of figures.
    package struct Percentiles: Sendable, Codable {
        package let median: Double
        package let p90: Double
        package let p99: Double
        package let maximum: Double

        init(_ values: [Double]) {
            let sorted = values.sorted()
            func at(_ share: Double) -> Double { sorted.isEmpty ? 0 : percentile(sorted, share) }
            median = at(0.5)
            p90 = at(0.9)
            p99 = at(0.99)
            maximum = sorted.last ?? 0
        }
    }

    /// The app evaluated.
    package let app: String
    /// When the evaluation ran (ISO 8601).
    package let date: String
    package let voices: [String]
    package let conditions: [String]
    /// Every clip (not encoded: see ``clipLines()``).
    package let clips: [Clip]
    /// Over all clips, per condition, per voice, and per voice in each condition.
    package let overall: Figures
    package let byCondition: [String: Figures]
    package let byVoice: [String: Figures]
    package let byVoiceAndCondition: [String: [String: Figures]]

    enum CodingKeys: String, CodingKey {
        case app, date, voices, conditions, overall, byCondition, byVoice, byVoiceAndCondition
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        app = try container.decode(String.self, forKey: .app)
        date = try container.decode(String.self, forKey: .date)
        voices = try container.decode([String].self, forKey: .voices)
        conditions = try container.decode([String].self, forKey: .conditions)
        clips = []
        overall = try container.decode(Figures.self, forKey: .overall)
        byCondition = try container.decode([String: Figures].self, forKey: .byCondition)
        byVoice = try container.decode([String: Figures].self, forKey: .byVoice)
        byVoiceAndCondition = try container.decode(
            [String: [String: Figures]].self, forKey: .byVoiceAndCondition)
    }

    /// Every clip as a line of JSON.
    package func clipLines() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var data = Data()
        for clip in clips {
            data.append(try encoder.encode(clip))
            data.append(0x0A)
        }
        return data
    }

    /// Matches every transcript and compares it with its test.
    ///
    /// - Parameter valueMargin: As the voice loop's (``Understanding``): a value whose words fit
    ///   the sound this much worse per frame than the rest of the sentence is asked for, not
    ///   taken; `nil` keeps every value.
    package init(
        app: String, heard: [SpokenEvaluation.Heard], matcher: PhraseMatcher,
        valueMargin: Double? = RecognitionResult.valueMisfitMargin
    ) async {
        var clips: [Clip] = []
        // Each transcript is matched once; the matcher's score is what the confidence the voice
        // loop acts on (``Understanding``) multiplies the recognizer's by.
        var matches: [String: MatchResult] = [:]
        for clip in heard {
            let outcome: (got: PhraseTestSuite.Expectation, description: String, matching: Double)
            var asks: [String]?
            var fits: [String: Double] = [:]
            if clip.transcript.isEmpty {
                outcome = (.noMatch, "no match (nothing heard)", 0)
            } else {
                let match: MatchResult
                if let known = matches[clip.transcript] {
                    match = known
                } else {
                    match = await matcher.match(clip.transcript)
                    matches[clip.transcript] = match
                }
                if let parts = await matcher.matchJoined(clip.transcript, whole: match) {
                    // Several commands in one breath, each checked as it would be alone.
                    let checked = parts.map { part in
                        let fits =
                            clip.recognition.map { Understanding.valueFits(of: part, heard: $0) } ?? [:]
                        return Understanding.checkingValues(of: part, fits: fits, margin: valueMargin)
                    }
                    let (got, description) = matcher.outcome(ofJoined: checked)
                    let weakest = checked.map { Understanding.confidence(hearing: 1, match: $0) }.min() ?? 0
                    outcome = (got, description, weakest)
                    let missing = checked.compactMap(\.best).flatMap { $0.missing + $0.unknown }
                    asks = missing.isEmpty ? nil : missing.sorted()
                } else {
                    // Measured once, for the check and for the report.
                    fits = clip.recognition.map { Understanding.valueFits(of: match, heard: $0) } ?? [:]
                    let checked = Understanding.checkingValues(of: match, fits: fits, margin: valueMargin)
                    let (got, description) = matcher.outcome(of: checked)
                    outcome = (got, description, Understanding.confidence(hearing: 1, match: match))
                    asks = checked.best.map { $0.missing + $0.unknown }.flatMap {
                        $0.isEmpty ? nil : $0.sorted()
                    }
                }
            }
            var clip = clip
            if let hearing = clip.confidence { clip.confidence = hearing * outcome.matching }
            var scored = Self.clip(clip, got: outcome.got, description: outcome.description)
            scored.asks = asks
            scored.valueFit = fits.isEmpty ? nil : fits.mapValues { ($0 * 10).rounded() / 10 }
            clips.append(scored)
        }
        self.init(app: app, clips: clips)
    }

    /// The same clips, acted on only at `bar` or above (`nil`: everything that reached an intent),
    /// the figures counted again.
    package func acting(at bar: Double?) -> EvaluationReport {
        EvaluationReport(
            app: app,
            clips: clips.map { clip in
                var clip = clip
                clip.bar = bar
                return clip
            })
    }

    /// A report of clips already scored.
    package init(app: String, clips: [Clip], date: Date = Date()) {
        self.app = app
        self.date = ISO8601DateFormatter().string(from: date)
        self.clips = clips
        var voices: [String] = []
        for clip in clips where !voices.contains(clip.voice) { voices.append(clip.voice) }
        self.voices = voices
        let conditions = Self.conditionOrder(clips)
        self.conditions = conditions
        overall = Figures(clips)
        byCondition = Dictionary(grouping: clips, by: \.condition).mapValues(Figures.init)
        byVoice = Dictionary(grouping: clips, by: \.voice).mapValues(Figures.init)
        byVoiceAndCondition = Dictionary(grouping: clips, by: \.voice).mapValues { clips in
            Dictionary(grouping: clips, by: \.condition).mapValues(Figures.init)
        }
    }

    /// Conditions as they appear, clean first, then by falling signal-to-noise ratio.
    static func conditionOrder(_ clips: [Clip]) -> [String] {
        var seen: [String: Double] = [:]
        for clip in clips where seen[clip.condition] == nil { seen[clip.condition] = clip.snr ?? .infinity }
        return seen.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map(\.key)
    }

    static func clip(_ heard: SpokenEvaluation.Heard, got: PhraseTestSuite.Expectation, description: String)
        -> Clip
    {
        let testCase = heard.item.testCase
        let expected = testCase.expectation
        var values: [String: Bool] = [:]
        for (name, value) in expected.values {
            values[name] =
                got.intent == expected.intent
                && got.values[name].map(TextNormalizer.key) == TextNormalizer.key(value)
        }
        let condition = heard.item.condition
        return Clip(
            sentence: testCase.sentence, source: "\(testCase.source)", speaker: "\(heard.item.speaker)",
            voice: heard.item.speaker.voiceName, condition: "\(condition)",
            snr: condition.snr.isFinite ? condition.snr : nil, expected: "\(expected)", got: description,
            expectedIntent: expected.intent, gotIntent: got.intent, heard: heard.transcript,
            isCommand: expected.intent != nil, isSayable: heard.isSayable, isRight: expected.isMet(by: got),
            values: values,
            wordErrors: heard.wordErrors, wordsSaid: heard.wordsSaid,
            misheard: heard.misheard.map { Misheard(said: $0.said, heard: $0.heard ?? "") },
            utterances: heard.utterances, duration: heard.duration, decodeTime: heard.decodeTime,
            latency: heard.latency, confidence: heard.confidence,
            take: heard.item.take == 0 ? nil : heard.item.take,
            path: heard.recognition?.words.map {
                Segment(word: $0.word, start: $0.startFrame, end: $0.endFrame, score: $0.acousticScore)
            })
    }
}
