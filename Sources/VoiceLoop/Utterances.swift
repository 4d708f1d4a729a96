import Foundation
import VoiceAudio
import VoiceRecognition

/// What is said into an input, one utterance at a time, as an asynchronous sequence: each is
/// heard under a grammar (or as dictation) when its speech ends, on a thread of its own, so
/// waiting for the next one ties up none of Swift's cooperative threads. The sequence ends with
/// the input; when the task iterating it is cancelled, or stops iterating, the input is stopped.
///
/// For an app's conversation use ``VoiceLoop``; this is for hearing alone (a transcript of a
/// stream, a service that answers with what it heard).
///
/// ```swift
/// let heard = Utterances(
///     input: try VoiceInput(recording: "kitchen.wav"), recognizer: try .installed(),
///     grammar: try await AppContext(SmartHomeApp.self).grammar(.find(explicit: nil, locale: "en")))
/// for try await utterance in heard {
///     print(utterance.text)
/// }
/// ```
public struct Utterances: AsyncSequence, Sendable {
    public typealias Element = RecognitionResult

    public let input: VoiceInput
    public let recognizer: SpeechRecognizer.Configuration
    /// The grammar the utterances are heard under; `nil` for dictation.
    public let grammar: SpeechGrammar?
    /// Seconds of no speech after which listening starts afresh (nothing is yielded for them).
    public let timeout: Double

    public init(
        input: VoiceInput, recognizer: SpeechRecognizer.Configuration, grammar: SpeechGrammar?,
        timeout: Double = SpeechRecognizer.utteranceTimeout
    ) {
        self.input = input
        self.recognizer = recognizer
        self.grammar = grammar
        self.timeout = timeout
    }

    public func makeAsyncIterator() -> AsyncThrowingStream<RecognitionResult, any Error>.Iterator {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: RecognitionResult.self)
        let input = input
        continuation.onTermination = { _ in input.stop() }
        BlockingThreads.shared.run { [recognizer, grammar, timeout] in
            do {
                let hearing = try SpeechRecognizer(recognizer)
                if let grammar { try hearing.useGrammar(grammar) } else { try hearing.useDictation() }
                while !input.hasEnded {
                    if let heard = try hearing.listen(timeout: timeout, read: input.read) {
                        continuation.yield(heard)
                    }
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        return stream.makeAsyncIterator()
    }
}
