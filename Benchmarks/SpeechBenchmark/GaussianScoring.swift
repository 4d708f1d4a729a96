import BenchmarkCommand
import Foundation
import PhraseMatching
import VoiceEvaluation
import VoiceRecognition

/// What scoring the acoustic model's Gaussians costs: people's recorded commands to the two
/// houses, each on a fresh channel, heard with the library's own scoring (the baseline) and with
/// the project's AVX2 scoring, in the same process, clean and in pink noise at 10 dB; one
/// recognizer at a time. The transcripts must be the same (the scores are the library's bit for
/// bit); the real-time factors and the reply's latency are printed with their ratio.
enum GaussianScoring {
    static func run(phrases: URL) async throws {
        print("scoring the acoustic model: people's recorded commands, each on a fresh channel")
        let wasOwn = SpeechRecognizer.scoresGaussiansOwnWay
        defer { SpeechRecognizer.scoreGaussiansOwnWay(wasOwn) }
        for (name, grammar, commands) in try await Houses.commands(phrases: phrases) {
            let cases = commands.filter { $0.audio != nil }
            for condition in [NoiseCondition.clean, .noise(.pink, snr: 10)] {
                /// Every clip heard with the project's scoring on or off.
                func heard(own: Bool) throws -> [SpokenEvaluation.Heard] {
                    SpeechRecognizer.scoreGaussiansOwnWay(own)
                    let evaluation = SpokenEvaluation(
                        conditions: [condition], configuration: try .installed(), workers: 1)
                    return try evaluation.hear(evaluation.items(for: cases), grammar: grammar)
                }
                let library = try heard(own: false)
                let own = try heard(own: true)
                let same = zip(library, own).count { $0.transcript == $1.transcript }
                print("  \(name), \(condition), \(cases.count) commands: \(same) heard alike")
                for (label, clips) in [("the library's (baseline)", library), ("the project's", own)] {
                    let latency = quantiles(
                        clips.filter { !$0.transcript.isEmpty }.map { $0.latency * 1_000 }, at: [0.5, 0.9])
                    print(
                        "    \(label): real-time factor \(format(ChannelLearning.realTimeFactor(clips))), after the audio ends \(format(latency[0], 0)) / \(format(latency[1], 0)) ms (median / p90)"
                    )
                }
                let ratio = ChannelLearning.realTimeFactor(own) / ChannelLearning.realTimeFactor(library)
                print("    cost: \(format(ratio, 2))× the baseline")
            }
        }
        print("decoders that went back to the library's scoring: \(SpeechRecognizer.gaussianDisagreements)")
    }
}
