import BenchmarkCommand
import Foundation
import PhraseMatching
import VoiceEvaluation
import VoiceIntents
import VoiceRecognition

/// What an adapted acoustic model (a folder `voice-intents adapt` wrote, or the manifest's) costs
/// and brings against Debian's model as it is, the baseline, in the same process: people's recorded commands to the two houses, each on a fresh
/// channel, clean and in pink noise at 10 dB; the decoder's load time and the memory it adds, the
/// real-time factor, and the commands heard word for word.
enum AcousticModels {
    static func run(phrases: URL, folder: String?) async throws {
        var shipped = try SpeechRecognizer.Configuration.installed()
        if let folder { shipped.adaptation = try AcousticAdaptation(folder: URL(fileURLWithPath: folder)) }
        guard let adaptation = shipped.adaptation else {
            print(
                "the models' manifest names no adapted acoustic model: give one with --acoustic-model <folder>"
            )
            return
        }
        print("acoustic models: Debian's (baseline) against \(adaptation.folder.lastPathComponent)")
        var debian = shipped
        debian.adaptation = nil
        let models = [("Debian's en-us (baseline)", debian), (adaptation.folder.lastPathComponent, shipped)]
        let clock = ContinuousClock()
        for (name, configuration) in models {
            let before = ProcessMemory.current.resident
            let start = clock.now
            let recognizer = try SpeechRecognizer(configuration)
            let load = clock.now - start
            print(
                "  \(name): loads in \(format(load.inSeconds, 2)) s, \(format(ProcessMemory.current.resident - before, 1)) MiB resident"
            )
            withExtendedLifetime(recognizer) {}
        }
        for (house, grammar, commands) in try await Houses.commands(phrases: phrases) {
            let cases = commands.filter { $0.audio != nil }
            for condition in [NoiseCondition.clean, .noise(.pink, snr: 10)] {
                print("  \(house), \(condition), \(cases.count) commands:")
                var baseline: Double?
                for (name, configuration) in models {
                    let evaluation = SpokenEvaluation(
                        conditions: [condition], configuration: configuration, workers: 1)
                    let clips = try evaluation.hear(evaluation.items(for: cases), grammar: grammar)
                    let rtf = ChannelLearning.realTimeFactor(clips)
                    let latency = quantiles(
                        clips.filter { !$0.transcript.isEmpty }.map { $0.latency * 1_000 }, at: [0.5, 0.9])
                    let ratio = baseline.map { ", \(format(rtf / max($0, 1e-9), 2))× the baseline" } ?? ""
                    baseline = baseline ?? rtf
                    print(
                        "    \(name): word for word \(clips.count { $0.wordErrors == 0 }), real-time factor \(format(rtf))\(ratio), after the audio ends \(format(latency[0], 0)) / \(format(latency[1], 0)) ms (median / p90)"
                    )
                }
            }
        }
    }
}
