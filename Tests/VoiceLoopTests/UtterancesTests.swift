import Foundation
import SmartHome
import Synchronization
import Testing
import VoiceLoop
import VoiceTestSupport

@testable import VoiceAudio
@testable import VoiceEvaluation
@testable import VoiceRecognition

/// Utterances as an asynchronous sequence: an input heard one utterance at a time.
@Suite("Utterances")
struct UtterancesTests {
    /// Quiet room noise (−60 dBFS or so), `seconds` long.
    static func room(_ seconds: Double, seed: UInt64) -> [Int16] {
        var generator = SplitMix64(seed: seed)
        return (0..<Int(seconds * 16_000)).map { _ in Int16(NoiseMixer.gaussian(&generator) * 30) }
    }

    /// A person's two commands, a second of a quiet room between them, are two utterances, heard
    /// under SmartHome's grammar in the order they were said. (Not "is the Front Door locked"
    /// first: through the front end without gain, the "what time is it" after it is heard as no
    /// words; Benchmarks/Recognition/README.md, "Automatic gain in a stream".)
    @Test func twoCommandsAreTwoUtterances() async throws {
        var samples: [Int16] = []
        for name in ["cancel timer.wav", "what time is it.wav"] {
            let audio = try WAVFile.read(from: try PeoplesRecordings.file("speech-to-phrase-en", name))
            samples += audio.resampled(to: 16_000).int16Samples + Self.room(1, seed: UInt64(samples.count))
        }
        let said = samples
        let position = Mutex(0)
        let input = VoiceInput(name: "two commands") { () throws(SpeechError) -> [Int16]? in
            position.withLock { start in
                guard start < said.count else { return nil }
                let end = min(said.count, start + 1_600)
                defer { start = end }
                return Array(said[start..<end])
            }
        }
        let grammar = try await AppContext(SmartHomeApp.self).grammar(.find(explicit: nil, locale: "en"))
        var heard: [String] = []
        for try await utterance in Utterances(input: input, recognizer: try .installed(), grammar: grammar) {
            heard.append(utterance.text)
        }
        #expect(heard == ["cancel timer", "what time is it"], "\(heard)")
    }

    /// Cancelling the task that iterates an endless stream ends the iteration and stops the input.
    @Test func cancellingTheTaskStopsAnEndlessInput() async throws {
        let chunks = Atomic(0)
        let input = VoiceInput(name: "endless room") { () throws(SpeechError) -> [Int16]? in
            Thread.sleep(forTimeInterval: 0.01)
            return Self.room(0.1, seed: UInt64(chunks.add(1, ordering: .relaxed).newValue))
        }
        let heard = Utterances(input: input, recognizer: try .installed(), grammar: nil)
        let listening = Task {
            var count = 0
            for try await _ in heard { count += 1 }
            return count
        }
        // Cancelled once it hears: loading the recognizer takes a while on a busy machine.
        let started = ContinuousClock.now
        while chunks.load(ordering: .relaxed) < 10 && ContinuousClock.now - started < .seconds(600) {
            try await Task.sleep(for: .milliseconds(50))
        }
        listening.cancel()
        // A sequence that did not end would leave the test waiting: give it a minute.
        let done = Flag()
        Task {
            _ = try? await listening.value
            done.value.store(true, ordering: .relaxed)
        }
        let deadline = ContinuousClock.now + .seconds(60)
        while !done.value.load(ordering: .relaxed) && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        let ended = done.value.load(ordering: .relaxed)
        #expect(ended, "the sequence went on after its task was cancelled")
        #expect(chunks.load(ordering: .relaxed) >= 10, "the input was read")
        #expect(try input.read() == nil, "the input is stopped")
    }

    final class Flag: Sendable {
        let value = Atomic(false)
    }
}
