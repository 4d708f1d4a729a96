// The rejection benchmark's figures: what a clip gave, and the rates, thresholds and spreads
// computed from many.

import BenchmarkSupport
import Foundation
import PhraseMatching
import VoiceEvaluation
import VoiceRecognition

func format(_ value: Double, _ digits: Int = 3) -> String { String(format: "%.\(digits)f", value) }
func percent(_ value: Double) -> String { String(format: "%.1f%%", value * 100) }

/// What one clip gave: the transcript, the times, and every candidate measure (higher means more
/// like a command).
struct Outcome: Sendable {
    let job: Job
    let transcript: String
    let audioSeconds: Double
    let grammarSeconds: Double
    let loopSeconds: [Double]
    let allSenonesSeconds: Double
    let dictationSeconds: Double?
    let measures: [String: Double]
    /// What each garbage setting heard, in the order of `garbageSettings`.
    var garbage: [GarbageHearing] = []
}

/// What one clip gave under a grammar with a garbage path.
struct GarbageHearing: Sendable {
    let transcript: String
    let kind: GarbageKind?
    /// The command's words (no garbage, no fillers).
    let words: [String]
    let seconds: Double
    /// The share of the frames of words (garbage included) spent on garbage phone-words.
    let garbageShare: Double
    /// The path score.
    let score: Int
}

/// False accepts and false rejects of `measure` at `threshold` among `clips` (a clip with no
/// words, or without the measure, is rejected).
func rates(_ clips: [Outcome], _ measure: String, _ threshold: Double) -> (
    fa: Double, fr: Double, commands: Int, others: Int
) {
    let commands = clips.filter(\.job.isCommand)
    let others = clips.filter { !$0.job.isCommand }
    func accepted(_ clip: Outcome) -> Bool { (clip.measures[measure] ?? -.infinity) >= threshold }
    return (
        Double(others.filter(accepted).count) / Double(max(others.count, 1)),
        Double(commands.filter { !accepted($0) }.count) / Double(max(commands.count, 1)), commands.count,
        others.count
    )
}

/// The highest threshold that rejects at most `allowed` of the commands with words among `clips`.
func threshold(_ clips: [Outcome], _ measure: String, allowed: Double = 0.02) -> Double {
    let values = clips.filter(\.job.isCommand).compactMap { $0.measures[measure] }.sorted()
    guard !values.isEmpty else { return -.infinity }
    return values[Int((Double(values.count) * allowed).rounded(.down))]
}

/// The chance that a command with words scores higher than another clip with words.
func areaUnderCurve(_ clips: [Outcome], _ measure: String) -> Double {
    areaUnderCurve(
        positives: clips.filter(\.job.isCommand).compactMap { $0.measures[measure] },
        negatives: clips.filter { !$0.job.isCommand }.compactMap { $0.measures[measure] })
}

/// Prints `measure` at 1/5/25/50/75/95/99% of the commands among `clips`, then of the others.
func printSpread(_ clips: [Outcome], _ measure: String, as label: String) {
    for isCommand in [true, false] {
        let values = clips.filter { $0.job.isCommand == isCommand }.compactMap { $0.measures[measure] }
        let points = quantiles(values, at: [0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99])
        guard !points.isEmpty else { continue }
        print(
            "\(isCommand ? "commands" : "others"): \(label) at 1/5/25/50/75/95/99%: \(points.map { format($0, 0) }.joined(separator: " "))"
        )
    }
}

/// Whether a garbage setting let a clip through as a command: some words, and no garbage in them.
func garbageAccepts(_ clip: Outcome, _ index: Int) -> Bool {
    let hearing = clip.garbage[index]
    return hearing.kind == nil && !hearing.words.isEmpty
}

/// A garbage setting's figures on `clips`, optionally combined with a measure's threshold.
func garbageRates(_ clips: [Outcome], _ index: Int, measure: String? = nil, threshold: Double = -.infinity)
    -> (fa: Double, fr: Double, commands: Int, others: Int)
{
    let commands = clips.filter(\.job.isCommand)
    let others = clips.filter { !$0.job.isCommand }
    func accepted(_ clip: Outcome) -> Bool {
        garbageAccepts(clip, index)
            && (measure.map { (clip.measures[$0] ?? -.infinity) >= threshold } ?? true)
    }
    return (
        Double(others.filter(accepted).count) / Double(max(others.count, 1)),
        Double(commands.filter { !accepted($0) }.count) / Double(max(commands.count, 1)), commands.count,
        others.count
    )
}

/// The highest threshold of `measure` that keeps the combination's false rejects among the
/// tuning commands at most `allowed` (no threshold when the garbage path alone rejects more).
func combinedThreshold(_ clips: [Outcome], _ index: Int, _ measure: String, allowed: Double = 0.02) -> Double
{
    let commands = clips.filter(\.job.isCommand)
    let budget = Int((Double(commands.count) * allowed).rounded(.down))
    let rejectedByGarbage = commands.filter { !garbageAccepts($0, index) }.count
    guard rejectedByGarbage < budget else { return -.infinity }
    let values = commands.filter { garbageAccepts($0, index) }.compactMap { $0.measures[measure] }.sorted()
    let left = budget - rejectedByGarbage
    return values.isEmpty ? -.infinity : values[min(left, values.count - 1)]
}
