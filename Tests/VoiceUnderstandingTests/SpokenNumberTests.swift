import Foundation
import PhraseMatching
import Testing
import VoiceIntents
import VoiceTestSupport

@testable import VoiceEvaluation
@testable import VoiceRecognition
@testable import VoiceUnderstanding

private struct SetThermostatIntent: AppIntent {
    static let title: LocalizedStringResource = "Set the Thermostat"
    @Parameter(title: "Temperature", inclusiveRange: (10, 35)) var temperature: Double
    func perform() async throws -> some IntentResult { .result() }
}

private struct StartTimerIntent: AppIntent {
    static let title: LocalizedStringResource = "Start a Timer"
    @Parameter(title: "Seconds", inclusiveRange: (1, 7_200)) var seconds: Int
    func perform() async throws -> some IntentResult { .result() }
}

private struct SetVolumeIntent: AppIntent {
    static let title: LocalizedStringResource = "Set the Volume"
    @Parameter(title: "Level", inclusiveRange: (0, 100)) var level: Int
    func perform() async throws -> some IntentResult { .result() }
}

private struct NumberShortcuts: AppShortcutsProvider {
    static var appShortcuts: [AppShortcut] {
        AppShortcut(
            intent: SetThermostatIntent(), phrases: ["Set the thermostat to \(\.$temperature) degrees"],
            shortTitle: "Thermostat", systemImageName: "thermometer")
        AppShortcut(
            intent: StartTimerIntent(), phrases: ["Start a timer for \(\.$seconds) seconds"],
            shortTitle: "Timer", systemImageName: "timer")
        AppShortcut(
            intent: SetVolumeIntent(), phrases: ["Set the volume to \(\.$level) percent"],
            shortTitle: "Volume", systemImageName: "speaker")
    }
}

/// Numbers as people say them (issue 69 item 3), said by eSpeak NG, heard by PocketSphinx under
/// the app's grammar and read by the matcher as the value the words say. eSpeak NG is not a
/// person: this shows that every form is in the grammar and read back right, not how often
/// people's numbers are heard.
@Suite("Spoken numbers heard", .serialized)
struct SpokenNumberTests {
    static let said: [(sentence: String, parameter: String, value: Double)] = [
        ("set the thermostat to twenty four point five degrees", "temperature", 24.5),
        ("set the thermostat to twenty two and a half degrees", "temperature", 22.5),
        ("set the thermostat to nineteen and three quarters degrees", "temperature", 19.75),
        ("set the thermostat to eighteen point two five degrees", "temperature", 18.25),
        ("start a timer for one hundred and twenty seconds", "seconds", 120),
        ("start a timer for twelve hundred seconds", "seconds", 1_200),
        ("start a timer for two thousand seconds", "seconds", 2_000),
        ("start a timer for three thousand six hundred seconds", "seconds", 3_600),
        ("start a timer for a hundred seconds", "seconds", 100),
        ("set the volume to seventy five percent", "level", 75),
        ("set the volume to a hundred percent", "level", 100),
    ]

    static func matcher() async throws -> PhraseMatcher {
        try await PhraseMatcher(
            app: AppDescription(name: "Numbers", shortcuts: NumberShortcuts.self))
    }

    @Test func everyFormIsMatchedInText() async throws {
        let matcher = try await Self.matcher()
        for (sentence, parameter, value) in Self.said {
            let match = await matcher.match(sentence).best
            #expect(Self.number(match?.values[parameter]?.value) == value, "\(sentence)")
        }
        // Typed, the same numbers in digits.
        let typed = await matcher.match("set the thermostat to 24.5 degrees").best
        #expect(Self.number(typed?.values["temperature"]?.value) == 24.5)
        let percent = await matcher.match("set the volume to 75%").best
        #expect(Self.number(percent?.values["level"]?.value) == 75)
    }

    @Test func everyFormIsHeardInTwoVoices() async throws {
        let matcher = try await Self.matcher()
        let grammar = SpeechGrammar(matcher.spokenForms, name: "numbers")
        let recognizer = try SpeechRecognizer(try TestModels.grammarConfiguration())
        try recognizer.useGrammar(grammar)
        let roundTrip = RoundTrip()
        var misheard: [String] = []
        for (index, (sentence, parameter, value)) in Self.said.enumerated() {
            #expect(grammar.canSay(sentence), "\(sentence)")
            for voice in ["en-us", "en-us+m3"] {
                let speech = try TestSpeech.said(sentence, voice: voice, rate: 160)
                let heard = try recognizer.recognize(roundTrip.heard(speech, seed: UInt64(index))).text
                let match = await matcher.match(heard).best
                if Self.number(match?.values[parameter]?.value) != value {
                    misheard.append("\(voice): \(sentence) → \(heard)")
                }
            }
        }
        // eSpeak NG's two voices, 22 clips. Measured 2026-12-02: 18 heard as their value. Before
        // a bounded parameter's grammar left out the tens words above its range, 16: "nineteen"
        // was heard as "ninety" and "eighteen" as "eighty", numbers the thermostat cannot take.
        // Of the 4 left, 3 are a "two" put in between "hundred" and "seconds" (the grammar lets
        // a unit follow "hundred" without "and", as Americans say "a hundred two"), and 1 is
        // "nineteen and three quarters" heard as "twenty and three quarters".
        #expect(misheard.count <= 4, "\(misheard.joined(separator: "\n"))")
        #expect(
            !misheard.contains { $0.contains("ninety") || $0.contains("eighty") },
            "a tens word above the range was heard: \(misheard.joined(separator: "\n"))")
    }

    private static func number(_ value: Any?) -> Double? {
        switch value {
        case let double as Double: double
        case let integer as Int: Double(integer)
        default: nil
        }
    }
}
