// How the benchmark measures one app: compile time, latency over sentences made from its
// phrases, the baseline, memory, and its phrase tests.

import BenchmarkCommand
import Foundation
import PhraseMatching
import VoiceIntents

/// The repository's Phrases folder.
let phrasesFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Phrases")

func microseconds(_ duration: Duration) -> Double { duration.inSeconds * 1e6 }

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
func runTests(
    _ name: String, _ matcher: PhraseMatcher, in folder: URL, breakdown: Bool
) async throws -> [String] {
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

/// Every ordered pair of the app's own test sentences that reach an intent alone, joined by
/// "and": how many `matchJoined` reads as both commands in order with their own values, how long
/// that takes (p50, p99), and what it adds to a single sentence beside `match` alone.
func joinedPairs(_ name: String, _ matcher: PhraseMatcher, in folder: URL, breakdown: Bool) async throws
    -> [String]
{
    let file = folder.appendingPathComponent("en/tests/\(name).yaml")
    guard FileManager.default.fileExists(atPath: file.path) else { return [] }
    let alone = await matcher.commandsThatPassAlone(try PhraseTestSuite.load(from: file).cases)
    let clock = ContinuousClock()
    var single: [Duration] = []
    var singleJoined: [Duration] = []
    for (sentence, _) in alone {
        var began = clock.now
        let whole = await matcher.match(sentence)
        single.append(clock.now - began)
        began = clock.now
        _ = await matcher.matchJoined(sentence, whole: whole)
        singleJoined.append(clock.now - began)
    }
    var times: [Duration] = []
    var right = 0
    var failures: [String] = []
    for first in alone {
        for second in alone {
            let began = clock.now
            let joined = await matcher.joinedAsBoth(first, second)
            times.append(clock.now - began)
            if joined.isBoth { right += 1 } else { failures.append(joined.sentence) }
        }
    }
    times.sort()
    single.sort()
    singleJoined.sort()
    let pairs = alone.count * alone.count
    var rows = [
        [
            name.padding(toLength: 16, withPad: " ", startingAt: 0),
            "\(right) of \(pairs)".padding(toLength: 16, withPad: " ", startingAt: 0),
            format(100 * Double(right) / Double(max(pairs, 1))).padding(
                toLength: 8, withPad: " ", startingAt: 0),
            format(microseconds(percentile(times, 0.5))).padding(toLength: 10, withPad: " ", startingAt: 0),
            format(microseconds(percentile(times, 0.99))).padding(toLength: 10, withPad: " ", startingAt: 0),
            "\(format(microseconds(percentile(single, 0.5)))) + \(format(microseconds(percentile(singleJoined, 0.5))))",
        ].joined()
    ]
    if breakdown { rows += failures.prefix(20).map { "  not both: \($0)" } }
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
    phrases: URL = phrasesFolder, breakdown: Bool, joined: Bool = false
)
    async throws -> Figures
{
    let before = ProcessMemory.current.resident
    let clock = ContinuousClock()
    let start = clock.now
    let matcher = try await AppDependencyManager.$current.withValue(dependencies) {
        try await PhraseMatcher(app: app, catalog: catalog)
    }
    let compile = clock.now - start
    let after = ProcessMemory.current.resident
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
    var tests = try await runTests(name, matcher, in: phrases, breakdown: breakdown)
    if joined {
        tests += [
            "  joined pairs  read as both   %       p50 µs    p99 µs    single: match + matchJoined p50 µs"
        ]
        tests += try await joinedPairs(name, matcher, in: phrases, breakdown: breakdown).map { "  " + $0 }
    }
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
