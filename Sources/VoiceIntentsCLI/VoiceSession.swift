import Foundation
import Logging
import PhraseMatching
import Speech
import Synchronization
import VoiceIntents

/// Sound in and out for the voice loop: hears one utterance at a time under a grammar, and says
/// text. Used by one task at a time (the loop, and the conversation the loop's runner calls).
final class VoiceChannel: @unchecked Sendable {  // its state is touched only by that one task
    private let recognizer: SpeechRecognizer
    private let read: () throws(SpeechError) -> [Int16]?
    private let speaker: (SynthesizedSpeech) throws -> Void
    private let synthesizer: SpeechSynthesizer
    /// Seconds to wait for someone to start speaking.
    let timeout: Double
    /// Whether the input has ended (a file or stream read to the end).
    private(set) var ended = false

    /// - Parameters:
    ///   - read: The next 16 kHz samples, `nil` at the end of the input.
    ///   - speaker: Plays or records what is said.
    init(
        recognizer: SpeechRecognizer, synthesizer: SpeechSynthesizer, timeout: Double,
        read: @escaping () throws(SpeechError) -> [Int16]?,
        speaker: @escaping (SynthesizedSpeech) throws -> Void
    ) {
        self.recognizer = recognizer
        self.synthesizer = synthesizer
        self.timeout = timeout
        self.read = read
        self.speaker = speaker
    }

    /// The next utterance under `grammar` (dictation when `nil`); `nil` when nobody spoke before
    /// the timeout or the input ended.
    func hear(under grammar: SpeechGrammar?) throws -> RecognitionResult? {
        if let grammar { try recognizer.useGrammar(grammar) } else { try recognizer.useDictation() }
        return try recognizer.listen(timeout: timeout) { () throws(SpeechError) -> [Int16]? in
            guard let samples = try read() else {
                ended = true
                return nil
            }
            return samples
        }
    }

    /// Says `text`.
    func say(_ text: String) throws {
        try speaker(try synthesizer.speak(text))
    }
}

/// Asks an intent's questions out loud and hears the answers under a grammar of what may be
/// answered: the options' names, ordinals, yes and no, numbers, or dictation for free text;
/// "cancel" and "never mind" always.
struct VoiceConversation: Conversation {
    let channel: VoiceChannel
    let transcript: TextSink

    func ask(_ question: ConversationQuestion) async throws -> ConversationReply {
        var spoken = question.dialog.full.defaultValue
        if question.kind == .disambiguation || question.kind == .choice {
            spoken +=
                " "
                + zip(SpeechGrammar.ordinalWords, question.options).map { "The \($0), \($1)." }
                .joined(separator: " ")
        }
        transcript.write("< \(spoken)\n")
        try channel.say(spoken)
        guard let heard = try channel.hear(under: Self.grammar(for: question)) else {
            return channel.ended ? .cancel : .silence
        }
        transcript.write("> \(heard.text)\n")
        return heard.text.isEmpty ? .silence : .text(heard.text)
    }

    /// What may be said in answer to `question`; `nil` for free text (dictation).
    static func grammar(for question: ConversationQuestion) -> SpeechGrammar? {
        func names(_ options: [String]) -> SpokenForms.Values {
            .names(options.map { SpeechGrammar.spokenWords($0) }.filter { !$0.isEmpty })
        }
        let answers: [SpeechGrammar.Answer]
        switch question.kind {
        case .confirmation:
            answers = [.yesOrNo]
        case .disambiguation, .choice:
            answers = [.values(names(question.options)), .ordinals]
        case .value:
            if !question.options.isEmpty {
                answers = [.values(names(question.options + SpeechGrammar.shortForms(of: question.options)))]
            } else {
                switch question.parameter?.valueType.kind {
                case .integer: answers = [.values(.integer)]
                case .decimal: answers = [.values(.decimal)]
                case .boolean: answers = [.yesOrNo]
                case .date: answers = [.values(.date)]
                default: return nil
                }
            }
        }
        return SpeechGrammar(answers: answers, name: "answer_\(question.kind)")
    }
}

/// The voice loop: hears a command, matches it, runs the intent (asking out loud when it must)
/// and says the answer, until the input ends.
struct VoiceSession: Sendable {
    let description: AppDescription
    let matcher: PhraseMatcher
    let commands: SpeechGrammar
    let channel: VoiceChannel
    let transcript: TextSink
    let voiceOnly: Bool
    let once: Bool
    let logger: Logger

    /// Runs until the input ends (or after one command with `once`); returns how many
    /// utterances were not understood.
    func run(_ runner: IntentRunner) async throws -> Int {
        var misunderstood = 0
        while !channel.ended {
            guard let heard = try channel.hear(under: commands) else { continue }
            transcript.write("> \(heard.text)\n")
            let started = ContinuousClock.now
            let result = await matcher.match(heard.text)
            guard let match = result.best else {
                misunderstood += 1
                logger.debug("no match", metadata: ["transcript": "\(heard.text)"])
                try say(result.negativePhrase != nil ? "Okay." : "Sorry, I didn't catch that.")
                if once { break } else { continue }
            }
            logger.debug(
                "matched",
                metadata: [
                    "transcript": "\(heard.text)", "intent": "\(match.intent)", "score": "\(match.score)",
                    "parameters": "\(match.values)",
                ])
            let outcome = await runner.run(
                description.shortcuts[match.shortcutIndex].intent, parameters: match.runnerParameters)
            for step in outcome.chain {
                transcript.write(
                    ScreenText.text(for: step, appName: description.name, voiceOnly: voiceOnly))
                if let spoken = step.spokenText(voiceOnly: voiceOnly) { try say(spoken) }
                if let detail = step.errorDetail { logger.error("\(step.intent) failed: \(detail)") }
                logger.debug(
                    "turn",
                    metadata: [
                        "intent": "\(step.intent)", "status": "\(step.status.rawValue)",
                        "elapsed": "\(ContinuousClock.now - started)",
                    ])
            }
            if once { break }
        }
        return misunderstood
    }

    private func say(_ text: String) throws {
        transcript.write("< \(text)\n")
        try channel.say(text)
    }
}
