import Foundation
import PhraseMatching
import SmartHome
import Testing
import VoiceTestSupport

@testable import VoiceAudio
@testable import VoiceRecognition
@testable import VoiceUnderstanding

/// A short sound before a pause at the start of an utterance (a satellite's awake chime, a
/// click), that the grammar stretched the first word over: the utterance is heard again from the
/// pause's end.
@Suite("A sound before the command")
struct LeadingSoundTests {
    /// 16 kHz: `quiet` seconds of faint noise, then each `(seconds, amplitude)` part as a loud
    /// 440 Hz tone (amplitude > 0) or faint noise (0).
    static func audio(_ parts: [(Double, Double)]) -> [Int16] {
        var generator = SystemRandomNumberGenerator()
        return parts.flatMap { seconds, amplitude -> [Int16] in
            (0..<Int(seconds * 16_000)).map { index in
                let faint = Double(Int.random(in: -30...30, using: &generator))
                return Int16(amplitude * sin(Double(index) * 2 * .pi * 440 / 16_000) + faint)
            }
        }
    }

    static func word(_ word: String, _ start: Int, _ end: Int) -> RecognizedWord {
        RecognizedWord(
            word: word, startFrame: start, endFrame: end, acousticScore: 0, languageScore: 0, posterior: 0)
    }

    @Test func aPauseAfterAShortSoundIsFound() throws {
        // Quiet, a 0.3 s chime, 0.2 s of quiet, a second of sound, quiet.
        let samples = Self.audio([(0.2, 0), (0.3, 8_000), (0.2, 0), (1, 4_000), (0.5, 0)])
        let leading = try #require(LeadingSound(in: samples))
        #expect(leading.pause == 50..<70)
        #expect(leading.resumeSample == 65 * 160)
        // The first word made of the chime, the pause and the words after it.
        let bridged = RecognitionResult(
            text: "activate mood lighting", score: 0, frames: 220,
            words: [Self.word("<sil>", 0, 19), Self.word("activate", 20, 110), Self.word("mood", 111, 170)])
        #expect(leading.isBridged(by: bridged))
        // A word of its own on the chime, silence in the pause: a person's first word.
        let apart = RecognitionResult(
            text: "uh cancel timer", score: 0, frames: 220,
            words: [Self.word("uh", 20, 49), Self.word("<sil>", 50, 69), Self.word("cancel", 70, 110)])
        #expect(!leading.isBridged(by: apart))
    }

    @Test func noPauseIsFoundWhereThereIsNone() {
        // One sound throughout.
        #expect(LeadingSound(in: Self.audio([(0.2, 0), (1.5, 6_000), (0.5, 0)])) == nil)
        // A pause too short to be more than a closure inside a word.
        #expect(
            LeadingSound(in: Self.audio([(0.2, 0), (0.3, 6_000), (0.1, 0), (1, 6_000), (0.5, 0)])) == nil)
        // A pause a second after the first sound: words before it, not a sound.
        #expect(LeadingSound(in: Self.audio([(0.2, 0), (1, 6_000), (0.2, 0), (1, 6_000), (0.5, 0)])) == nil)
        // Too little after the pause to be a command.
        #expect(
            LeadingSound(in: Self.audio([(0.2, 0), (0.3, 6_000), (0.3, 0), (0.2, 6_000), (0.5, 0)])) == nil)
    }

    /// Speech-to-phrase's recordings were made through a Home Assistant satellite, which streams
    /// its awake chime ahead of the person. In these three, SmartHome's grammar made "activate"
    /// (or "what") of the chime and the first words; heard again from the pause after it, each is
    /// the command said. Commands whose first word did not run across the pause are heard as before.
    @Test func aSatellitesChimeBeforeTheCommandIsNotHeardAsWords() async throws {
        let matcher = try await TestModels.matcher(SmartHomeApp.self, "smart-home")
        let grammar = SpeechGrammar(matcher.spokenForms, name: "smart-home")
        let said = [
            "set a timer for 5 minutes": "set a timer for five minutes",
            "turn on Standing Light": "turn on standing light",
            "pause timer": "pause timer",
            "cancel timer": "cancel timer",
            "what's the weather like in New York": "what's the weather like in new york",
        ]
        func heard(againAfterLeadingSound: Bool) throws -> [String: String] {
            var configuration = try SpeechRecognizer.Configuration.installed()
            configuration.hearsAgainAfterLeadingSound = againAfterLeadingSound
            let recognizer = try SpeechRecognizer(configuration)
            try recognizer.useGrammar(grammar)
            return try recognizer.heard(said.keys, in: "speech-to-phrase-en", listening: true)
        }
        let before = try heard(againAfterLeadingSound: false)
        #expect(before.count { said[$0.key] != $0.value } >= 2, "\(before)")
        let after = try heard(againAfterLeadingSound: true)
        #expect(after == said, "\(after)")
    }
}
