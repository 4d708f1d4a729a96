import BenchmarkSupport
import Foundation
import HomeLights
import PhraseMatching
import SmartHome
import VoiceIntents
import VoiceRecognition
import VoiceUnderstanding

/// What the end of speech's wait for what may follow costs: of the commands of the two houses
/// (people said them: their recorded phrase tests) and of the two App Shortcuts samples (eSpeak NG
/// only), how many are whole commands the grammar lets go on with words that could change what
/// they mean, and so wait up to the manifest's `maximumSilence` instead of its `trailingSilence`
/// before the reply; beside it, how many would wait for any words that may follow (an optional
/// "in travel tracking" too).
enum Continuations {
    static func run(phrases: URL) async throws {
        let configuration = try SpeechRecognizer.Configuration.installed()
        let extra = (configuration.maximumSilence ?? 0) - configuration.trailingSilence
        print(
            "commands that may go on (each waits up to \(String(format: "%.1f", extra)) s more before the reply):"
        )
        var apps = try await Houses.commands(phrases: phrases)
        for sample in SampleApp.all {
            let matcher = try await sample.matcher(phrases: phrases)
            apps.append(
                (
                    sample.name, SpeechGrammar(matcher.spokenForms, name: sample.name),
                    try sample.testCases(phrases: phrases).filter { $0.expectation != .noMatch }
                ))
        }
        for (name, grammar, cases) in apps {
            let recorded = cases.filter { $0.audio != nil }
            func goOn(_ cases: [PhraseTestSuite.Case]) -> (whole: Int, goOn: [String], anyWords: Int) {
                let spoken = cases.map { SpeechGrammar.spokenWords($0.sentence).joined(separator: " ") }
                let readings = zip(cases, spoken).map { ($0.sentence, grammar.reading(ofHeard: $1)) }
                let anyWords = spoken.count {
                    let reading = grammar.graph.reading(of: $0)
                    return reading.isWhole && reading.canGoOn
                }
                return (
                    readings.count { $0.1.isWhole },
                    readings.filter { $0.1.isWhole && $0.1.canGoOn }.map(\.0),
                    anyWords
                )
            }
            let all = goOn(cases)
            let people = goOn(recorded)
            print(
                "  \(name): \(all.goOn.count) of \(all.whole) phrase-test commands in the grammar (\(all.anyWords) for any words); \(people.goOn.count) of \(people.whole) recorded ones (\(people.anyWords))"
            )
            // People's where there are any; else the written ones.
            for sentence in recorded.isEmpty ? all.goOn : people.goOn { print("    may go on: \(sentence)") }
        }
    }
}

/// The two houses whose phrase tests hold people's recordings: each house's grammar and the
/// phrase tests that expect a command.
enum Houses {
    /// Each house's grammar, its phrase tests that expect a command, and its matcher.
    static func commandsAndMatchers(phrases: URL) async throws -> [(
        name: String, grammar: SpeechGrammar, cases: [PhraseTestSuite.Case], matcher: PhraseMatcher
    )] {
        var houses:
            [(name: String, grammar: SpeechGrammar, cases: [PhraseTestSuite.Case], matcher: PhraseMatcher)] =
                []
        for (name, app) in apps {
            let matcher = try await PhraseMatcher(
                app: app, catalog: try PhraseCatalog.load(app: name, locale: "en", in: phrases))
            let cases = try PhraseTestSuite.load(
                from: phrases.appendingPathComponent("en/tests/\(name).yaml")
            )
            .cases.filter { $0.expectation != .noMatch }
            houses.append((name, SpeechGrammar(matcher.spokenForms, name: name), cases, matcher))
        }
        return houses
    }

    static let apps = [
        ("smart-home", AppDescription(SmartHomeApp.self)),
        ("home-lights", AppDescription(HomeLightsApp.self)),
    ]

    static func commands(phrases: URL) async throws -> [(
        name: String, grammar: SpeechGrammar, cases: [PhraseTestSuite.Case]
    )] {
        try await commandsAndMatchers(phrases: phrases).map { ($0.name, $0.grammar, $0.cases) }
    }
}
