import Foundation
import PhraseMatching
import Testing
import TravelTracking
import VoiceTestSupport

@testable import VoiceAudio
@testable import VoiceEvaluation
@testable import VoiceRecognition
@testable import VoiceUnderstanding

/// The recognizer's confidence, on real audio: eSpeak NG commands and Debian's recorded speech
/// under the TravelTracking grammar. No stand-ins.
@Suite("Recognition confidence", .serialized)
struct ConfidenceTests {
    static let librivox = "/usr/share/pocketsphinx/test/data/librivox"

    /// A command as `evaluate` hears it: eSpeak NG in a quiet room, with the noise floor of a
    /// microphone.
    static func command(_ sentence: String, voice: String = "en-us") throws -> [Int16] {
        let evaluation = SpokenEvaluation(voices: [voice])
        let testCase = PhraseTestSuite.Case(
            sentence: sentence, expectation: .intent("any", values: [:]), source: .swift)
        return try evaluation.clip(
            SpokenEvaluation.Item(testCase: testCase, speaker: .voice(voice, rate: 175), condition: .clean),
            mixer: NoiseMixer())
    }

    static func recognizer() async throws -> SpeechRecognizer {
        let recognizer = try SpeechRecognizer(try SpeechRecognizer.Configuration.installed())
        try recognizer.useGrammar(
            SpeechGrammar(
                try await TestModels.travelTrackingMatcher().spokenForms, name: "travel-tracking"))
        return recognizer
    }

    /// The confidence is read off the grammar's own pass: the spoken words' acoustic score per
    /// frame, silences left out.
    @Test func theConfidenceIsTheWordsAcousticScorePerFrame() async throws {
        let recognizer = try await Self.recognizer()
        let clip = try Self.command("navigate to the map in travel tracking")
        recognizer.forgetChannel()
        let heard = try recognizer.recognize(clip)
        let confidence = try #require(heard.confidence)
        let words = heard.spokenWords
        #expect(words.count == 7)
        #expect(heard.words.count > words.count, "the silences around the command are segments too")
        let frames = words.reduce(0) { $0 + $1.endFrame - $1.startFrame + 1 }
        let perFrame = Double(words.reduce(0) { $0 + $1.acousticScore }) / Double(frames)
        #expect(abs(confidence.scorePerFrame - perFrame) < 1e-9)
        #expect(confidence.value > 0 && confidence.value < 1)
        #expect(RecognitionConfidence(words: []).value == 0)
        // A better score per frame, a higher confidence; 0.5 at the threshold.
        #expect(RecognitionConfidence(scorePerFrame: RecognitionConfidence.midpoint).value == 0.5)
        #expect(
            RecognitionConfidence(scorePerFrame: -40).value > RecognitionConfidence(scorePerFrame: -80).value)
    }

    /// A name of several words is one word to the decoder (``CompoundWord``); what it heard
    /// comes out word by word, each word with its share of the name's frames.
    @Test func aNameHeardAsOneWordComesOutWordByWord() async throws {
        let recognizer = try await Self.recognizer()
        let clip = try Self.command("how busy is the statue of liberty in travel tracking")
        recognizer.forgetChannel()
        let heard = try recognizer.recognize(clip)
        #expect(heard.text == "how busy is the statue of liberty in travel tracking")
        let words = heard.spokenWords
        #expect(words.map(\.word) == heard.text.split(separator: " ").map(String.init))
        let name = try #require(words.firstIndex { $0.word == "statue" })
        let parts = Array(words[name..<name + 3])
        #expect(parts.map(\.word) == ["statue", "of", "liberty"])
        for (part, next) in zip(parts, parts.dropFirst()) {
            #expect(part.startFrame <= part.endFrame)
            #expect(
                next.startFrame == part.endFrame + 1, "\(part.word) and \(next.word) share the name's frames")
        }
        #expect(parts.allSatisfy { $0.acousticScore < 0 })
        // The dictionary written for people has the words, not the compound.
        #expect(recognizer.loadedPronunciations.contains("\nliberty "))
        #expect(!recognizer.loadedPronunciations.contains("_"))
    }

    /// PocketSphinx numbers frames from the start of its stream: the same audio heard a second
    /// time, right after the first, must still line up with the first hearing frame for frame.
    @Test func aSecondHearingOfTheSameAudioLinesUpWithTheFirst() async throws {
        let recognizer = try await Self.recognizer()
        let clip = try Self.command("navigate to the map in travel tracking")
        recognizer.forgetChannel()
        _ = try recognizer.recognize(clip)
        // The second utterance of the stream, then a phone loop over the same audio.
        let heard = try recognizer.recognize(clip)
        let loop = try recognizer.hearPhones(clip)
        #expect(heard.text == "navigate to the map in travel tracking")
        #expect(heard.words.first?.startFrame == 0)
        #expect(loop.segments.first?.startFrame == 0)
        let wordsEnd = try #require(heard.words.last?.endFrame)
        let loopEnd = try #require(loop.segments.last?.endFrame)
        #expect(abs(wordsEnd - loopEnd) <= 2, "words end at \(wordsEnd), the loop at \(loopEnd)")
        #expect(wordsEnd < heard.frames)
    }

    @Test func aCommandScoresHigherThanReadSpeechThatIsNotOne() async throws {
        let recognizer = try await Self.recognizer()
        var commands: [RecognitionConfidence] = []
        for sentence in ["navigate to the map in travel tracking", "how busy is uluru in travel tracking"] {
            recognizer.forgetChannel()
            let result = try recognizer.recognize(try Self.command(sentence))
            #expect(result.text == sentence)
            commands.append(try #require(result.confidence))
        }
        var others: [RecognitionConfidence] = []
        for id in ["0880", "0930"] {
            let url = URL(fileURLWithPath: "\(Self.librivox)/sense_and_sensibility_01_austen_64kb-\(id).wav")
            recognizer.forgetChannel()
            let result = try recognizer.recognize(try WAVFile.read(from: url).forRecognizer)
            others.append(try #require(result.confidence))
        }
        // Measured (rejection-benchmark, calibrate): the two overlap widely, and most speech that
        // is not a command still scores above 0.5. So only the order is asserted for the
        // recordings: each command clears 0.5 and scores above every LibriVox sentence.
        for command in commands { #expect(command.value > 0.5, "\(command)") }
        let closest = commands.map(\.scorePerFrame).min()! - others.map(\.scorePerFrame).max()!
        #expect(closest > 0, "commands \(commands), others \(others)")
    }

    @Test func listeningToAStreamMeasuresConfidenceToo() async throws {
        let recognizer = try await Self.recognizer()
        let clip = try Self.command("navigate to the map in travel tracking")
        recognizer.forgetChannel()
        var offset = 0
        let result = try recognizer.listen(timeout: 5) { () -> [Int16]? in
            guard offset < clip.count else { return nil }
            defer { offset = min(offset + 1_600, clip.count) }
            return Array(clip[offset..<min(offset + 1_600, clip.count)])
        }
        let heard = try #require(result)
        #expect(heard.text == "navigate to the map in travel tracking")
        #expect(try #require(heard.confidence).value > 0.5)
    }
}
