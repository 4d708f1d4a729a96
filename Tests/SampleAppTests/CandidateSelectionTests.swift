import Foundation
import HomeLights
import House
import Library
import SmartHome
import Testing
import TravelTracking
import VoiceEvaluation
import VoiceIntents

@testable import PhraseMatching

/// The matcher aligns a sentence only with phrases whose least cost is within reach; these
/// tests hold that choice to being exact, so that no phrase that fits is ever left out, and the
/// result never depends on the order the phrases were written in.
@Suite("Candidate selection")
struct CandidateSelectionTests {
    static let phrases = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Phrases")

    /// The samples, and House: the matcher's stress app (Benchmarks/House), 155 phrases over the
    /// same few words.
    static let apps = ["travel-tracking", "library", "smart-home", "home-lights", "house"]
    static let housePhrases = phrases.deletingLastPathComponent().appendingPathComponent(
        "Benchmarks/House/Phrases")

    static func folder(_ name: String) -> URL { name == "house" ? housePhrases : phrases }

    static func matcher(_ name: String, shuffledWith seed: UInt64? = nil) async throws -> PhraseMatcher {
        let dependencies = AppDependencyManager()
        let app: AppDescription
        switch name {
        case "travel-tracking":
            TravelTrackingApp.registerDependencies(in: dependencies)
            app = AppDescription(TravelTrackingApp.self)
        case "library":
            LibraryApp.registerDependencies(in: dependencies)
            app = AppDescription(LibraryApp.self)
        case "smart-home": app = AppDescription(SmartHomeApp.self)
        case "house": app = AppDescription(HouseApp.self)
        default: app = AppDescription(HomeLightsApp.self)
        }
        var catalog = try PhraseCatalog.load(app: name, locale: "en", in: folder(name))
        if let seed {
            var generator = SplitMix64(seed: seed)
            catalog.entries.shuffle(using: &generator)
            catalog.names.shuffle(using: &generator)
        }
        return try await AppDependencyManager.$current.withValue(dependencies) {
            try await PhraseMatcher(app: app, catalog: catalog)
        }
    }

    /// The app's test sentences and phrase examples, and each of them with a word dropped, a
    /// filler added and a word replaced by one of another sentence: sentences that fit no phrase
    /// exactly, where the least cost has something to count.
    static func sentences(_ name: String, _ matcher: PhraseMatcher) throws -> [String] {
        let said =
            try PhraseTestSuite.load(from: folder(name).appendingPathComponent("en/tests/\(name).yaml")).cases
            .map(
                \.sentence)
            + matcher.phraseExamples()
        var generator = SplitMix64(seed: 7)
        let vocabulary = Array(Set(said.flatMap { $0.split(separator: " ").map(String.init) })).sorted()
        return said.flatMap { sentence -> [String] in
            var words = sentence.split(separator: " ").map(String.init)
            guard words.count > 1 else { return [sentence] }
            let dropped = words.enumerated().filter { $0.offset != words.count / 2 }.map(\.element)
            let padded = ["please"] + words + ["for", "me"]
            words[Int.random(in: 0..<words.count, using: &generator)] = vocabulary.randomElement(
                using: &generator)!
            return [
                sentence, dropped.joined(separator: " "), padded.joined(separator: " "),
                words.joined(separator: " "),
            ]
        }
    }

    @Test(arguments: apps) func theLeastCostOfAPhraseNeverExceedsItsAlignment(_ name: String) async throws {
        let matcher = try await Self.matcher(name)
        var compared = 0
        var overestimates: [String] = []
        for sentence in try Self.sentences(name, matcher) {
            let prepared = matcher.prepare(TextNormalizer.tokens(sentence))
            let leastCosts = matcher.leastCosts(for: prepared)
            for (id, phrase) in matcher.phrases.enumerated() {
                guard
                    let alignment = Aligner.align(prepared, phrase, table: matcher.words, bound: .infinity)
                else { continue }
                compared += 1
                if leastCosts[id] > alignment.cost + 0.0001 {
                    overestimates.append(
                        "\"\(sentence)\" with \"\(phrase.pattern)\": least \(leastCosts[id]), aligned \(alignment.cost)"
                    )
                }
            }
        }
        #expect(compared > 1_000)
        #expect(overestimates.isEmpty, "\(overestimates.count) of \(compared): \(overestimates.prefix(5))")
    }

    @Test(arguments: apps) func resultsDoNotDependOnPhraseOrder(_ name: String) async throws {
        let written = try await Self.matcher(name)
        let sentences = try Self.sentences(name, written)
        func describe(_ matcher: PhraseMatcher) async -> [String] {
            var lines: [String] = []
            for sentence in sentences {
                let result = await matcher.match(sentence)
                let candidates = result.candidates.map {
                    "\($0.intent) \($0.phrase) \(String(format: "%.4f", $0.score)) \($0.values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" })"
                }
                lines.append(
                    "\(sentence) → \(result.best?.intent ?? "none") ambiguous \(result.isAmbiguous) negative \(result.negativePhrase ?? "-") \(candidates) \(result.suggestions)"
                )
            }
            return lines
        }
        let expected = await describe(written)
        for seed: UInt64 in [1, 2, 3] {
            let shuffled = await describe(try await Self.matcher(name, shuffledWith: seed))
            let differing = zip(expected, shuffled).filter { $0 != $1 }
            #expect(
                differing.isEmpty,
                "seed \(seed): \(differing.count) of \(expected.count) differ: \(differing.prefix(3))")
        }
    }
}

/// House, the matcher's stress app, passes every one of its phrase tests, in the catalog's order
/// (``CandidateSelectionTests`` shuffles it).
@Suite("House stress app")
struct HouseStressTests {
    @Test func everyTestPasses() async throws {
        let matcher = try await CandidateSelectionTests.matcher("house")
        let suite = try PhraseTestSuite.load(
            from: CandidateSelectionTests.housePhrases.appendingPathComponent("en/tests/house.yaml"))
        let results = await matcher.run(suite)
        #expect(results.count > 400)
        let failing = results.filter { !$0.passed }
        #expect(failing.isEmpty, "\(failing.map(\.description))")
    }
}
