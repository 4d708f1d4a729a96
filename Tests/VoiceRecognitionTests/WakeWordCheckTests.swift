import Foundation
import PhraseMatching
import Testing
import VoiceTestSupport

@testable import VoiceAudio
@testable import VoiceRecognition
@testable import VoiceUnderstanding

/// The recognizer's second hearing of a wake word (``WakeWordCheck``), on a person's take: Rhasspy's
/// speaker saying "hey mycroft, turn on the living room lamp", which the `hey_mycroft` model
/// hears at sample 20,000 (`WakeWordTests`).
@Suite("Wake word check")
struct WakeWordCheckTests {
    /// The audio the loop checks when the model fires at sample 20,000 of the take.
    static func window() throws -> [Int16] {
        let url = try PeoplesRecordings.file(
            "rhasspy-test-en", "wake/precise_turn_on_the_living_room_lamp.wav")
        let audio = try WAVFile.read(from: url).resampled(to: 16_000).int16Samples
        let end = 20_000
        return Array(
            audio[
                max(
                    0, end - Int(WakeWordCheck.secondsBefore * 16_000))..<(end
                    + Int(WakeWordCheck.secondsAfter * 16_000))])
    }

    /// The person's "hey mycroft" is heard again as "hey mycroft", where it was said; the same
    /// audio checked for the other models' phrases fits them far worse and is turned away.
    @Test func aPersonsWakeWordPassesAndOtherPhrasesDoNot() throws {
        let recognizer = try SpeechRecognizer(TestModels.configuration())
        let window = try Self.window()
        let heard = try recognizer.check(window, wakeWord: WakeWordCheck(phrase: "Hey Mycroft"))
        #expect(heard.accepted, "margin \(heard.margin)")
        // The words lie before the moment the model fired, not in the second of lead-in alone.
        #expect(heard.end <= WakeWordCheck.secondsBefore + 0.2, "\(heard)")
        #expect(heard.end - heard.start > 0.4, "\(heard)")
        for phrase in ["Okay Nabu", "Hey Jarvis", "Alexa"] {
            let other = try recognizer.check(window, wakeWord: WakeWordCheck(phrase: phrase))
            #expect(!other.accepted, "\(phrase): margin \(other.margin)")
            #expect(other.margin < heard.margin - 5, "\(phrase): \(other.margin) against \(heard.margin)")
        }
    }

    /// The check leaves the recognizer as it found it: the grammar in use is in use again, and a
    /// command heard after the check is heard as it is without one.
    @Test func theRecognizerHearsCommandsAfterItAsBefore() throws {
        let recognizer = try SpeechRecognizer(TestModels.configuration())
        let grammar = SpeechGrammar(
            SpokenForms(phrases: [
                SpokenForms.Phrase(
                    intent: "go",
                    elements: "go forward ten meters".split(separator: " ").map { .word(String($0)) })
            ]), name: "go")
        try recognizer.useGrammar(grammar)
        let command = try Data(contentsOf: URL(fileURLWithPath: goForwardPath)).withUnsafeBytes {
            Array($0.bindMemory(to: Int16.self))
        }
        let before = try recognizer.recognize(command)
        recognizer.forgetChannel()
        _ = try recognizer.check(try Self.window(), wakeWord: WakeWordCheck(phrase: "Hey Mycroft"))
        let after = try recognizer.recognize(command)
        #expect(before.text == "go forward ten meters")
        #expect(after.text == before.text)
    }

    /// The phrase is taken as the models' descriptions write it.
    @Test func thePhraseIsSplitIntoDictionaryWords() {
        #expect(WakeWordCheck(phrase: "Okay Nabu").words == ["okay", "nabu"])
        #expect(WakeWordCheck(phrase: "Alexa").words == ["alexa"])
        #expect(WakeWordCheck(phrase: "hey, jarvis").words == ["hey", "jarvis"])
    }
}
