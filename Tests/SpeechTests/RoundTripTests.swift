import Foundation
import PhraseMatching
import Testing
import TravelTracking
import VoiceIntents

@testable import Speech

/// Real speech in and out: eSpeak NG speaks, PocketSphinx listens. No stand-ins.
@Suite("Speech round trip", .serialized)
struct RoundTripTests {
    static let phrases = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Phrases")

    static func travelTrackingMatcher() async throws -> PhraseMatcher {
        let dependencies = AppDependencyManager()
        TravelTrackingApp.registerDependencies(in: dependencies)
        return try await AppDependencyManager.$current.withValue(dependencies) {
            try await PhraseMatcher(
                app: AppDescription(TravelTrackingApp.self),
                catalog: try PhraseCatalog.load(app: "travel-tracking", locale: "en", in: phrases))
        }
    }

    /// Speech as the recognizer takes it, with 0.3 s of quiet on either side as a microphone
    /// would give (eSpeak's output starts and ends abruptly).
    static func spoken(_ text: String, voice: String, rate: Int) throws -> [Int16] {
        let speech = try SpeechSynthesizer(voice: voice, rate: rate).speak(text)
        let audio = AudioBuffer(int16: speech.samples, sampleRate: speech.sampleRate).forRecognizer
        let quiet = [Int16](repeating: 0, count: 4_800)
        return quiet + audio + quiet
    }

    @Test func synthesizerSpeaksAtItsOwnRate() throws {
        let speech = try SpeechSynthesizer().speak("Opening the map.")
        #expect(speech.sampleRate == 22_050)
        #expect((0.4...3).contains(speech.duration))
        #expect(speech.samples.contains { abs(Int($0)) > 1_000 })
        let faster = try SpeechSynthesizer(rate: 300).speak("Opening the map.")
        #expect(faster.duration < speech.duration)
    }

    @Test func unknownVoicesAreNamed() {
        #expect(throws: SpeechError.self) { try SpeechSynthesizer(voice: "no-such-voice").speak("hello") }
    }

    @Test func pronunciationsAreGuessedForNamesTheDictionaryLacks() throws {
        #expect(try PronunciationGuesser.phones(for: "machu") == "M AE CH UW")
        #expect(
            PronunciationGuesser.cmuPhones(fromESpeak: "l_'aI_b_r_e@_r_i") == [
                "L", "AY", "B", "R", "EH", "R", "IY",
            ])
        let recognizer = try SpeechRecognizer()
        #expect(recognizer.knows("kyoto"))
        #expect(!recognizer.knows("uluru"))
    }

    @Test func theGrammarCoversPhrasesValuesAndNames() async throws {
        let grammar = SpeechGrammar(
            try await Self.travelTrackingMatcher().spokenForms, name: "travel-tracking")
        #expect(grammar.jsgf.hasPrefix("#JSGF V1.0;"))
        #expect(grammar.jsgf.contains("grammar travel_tracking;"))
        #expect(
            grammar.jsgf.contains(
                "<app> = travel tracking | traveltracking | travel tracker | traveltracker;"))
        #expect(grammar.jsgf.contains("public <command> = ( navigate in <app> )"))
        #expect(grammar.words.isSuperset(of: ["navigate", "machu", "picchu", "uluru", "twenty", "tickets"]))
        #expect(grammar.freeTextPhrases == 0)
    }

    @Test func commandsSpokenInThreeVoicesAndTwoRatesAreHeard() async throws {
        let matcher = try await Self.travelTrackingMatcher()
        let recognizer = try SpeechRecognizer()
        try recognizer.useGrammar(SpeechGrammar(matcher.spokenForms, name: "travel-tracking"))
        let commands: [(String, String)] = [
            ("navigate to the map in travel tracking", "NavigateIntent"),
            ("find two tickets for machu picchu with travel tracking", "FindTicketsIntent"),
            ("how busy is uluru in travel tracking", "GetCrowdStatusIntent"),
            ("what is the closest landmark in travel tracking", "ClosestLandmarkIntent"),
            ("add the eiffel tower to my favorites in travel tracking", "UpdateFavoritesIntent"),
            ("delete waterfalls in travel tracking", "DeleteCollectionIntent"),
        ]
        var heard = 0
        var total = 0
        var misses: [String] = []
        for voice in ["en-us", "en-us+f2", "en+m7"] {
            for rate in [150, 190] {
                for (sentence, intent) in commands {
                    total += 1
                    let result = try recognizer.recognize(try Self.spoken(sentence, voice: voice, rate: rate))
                    let match = await matcher.match(result.text).best
                    if TextNormalizer.key(result.text) == TextNormalizer.key(sentence),
                        match?.intent == intent
                    {
                        heard += 1
                    } else {
                        misses.append("\(voice) \(rate): \"\(sentence)\" heard as \"\(result.text)\"")
                    }
                }
            }
        }
        // The aim is every command (issue 4); this holds the measured rate against regressions
        // while the grammar and decoder are tuned: 28 of 36 with the intent matched too when this
        // suite runs alone, 30 when the whole test run shares the eSpeak engine (its global state
        // carries something from one use to the next; see Models/README.md).
        print("round trip: \(heard) of \(total) commands heard word for word and matched")
        if !misses.isEmpty { print("misheard:\n  " + misses.joined(separator: "\n  ")) }
        #expect(heard >= 28, "\(misses.joined(separator: "\n"))")
    }

    @Test func dictationTranscribesRealRecordedSpeech() throws {
        let recording = URL(fileURLWithPath: "/usr/share/pocketsphinx/test/data/goforward.raw")
        let data = try Data(contentsOf: recording)
        let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }.map {
            Int16(littleEndian: $0)
        }
        let recognizer = try SpeechRecognizer()
        try recognizer.useDictation()
        let result = try recognizer.recognize(samples)
        #expect(result.text == "go forward ten meters")
        #expect(result.spokenWords.map(\.word) == ["go", "forward", "ten", "meters"])
        #expect(result.spokenWords.first.map { $0.start > 0 && $0.end > $0.start } == true)
    }
}
