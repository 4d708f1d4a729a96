import Foundation
import PhraseMatching
import Testing
import VoiceEvaluation
import VoiceTestSupport

@testable import VoiceRecognition
@testable import VoiceUnderstanding

/// How a heard utterance and its match come to one verdict: the confidence is the recognizer's
/// times the matcher's, and each rejection names its reason.
@Suite("Understanding")
struct UnderstandingTests {
    @Test func theConfidenceIsTheHearingsTimesTheMatchersScore() async throws {
        let matcher = try await TestModels.travelTrackingMatcher()
        let sentence = "navigate to map in travel tracking"
        let match = await matcher.match(sentence)
        let score = try #require(match.best).score
        let unmeasured = Understanding(
            heard: TestSpeech.heard(sentence), match: match, minimumConfidence: 0.5)
        #expect(unmeasured.confidence == score)
        #expect(unmeasured.rejection == nil)
        #expect(unmeasured.command?.intent == "NavigateIntent")

        let heard = TestSpeech.heard(sentence, confidence: RecognitionConfidence.midpoint)
        let halfSure = Understanding(heard: heard, match: match, minimumConfidence: 0.4)
        #expect(abs(halfSure.confidence - 0.5 * score) < 1e-9)
        #expect(halfSure.rejection == nil)
        let strict = Understanding(heard: heard, match: match, minimumConfidence: 0.6)
        #expect(strict.rejection == .lowConfidence(strict.confidence, minimumConfidence: 0.6))
        #expect(strict.command == nil)
        #expect(
            "\(strict.rejection!)" == "confidence \(String(format: "%.2f", strict.confidence)) below 0.60")
        // Two decimals, or more when two would show the same number on both sides.
        #expect(
            "\(Understanding.Rejection.lowConfidence(0.41, minimumConfidence: 0.79))"
                == "confidence 0.41 below 0.79")
        #expect(
            "\(Understanding.Rejection.lowConfidence(0.528, minimumConfidence: 0.531))"
                == "confidence 0.528 below 0.531")
        #expect(
            "\(Understanding.Rejection.lowConfidence(0.5309, minimumConfidence: 0.531))"
                == "confidence 0.5309 below 0.5310")
    }

    @Test func eachRejectionNamesItsReason() async throws {
        let matcher = try await TestModels.travelTrackingMatcher()
        let silence = Understanding(
            heard: TestSpeech.heard(""), match: await matcher.match(""), minimumConfidence: 0)
        #expect(silence.rejection == .nothingHeard)
        let negative = Understanding(
            heard: TestSpeech.heard("stop tracking my travel"),
            match: await matcher.match("stop tracking my travel"),
            minimumConfidence: 0)
        guard case .negativePhrase = negative.rejection else {
            Issue.record("\(String(describing: negative.rejection))")
            return
        }
        let garbage = Understanding(
            heard: RecognitionResult(
                text: "", score: -1, frames: 60,
                words: [
                    RecognizedWord(
                        word: "~aa", startFrame: 0, endFrame: 59, acousticScore: -1, languageScore: 0,
                        posterior: 0)
                ]),
            match: await matcher.match(""), minimumConfidence: 0)
        #expect(garbage.rejection == .notACommand)
        let nothing = Understanding(
            heard: TestSpeech.heard("bake a cake"), match: await matcher.match("bake a cake"),
            minimumConfidence: 0)
        #expect(nothing.rejection == .noMatch)
    }

    /// A value whose words fit the sound far worse than the rest of the sentence is taken back,
    /// so the app asks for it (a name it does not know, forced onto the nearest one it does);
    /// one that fits about as well as the rest is kept.
    @Test func aValueThatFitsTheSoundFarWorseThanTheRestIsAskedFor() async throws {
        let matcher = try await TestModels.travelTrackingMatcher()
        let sentence = "how busy is uluru in travel tracking"
        let match = await matcher.match(sentence)
        #expect(match.best?.values["landmark"]?.title == "Uluru")
        /// Each word 30 frames at -20 per frame, "uluru" at `value` per frame.
        func heard(value: Int) -> RecognitionResult {
            let words = sentence.split(separator: " ").enumerated().map { index, word in
                RecognizedWord(
                    word: String(word), startFrame: index * 30, endFrame: index * 30 + 29,
                    acousticScore: (word == "uluru" ? value : -20) * 30, languageScore: 0, posterior: 0)
            }
            return RecognitionResult(text: sentence, score: 0, frames: words.count * 30, words: words)
        }
        #expect(heard(value: -60).fitMargin(ofValueWords: "uluru") == -40)

        let forced = try #require(
            Understanding(heard: heard(value: -60), match: match, minimumConfidence: 0).command)
        #expect(forced.values["landmark"] == nil)
        #expect(forced.missing == ["landmark"])
        #expect(forced.takenBack["landmark"] == "\"uluru\" fits the sound 40 per frame worse than the rest")

        let said = try #require(
            Understanding(heard: heard(value: -30), match: match, minimumConfidence: 0).command)
        #expect(said.values["landmark"]?.title == "Uluru")
        let unchecked = try #require(
            Understanding(heard: heard(value: -60), match: match, minimumConfidence: 0, valueMargin: nil)
                .command)
        #expect(unchecked.values["landmark"]?.title == "Uluru")
    }

    /// A value heard on a garbage path is left out of what the matcher is given, so the app asks
    /// for it, and written as "…" for people.
    @Test func garbageWordsAreLeftOutOfTheCommandAndShownAsAnEllipsis() async throws {
        let heard = TestSpeech.heard("how busy is ~l ~uw ~v in travel tracking")
        #expect(heard.commandText == "how busy is in travel tracking")
        #expect(heard.readableText == "how busy is … in travel tracking")
        let matcher = try await TestModels.travelTrackingMatcher()
        let understanding = Understanding(
            heard: heard, match: await matcher.match(heard.commandText), minimumConfidence: 0)
        let command = try #require(understanding.command)
        #expect(command.intent == "GetCrowdStatusIntent")
        #expect(command.missing == ["landmark"])
    }
}
