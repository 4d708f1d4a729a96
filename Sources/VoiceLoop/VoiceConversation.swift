import Foundation
import Logging
import PhraseMatching
import Synchronization
import VoiceAudio
import VoiceIntents
import VoiceRecognition
import VoiceUnderstanding

/// Asks an intent's questions out loud and hears the answers under a grammar of what may be
/// answered: the options' names, ordinals, yes and no, numbers, or dictation for free text;
/// "cancel" and "never mind" always.
///
/// An answer heard with less confidence than ``ConfidencePolicy/bar(for:)`` asks, or with more
/// sound around its words than ``ConfidencePolicy/confirmationSlack`` (to a confirmation) or
/// ``ConfidencePolicy/answerSlack`` allows, is not taken: the runner hears silence, says "Sorry,
/// I didn't catch that" and asks again, and cancels when the second answer is no clearer.
/// "Cancel" is always taken.
package struct VoiceConversation: Conversation {
    package let channel: VoiceChannel
    package let transcript: TextSink
    package var policy = ConfidencePolicy.off
    package var logger: Logger?
    /// The words a free-text answer is heard as (``FreeTextWords``), beside any suggestions;
    /// `nil` leaves free text to dictation and hears only the suggestions.
    package var freeText: FreeTextWords?

    package func ask(_ question: ConversationQuestion) async throws -> ConversationReply {
        var spoken = question.dialog.full.defaultValue
        if question.kind == .disambiguation || question.kind == .choice {
            spoken +=
                " "
                + zip(SpeechGrammar.ordinalWords, question.options).map { "The \($0), \($1)." }
                .joined(separator: " ")
        }
        transcript.write("< \(spoken)\n")
        switch try await channel.say(spoken, asking: true) {
        case .cancel(let said):
            transcript.write("> \(said)\n")
            return .cancel
        case .command, .wakeWord:
            // Another command said over the question (or the wake word, before one): this
            // conversation ends, and the loop runs that one next.
            return .cancel
        case nil:
            break
        }
        guard let heard = try await channel.hear(under: Self.grammar(for: question, freeText: freeText))
        else {
            return channel.ended ? .cancel : .silence
        }
        guard !heard.text.isEmpty else { return .silence }
        // "um three" answers three: the grammar hears the hesitation, the runner reads the rest.
        let answer = SpeechGrammar.withoutHesitation(heard.text)
        if !SpokenAnswer.isCancel(answer), let rejection = policy.rejection(ofAnswer: heard, to: question) {
            transcript.write("> \(heard.text) (not taken: \(rejection))\n")
            logger?.debug(
                "answer not taken", metadata: ["transcript": "\(heard.text)", "why": "\(rejection)"])
            return .silence
        }
        transcript.write("> \(heard.text)\n")
        return .text(answer)
    }

    /// What may be said in answer to `question`; `nil` for free text (dictation) when there are
    /// no `freeText` words. With them, a free-text value is a loop of them, beside the
    /// suggestions when the parameter has some.
    package static func grammar(
        for question: ConversationQuestion, freeText: FreeTextWords? = nil
    ) -> SpeechGrammar? {
        let isText = question.parameter?.valueType.kind == .string
        func words(_ options: [String]) -> [[String]] {
            options.map { SpeechGrammar.spokenWords($0) }.filter { !$0.isEmpty }
        }
        let answers: [SpeechGrammar.Answer]
        switch question.kind {
        case .confirmation:
            answers = [.yesOrNo]
        case .disambiguation, .choice:
            answers = [.values(.names(words(question.options))), .ordinals]
        case .value:
            if !question.options.isEmpty {
                let names = words(question.options + SpeechGrammar.shortForms(of: question.options))
                let values: SpokenForms.Values =
                    isText && freeText != nil ? .suggestedText(names) : .names(names)
                answers = [question.parameter?.valueType.isList == true ? .list(values) : .values(values)]
            } else if isText, freeText != nil {
                answers = [.values(.freeText)]
            } else {
                switch question.parameter?.valueType.kind {
                case .integer:
                    answers = [.values(.integer(largest: question.parameter?.inclusiveRange?.upperBound))]
                case .decimal:
                    answers = [.values(.decimal(largest: question.parameter?.inclusiveRange?.upperBound))]
                case .boolean: answers = [.yesOrNo]
                case .date: answers = [.values(.date)]
                default: return nil
                }
            }
        }
        // An answer may begin with "um", except where a sentence taken for one does harm: "um"
        // lets more of a sentence count as words, and more of them past the limit on the sound
        // around an answer (`Benchmarks/Recognition/README.md`, "Hesitations").
        let confirms = question.kind == .confirmation || question.isDestructive
        return SpeechGrammar(
            answers: answers, name: "answer_\(question.kind)",
            hesitations: confirms ? [] : SpeechGrammar.hesitations, freeText: isText ? freeText : nil)
    }
}
