// Phrase matching benchmark: compile time, match latency (p50, p99) and memory for each sample
// app and for a generated large app (200 shortcuts, 1,000 phrases, 20,000 entity names).
//
//     VOICE_INTENTS_BENCHMARKS=1 swift run -c release phrase-benchmark
//
// Latency is measured over sentences made from the apps' own phrases with noise added (a filler,
// a dropped word, a misheard name) and over unrelated sentences. The baseline, run in the same
// process, aligns each sentence with every phrase, bounded only by the best fit found so far (no
// least-cost bounds): the ratio shows what the bounds save as an app grows. It prints figures only; it asserts nothing.

import Foundation
import HomeLights
import House
import Library
import PhraseMatching
import SmartHome
import TravelTracking
import VoiceIntents

// `phrase-benchmark [--breakdown] [NAME…]` measures only the named apps (travel-tracking,
// library, smart-home, home-lights, house, large); `--breakdown` also prints where a match spends its
// time. Each sample app's phrase tests (Phrases/en/tests/NAME.yaml) are run as well: how many
// pass, and the latency per test sentence.
let breakdown = CommandLine.arguments.contains("--breakdown")

/// Resident and peak memory of this process, in MiB, from /proc/self/status.
func memory() -> (resident: Double, peak: Double) {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
        return (0, 0)
    }
    func field(_ name: String) -> Double {
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name) }) else { return 0 }
        return (Double(line.split(separator: " ").dropFirst().first ?? "0") ?? 0) / 1024
    }
    return (field("VmRSS:"), field("VmHWM:"))
}

func percentile(_ sorted: [Duration], _ fraction: Double) -> Duration {
    sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
}

func microseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
}

func format(_ value: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", value) }

/// Sentences to match: examples of every phrase, some with noise, and unrelated speech.
func sentences(for matcher: PhraseMatcher, limit: Int) -> [String] {
    var random = SeededGenerator(state: 3)
    var result: [String] = []
    for phrase in matcher.phraseExamples(limitPerPhrase: 2) {
        var words = phrase.split(separator: " ").map(String.init)
        switch Int.random(in: 0..<4, using: &random) {
        case 0: words.insert("uh", at: Int.random(in: 0...words.count, using: &random))
        case 1 where words.count > 3: words.remove(at: Int.random(in: 1..<words.count, using: &random))
        case 2 where words.count > 2:
            let index = Int.random(in: 0..<words.count, using: &random)
            if words[index].count > 4 { words[index].removeLast() }
        default: break
        }
        result.append(words.joined(separator: " "))
    }
    result.shuffle(using: &random)
    result = Array(result.prefix(limit))
    result += [
        "what's the weather like tomorrow", "play some jazz in the kitchen", "set a timer for ten minutes",
        "call mom", "how tall is mount everest", "turn off the lights", "remind me to buy milk",
    ]
    return result
}

/// The app's phrase tests, as `voice-intents test` runs them: how many pass, and how long each
/// sentence takes (p50, p99), as lines of the report. Not on the main actor: a match awaited from
/// it would hop between executors and measure the hops.
func runTests(_ name: String, _ matcher: PhraseMatcher, in folder: URL) async throws -> [String] {
    let file = folder.appendingPathComponent("en/tests/\(name).yaml")
    guard FileManager.default.fileExists(atPath: file.path) else { return [] }
    let cases = try PhraseTestSuite.load(from: file).cases
    let clock = ContinuousClock()
    var times: [Duration] = []
    var passed = 0
    var failures: [String] = []
    for testCase in cases {
        let began = clock.now
        let result = await matcher.run(testCase)
        times.append(clock.now - began)
        if result.passed { passed += 1 } else { failures.append("\(result)") }
    }
    times.sort()
    var rows = [
        [
            name.padding(toLength: 16, withPad: " ", startingAt: 0),
            "\(passed) of \(cases.count)".padding(toLength: 14, withPad: " ", startingAt: 0),
            format(100 * Double(passed) / Double(max(cases.count, 1))).padding(
                toLength: 8, withPad: " ", startingAt: 0),
            format(microseconds(percentile(times, 0.5))).padding(toLength: 10, withPad: " ", startingAt: 0),
            format(microseconds(percentile(times, 0.99))),
        ].joined()
    ]
    if breakdown { rows += failures.map { "  failed: \($0)" } }
    return rows
}

struct Figures {
    let compile: Duration
    let p50: Duration
    let p99: Duration
    let baselineP50: Duration
    let memory: Double
    /// The lines of the phrase tests' report.
    let tests: [String]
}

func measure(
    _ name: String, _ app: AppDescription, catalog: PhraseCatalog?, dependencies: AppDependencyManager,
    phrases: URL = phrasesFolder
)
    async throws -> Figures
{
    let before = memory().resident
    let clock = ContinuousClock()
    let start = clock.now
    let matcher = try await AppDependencyManager.$current.withValue(dependencies) {
        try await PhraseMatcher(app: app, catalog: catalog)
    }
    let compile = clock.now - start
    let after = memory().resident
    let inputs = sentences(for: matcher, limit: 400)
    for sentence in inputs.prefix(20) { _ = await matcher.match(sentence) }  // warm-up
    var times: [Duration] = []
    var baseline: [Duration] = []
    for sentence in inputs {
        let began = clock.now
        _ = await matcher.match(sentence)
        times.append(clock.now - began)
    }
    for sentence in inputs.prefix(60) {
        let began = clock.now
        _ = matcher.alignWithEveryPhrase(sentence)
        baseline.append(clock.now - began)
    }
    times.sort()
    baseline.sort()
    if breakdown { print("  " + (await matcher.timingBreakdown(inputs))) }
    let tests = try await runTests(name, matcher, in: phrases)
    let figures = Figures(
        compile: compile, p50: percentile(times, 0.5), p99: percentile(times, 0.99),
        baselineP50: percentile(baseline, 0.5), memory: after - before, tests: tests)
    print(
        [
            name.padding(toLength: 16, withPad: " ", startingAt: 0),
            "\(matcher.phraseCount)".padding(toLength: 8, withPad: " ", startingAt: 0),
            format(microseconds(figures.compile) / 1000, 1).padding(
                toLength: 12, withPad: " ", startingAt: 0),
            format(microseconds(figures.p50)).padding(toLength: 10, withPad: " ", startingAt: 0),
            format(microseconds(figures.p99)).padding(toLength: 10, withPad: " ", startingAt: 0),
            format(microseconds(figures.baselineP50)).padding(toLength: 14, withPad: " ", startingAt: 0),
            format(microseconds(figures.baselineP50) / max(microseconds(figures.p50), 0.001), 1)
                .padding(toLength: 8, withPad: " ", startingAt: 0),
            format(figures.memory),
        ].joined())
    return figures
}

let phrasesFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Phrases")

let selected = Set(CommandLine.arguments.dropFirst().filter { $0 != "--breakdown" })
let appNames = ["travel-tracking", "library", "smart-home", "home-lights", "house", "large"]
if !selected.isDisjoint(with: ["-h", "--help", "help"]) {
    print("usage: phrase-benchmark [--breakdown] [\(appNames.joined(separator: "|"))…]")
    exit(0)
}
for name in selected.sorted() where !appNames.contains(name) {
    FileHandle.standardError.write(
        Data(
            "error: no app \"\(name)\"; usage: phrase-benchmark [--breakdown] [\(appNames.joined(separator: "|"))…]\n"
                .utf8))
    exit(2)
}
print("phrase matching benchmark (\(ProcessInfo.processInfo.activeProcessorCount) cores)")
print("app             phrases compile ms  p50 µs    p99 µs    baseline p50  ratio   memory MiB")

var suiteRows: [String] = []
func wanted(_ name: String) -> Bool { selected.isEmpty || selected.contains(name) }

let travel = AppDependencyManager()
TravelTrackingApp.registerDependencies(in: travel)
if wanted("travel-tracking") {
    suiteRows += try await measure(
        "travel-tracking", AppDescription(TravelTrackingApp.self),
        catalog: try PhraseCatalog.load(app: "travel-tracking", locale: "en", in: phrasesFolder),
        dependencies: travel
    ).tests
}

let library = AppDependencyManager()
LibraryApp.registerDependencies(in: library)
if wanted("library") {
    suiteRows += try await measure(
        "library", AppDescription(LibraryApp.self),
        catalog: try PhraseCatalog.load(app: "library", locale: "en", in: phrasesFolder),
        dependencies: library
    ).tests
}

if wanted("smart-home") {
    suiteRows += try await measure(
        "smart-home", AppDescription(SmartHomeApp.self),
        catalog: try PhraseCatalog.load(app: "smart-home", locale: "en", in: phrasesFolder),
        dependencies: AppDependencyManager()
    ).tests
}

if wanted("home-lights") {
    suiteRows += try await measure(
        "home-lights", AppDescription(HomeLightsApp.self),
        catalog: try PhraseCatalog.load(app: "home-lights", locale: "en", in: phrasesFolder),
        dependencies: AppDependencyManager()
    ).tests
}

// The stress app: 16 intents and 155 phrases over the same few words (Benchmarks/House).
let housePhrases = phrasesFolder.deletingLastPathComponent().appendingPathComponent(
    "Benchmarks/House/Phrases")
if wanted("house") {
    suiteRows += try await measure(
        "house", AppDescription(HouseApp.self),
        catalog: try PhraseCatalog.load(app: "house", locale: "en", in: housePhrases),
        dependencies: AppDependencyManager(), phrases: housePhrases
    ).tests
}

if wanted("large") {
    suiteRows += try await measure(
        "large (20k names)", AppDescription(GeneratedApp.self), catalog: nil,
        dependencies: AppDependencyManager()
    ).tests
}

if !suiteRows.isEmpty {
    print("\nphrase tests     passed        %       p50 µs    p99 µs")
    for row in suiteRows { print(row) }
}

let peak = memory().peak
print("peak resident memory: \(format(peak)) MiB")
print("targets: p50 ≤ 50 µs for the sample apps, ≤ 1000 µs for the large app, compile ≤ 1000 ms")
