import Foundation
import VoiceRecognition

/// Choosing a calibration's threshold from scored clips: the sweep `calibrate` runs.
extension Calibration {
    /// What a clip contributes to the sweep.
    package struct Sample: Sendable, Hashable, Codable {
        /// The sentence said: it decides the clip's half.
        package var sentence: String
        /// The recognizer's confidence; 0 when nothing was heard.
        package var score: Double
        /// Whether the test expects an intent.
        package var isCommand: Bool
        /// Whether the transcript reached an intent (any).
        package var reachedIntent: Bool
        /// Whether the transcript reached exactly what the test expects.
        package var isRight: Bool

        package init(sentence: String, score: Double, isCommand: Bool, reachedIntent: Bool, isRight: Bool) {
            self.sentence = sentence
            self.score = score
            self.isCommand = isCommand
            self.reachedIntent = reachedIntent
            self.isRight = isRight
        }

        /// Accepted at `threshold`: it reached an intent, with a score at least the threshold.
        package func isAccepted(at threshold: Double) -> Bool { reachedIntent && score >= threshold }
    }

    /// Chooses the threshold for `samples` and measures it on both halves.
    ///
    /// - Parameters:
    ///   - maxFalseRejects: The cap on the tuning half's `Figures.falseRejects`, 0 to 1.
    ///   - curveStep: The step between the points of `curve`.
    package init(
        app: String, measure: String = confidenceMeasure, samples: [Sample], maxFalseRejects: Double,
        date: Date = Date(), command: String? = nil, curveStep: Double = 0.01
    ) {
        let (tuningSamples, heldOutSamples) = Self.split(samples)
        let threshold = Self.recommend(tuningSamples, maxFalseRejects: maxFalseRejects)
        let steps = Int((1 / curveStep).rounded())
        let curve = (0...steps).map { step in
            let threshold = Double(step) / Double(steps)
            return CurvePoint(
                tuning: Self.figures(tuningSamples, at: threshold),
                heldOut: Self.figures(heldOutSamples, at: threshold))
        }
        self.init(
            app: app, measure: measure, threshold: threshold, maxFalseRejects: maxFalseRejects,
            tuning: Self.figures(tuningSamples, at: threshold),
            heldOut: Self.figures(heldOutSamples, at: threshold),
            date: ISO8601DateFormatter().string(from: date), command: command, curve: curve)
    }

    // MARK: The sweep

    /// Whether a sentence's clips are in the tuning half (else held out): a hash of the sentence,
    /// the same on every run and machine, so every voice and condition of a sentence is on the
    /// same side, and about half of the sentences on each.
    package static func isTuning(_ sentence: String) -> Bool {
        // FNV-1a, then SplitMix64's finaliser: FNV's low bits follow the bytes' low bits too closely.
        var value = UInt64(SpeechCache.hash(sentence), radix: 16) ?? 0
        value ^= value >> 30
        value = value &* 0xbf58_476d_1ce4_e5b9
        value ^= value >> 27
        value = value &* 0x94d0_49bb_1331_11eb
        value ^= value >> 31
        return value >> 63 == 0
    }

    /// `samples` in the tuning half and in the held-out half (``isTuning(_:)``).
    package static func split(_ samples: [Sample]) -> (tuning: [Sample], heldOut: [Sample]) {
        var tuning: [Sample] = []
        var heldOut: [Sample] = []
        for sample in samples {
            if isTuning(sample.sentence) { tuning.append(sample) } else { heldOut.append(sample) }
        }
        return (tuning, heldOut)
    }

    /// What `threshold` does to `samples`. Shares of nothing are 0.
    package static func figures(_ samples: [Sample], at threshold: Double) -> Figures {
        let commands = samples.filter(\.isCommand)
        let others = samples.filter { !$0.isCommand }
        let right = commands.filter(\.isRight)
        func share(_ part: Int, _ whole: Int) -> Double { whole == 0 ? 0 : Double(part) / Double(whole) }
        return Figures(
            threshold: threshold, clips: samples.count, commands: commands.count, nonCommands: others.count,
            rightCommands: right.count,
            falseAccepts: share(others.count { $0.isAccepted(at: threshold) }, others.count),
            wrongAccepts: share(
                commands.count { !$0.isRight && $0.isAccepted(at: threshold) }, commands.count),
            falseRejects: share(right.count { !$0.isAccepted(at: threshold) }, right.count),
            allFalseRejects: share(commands.count { !$0.isAccepted(at: threshold) }, commands.count))
    }

    /// The threshold with the fewest wrong accepts (non-commands accepted, and commands accepted
    /// with a wrong intent or value) whose `Figures.falseRejects` on `samples` are at most
    /// `maxFalseRejects`; of equals, the lowest (fewest false rejects). 0 accepts everything heard,
    /// so there always is one.
    ///
    /// Candidates are 0 and every score in `samples`: between two scores nothing changes.
    package static func recommend(_ samples: [Sample], maxFalseRejects: Double) -> Double {
        let candidates = Set([0] + samples.filter(\.reachedIntent).map(\.score)).sorted()
        let right = samples.filter { $0.isCommand && $0.isRight }
        var best = 0.0
        var fewest = Int.max
        for threshold in candidates {
            let rejected = right.count { !$0.isAccepted(at: threshold) }
            guard right.isEmpty || Double(rejected) / Double(right.count) <= maxFalseRejects + 1e-12 else {
                break  // false rejects only grow with the threshold
            }
            let wrong = samples.count { !$0.isRight && $0.isAccepted(at: threshold) }
            if wrong < fewest {
                fewest = wrong
                best = threshold
            }
        }
        return best
    }
}
