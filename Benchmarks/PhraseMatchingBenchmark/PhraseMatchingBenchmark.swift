// Phrase matching benchmark: compile time, match latency (p50, p99) and memory for each sample
// app and for a generated large app (200 shortcuts, 1,000 phrases, 20,000 entity names).
//
//     VOICE_INTENTS_BENCHMARKS=1 swift run -c release phrase-benchmark
//
// Latency is measured over sentences made from the apps' own phrases with noise added (a filler,
// a dropped word, a misheard name) and over unrelated sentences. The baseline, run in the same
// process, aligns each sentence with every phrase, bounded only by the best fit found so far (no
// least-cost bounds): the ratio shows what the bounds save as an app grows. It prints figures only; it asserts nothing.

import BenchmarkCommand
import Foundation
import HomeLights
import House
import Library
import PhraseMatching
import SmartHome
import TravelTracking
import VoiceIntents

@main
struct PhraseMatchingBenchmark: AsyncParsableCommand {
    static let appNames = ["travel-tracking", "library", "smart-home", "home-lights", "house", "large"]

    static let configuration = CommandConfiguration(
        commandName: "phrase-benchmark",
        abstract: "Compile time, match latency (p50, p99) and memory of the phrase matcher, per app.",
        discussion: """
            Measures each sample app, House (the matcher's stress app) and a generated large app, \
            with a baseline in the same process that aligns every phrase; runs each app's phrase \
            tests and times them. It prints figures only; it asserts nothing.
            """)

    @Flag(help: "Also print where a match spends its time, and each phrase test that fails.")
    var breakdown = false

    @Flag(
        help: ArgumentHelp(
            "Also join every ordered pair of each app's own test sentences with \"and\" and count those read as both commands.",
            discussion: "Times matchJoined on the pairs, and on the single sentences against match alone."))
    var joined = false

    @Argument(
        help: ArgumentHelp("The apps to measure (default: all).", valueName: appNames.joined(separator: "|")))
    var apps: [String] = []

    func validate() throws {
        for name in apps where !Self.appNames.contains(name) {
            throw ValidationError("no app \"\(name)\"; there are \(Self.appNames.joined(separator: ", "))")
        }
    }

    func run() async throws {
        print("phrase matching benchmark (\(ProcessInfo.processInfo.activeProcessorCount) cores)")
        print("app             phrases compile ms  p50 µs    p99 µs    baseline p50  ratio   memory MiB")

        var suiteRows: [String] = []
        func wanted(_ name: String) -> Bool { apps.isEmpty || apps.contains(name) }

        let travel = AppDependencyManager()
        TravelTrackingApp.registerDependencies(in: travel)
        let library = AppDependencyManager()
        LibraryApp.registerDependencies(in: library)
        // The stress app: 16 intents and 157 phrases over the same few words (Benchmarks/House).
        let housePhrases = phrasesFolder.deletingLastPathComponent().appendingPathComponent(
            "Benchmarks/House/Phrases")
        let catalogued:
            [(name: String, app: AppDescription, dependencies: AppDependencyManager, phrases: URL)] = [
                ("travel-tracking", AppDescription(TravelTrackingApp.self), travel, phrasesFolder),
                ("library", AppDescription(LibraryApp.self), library, phrasesFolder),
                ("smart-home", AppDescription(SmartHomeApp.self), AppDependencyManager(), phrasesFolder),
                ("home-lights", AppDescription(HomeLightsApp.self), AppDependencyManager(), phrasesFolder),
                ("house", AppDescription(HouseApp.self), AppDependencyManager(), housePhrases),
            ]
        for (name, app, dependencies, phrases) in catalogued where wanted(name) {
            suiteRows += try await measure(
                name, app, catalog: try PhraseCatalog.load(app: name, locale: "en", in: phrases),
                dependencies: dependencies, phrases: phrases, breakdown: breakdown, joined: joined
            ).tests
        }

        if wanted("large") {
            suiteRows += try await measure(
                "large (20k names)", AppDescription(GeneratedApp.self), catalog: nil,
                dependencies: AppDependencyManager(), breakdown: breakdown
            ).tests
        }

        if !suiteRows.isEmpty {
            print("\nphrase tests     passed        %       p50 µs    p99 µs")
            for row in suiteRows { print(row) }
        }

        let peak = ProcessMemory.current.peak
        print("peak resident memory: \(format(peak)) MiB")
        print("targets: p50 ≤ 50 µs for the sample apps, ≤ 1000 µs for the large app, compile ≤ 1000 ms")
    }
}
