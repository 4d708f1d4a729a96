import BenchmarkCommand
import Foundation
import PhraseMatching
import VoiceEvaluation
import VoiceRecognition

/// What learning the channel costs while it is young (a new stream, every clip of an
/// evaluation): people's recorded commands to the two houses, each on a fresh channel, heard
/// with the channel learnt from the utterance's sound before one decoding (the default) against
/// the baseline, run in the same process, that decodes each utterance as it arrives and again at
/// its end. Clean and in pink noise at 10 dB; one recognizer at a time.
enum ChannelLearning {
    static func run(phrases: URL) async throws {
        print("learning the channel: people's recorded commands, each on a fresh channel")
        for (name, grammar, commands) in try await Houses.commands(phrases: phrases) {
            let cases = commands.filter { $0.audio != nil }
            for condition in [NoiseCondition.clean, .noise(.pink, snr: 10)] {
                /// Every clip heard with `learnsFirst` set as given.
                func heard(learnsFirst: Bool) throws -> [SpokenEvaluation.Heard] {
                    var configuration = try SpeechRecognizer.Configuration.installed()
                    configuration.learnsChannelBeforeHearing = learnsFirst
                    let evaluation = SpokenEvaluation(
                        conditions: [condition], configuration: configuration, workers: 1)
                    return try evaluation.hear(evaluation.items(for: cases), grammar: grammar)
                }
                let baseline = try heard(learnsFirst: false)
                let learning = try heard(learnsFirst: true)
                let same = zip(baseline, learning).count { $0.transcript == $1.transcript }
                print("  \(name), \(condition), \(cases.count) commands: \(same) heard alike")
                let cost = realTimeFactor(learning) / realTimeFactor(baseline)
                for (label, clips) in [
                    ("decoded twice (baseline)", baseline), ("learnt, decoded once", learning),
                ] {
                    let latency = quantiles(
                        clips.filter { !$0.transcript.isEmpty }.map { $0.latency * 1_000 }, at: [0.5, 0.9])
                    print(
                        "    \(label): word for word \(clips.count { $0.wordErrors == 0 }), real-time factor \(format(realTimeFactor(clips))), after the audio ends \(format(latency[0], 0)) / \(format(latency[1], 0)) ms (median / p90)"
                    )
                }
                print("    cost: \(format(cost, 2))× the baseline")
            }
        }
    }

    /// Seconds spent decoding per second of audio.
    static func realTimeFactor(_ clips: [SpokenEvaluation.Heard]) -> Double {
        clips.reduce(0) { $0 + $1.decodeTime } / max(clips.reduce(0) { $0 + $1.duration }, 1e-9)
    }
}
