import Foundation
import HomeLights
import PhraseMatching
import SmartHome
import VoiceIntents
import VoiceRecognition
import VoiceUnderstanding

/// What the end of speech's wait for what may follow costs: of the commands people said to the
/// two houses (their recorded phrase tests), how many are whole commands the grammar lets go on,
/// and so wait up to the manifest's `maximumSilence` instead of its `trailingSilence` before the
/// reply.
enum Continuations {
    static func run(phrases: URL) async throws {
        let configuration = try SpeechRecognizer.Configuration.installed()
        let extra = (configuration.maximumSilence ?? 0) - configuration.trailingSilence
        print(
            "commands that may go on (each waits up to \(String(format: "%.1f", extra)) s more before the reply):"
        )
        for (name, grammar, cases) in try await Houses.commands(phrases: phrases) {
            let recorded = cases.filter { $0.audio != nil }
            func goOn(_ cases: [PhraseTestSuite.Case]) -> (whole: Int, goOn: [String]) {
                let readings = cases.map { ($0.sentence, grammar.reading(of: $0.sentence)) }
                return (
                    readings.count { $0.1.isWhole }, readings.filter { $0.1.isWhole && $0.1.canGoOn }.map(\.0)
                )
            }
            let all = goOn(cases)
            let people = goOn(recorded)
            print(
                "  \(name): \(all.goOn.count) of \(all.whole) phrase-test commands in the grammar; \(people.goOn.count) of \(people.whole) recorded ones"
            )
            for sentence in people.goOn { print("    may go on: \(sentence)") }
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
