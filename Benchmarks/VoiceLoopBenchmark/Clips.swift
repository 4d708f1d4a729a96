import BenchmarkSupport
import Foundation
import Library
import PhraseMatching
import Synchronization
import TravelTracking
import VoiceAudio
import VoiceEvaluation
import VoiceIntents
import VoiceRecognition
import VoiceSynthesis
import VoiceUnderstanding

/// A sample app: its executable's name, its declaration, and its matcher and grammar as
/// `travel-tracking listen` builds them.
struct App {
    let sample: SampleApp
    let matcher: PhraseMatcher
    let grammar: SpeechGrammar

    var name: String { sample.name }
    var description: AppDescription { sample.description }
    var register: @Sendable (AppDependencyManager) -> Void { sample.register }

    static func load(_ sample: SampleApp) async throws -> App {
        let matcher = try await sample.matcher()
        return App(
            sample: sample, matcher: matcher, grammar: SpeechGrammar(matcher.spokenForms, name: sample.name))
    }

    /// The suite's sentences that reach an intent and that the grammar can say word for word,
    /// once each (the suites write some sentences twice, in other cases or with punctuation).
    func suiteSentences() throws -> [String] {
        let cases = try sample.testCases()
        var seen = Set<[String]>()
        return cases.filter {
            $0.expectation != .noMatch && grammar.canSay($0.sentence)
                && seen.insert(SpeechGrammar.spokenWords($0.sentence)).inserted
        }.map(\.sentence)
    }

    /// Of `sentences`, run in this order on one app state as the loop runs them, the ones whose
    /// intent asks nothing (no missing value, no disambiguation, no confirmation): a turn of the
    /// loop that hears the next command as the answer to a question would time the wrong thing.
    /// Dropping a sentence changes the state the later ones meet, so it runs again until no
    /// sentence asks.
    func oneShot(_ sentences: [String]) async -> [String] {
        var chosen = sentences
        for _ in 0..<4 {
            let dependencies = AppDependencyManager()
            register(dependencies)
            let conversation = NoAnswers()
            let runner = IntentRunner(
                conversation: conversation, dependencies: dependencies, hasScreen: false)
            var kept: [String] = []
            for sentence in chosen {
                guard let match = await matcher.match(sentence).best else { continue }
                conversation.asked.store(false, ordering: .relaxed)
                _ = await runner.run(
                    description.shortcuts[match.shortcutIndex].intent, parameters: match.runnerParameters)
                if !conversation.asked.load(ordering: .relaxed) { kept.append(sentence) }
            }
            if kept.count == chosen.count { break }
            chosen = kept
        }
        return chosen
    }
}

/// Answers every question with "cancel", noting that one was asked.
final class NoAnswers: Conversation {
    let asked = Atomic(false)

    func ask(_ question: ConversationQuestion) async throws -> ConversationReply {
        asked.store(true, ordering: .relaxed)
        return .cancel
    }
}

/// One suite sentence spoken by eSpeak NG as a microphone in a quiet room hears it.
struct Clip {
    let sentence: String
    let voice: String
    /// 16 kHz, with `padding` of quiet noise before and after the speech.
    let samples: [Int16]
    /// Where the speech starts, and its last sample louder than −40 dBFS (eSpeak NG's voice
    /// fades out; what is left after that is no longer heard as speech).
    let speechStart: Int
    let speechEnd: Int

    /// The words the recognizer should hear.
    var words: String { SpeechGrammar.spokenWords(sentence).joined(separator: " ") }

    /// Voices that the recognizer hears well (the speech benchmark's third, `en+m7`, is misheard
    /// often enough to turn commands into questions), taking turns.
    static let voices = ["en-us", "en-us+f2"]

    static func make(_ sentences: [String], padding: Double, seedBase: UInt64) throws -> [Clip] {
        let roundTrip = RoundTrip(padding: padding)
        let pad = Int(padding * Double(AudioFormat.recognizerSampleRate))
        return try sentences.enumerated().map { index, sentence in
            let voice = voices[index % voices.count]
            let speech = try SpeechSynthesizer(voice: voice, rate: 170).speak(sentence)
            let samples = roundTrip.heard(speech, seed: seedBase + UInt64(index))
            let voiceEnd = samples.count - pad
            var end = voiceEnd - 1
            while end > pad, abs(Int(samples[end])) < 328 { end -= 1 }
            return Clip(sentence: sentence, voice: voice, samples: samples, speechStart: pad, speechEnd: end)
        }
    }
}
