import Foundation
import Testing

@testable import VoiceAudio
@testable import VoiceEvaluation
@testable import VoiceRecognition
@testable import VoiceSynthesis

/// Speech made for tests: eSpeak NG's, as the recognizer takes it, and what a recognizer could
/// have heard.
package enum TestSpeech {
    /// Speech as the recognizer takes it, with 0.3 s of quiet on either side as a microphone
    /// would give (eSpeak's output starts and ends abruptly).
    package static func spoken(_ text: String, voice: String, rate: Int) throws -> [Int16] {
        let speech = try said(text, voice: voice, rate: rate)
        let audio = AudioBuffer(int16: speech.samples, sampleRate: speech.sampleRate).forRecognizer
        let quiet = [Int16](repeating: 0, count: 4_800)
        return quiet + audio + quiet
    }

    /// `text` as eSpeak NG says it in a process of its own: the same samples on every run, which
    /// speech made in the test process is not (it depends on what other tests said before).
    package static func said(_ text: String, voice: String, rate: Int) throws -> SynthesizedSpeech {
        let audio = try SpeechCache.speakInOwnProcess(text, voice: voice, rate: rate)
        return SynthesizedSpeech(samples: audio.int16Samples, sampleRate: audio.sampleRate)
    }

    /// A recognition of `text`, word by word, with `scorePerFrame` as its confidence.
    package static func heard(_ text: String, confidence scorePerFrame: Double? = nil) -> RecognitionResult {
        let words = text.split(separator: " ").enumerated().map { index, word in
            RecognizedWord(
                word: String(word), startFrame: index * 30, endFrame: index * 30 + 29, acousticScore: -1_000,
                languageScore: 0, posterior: 0)
        }
        return RecognitionResult(
            text: text, score: -1_000, frames: words.count * 30, words: words,
            confidence: scorePerFrame.map(RecognitionConfidence.init(scorePerFrame:)))
    }
}
