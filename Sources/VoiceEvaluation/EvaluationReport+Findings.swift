import Foundation
import PhraseMatching
import VoiceIntents
import VoiceRecognition
import VoiceUnderstanding

/// What an evaluation's clips say together: which intents were taken for which, the sentences most
/// often wrong, and the words most often misheard.
extension EvaluationReport {
    /// How often each expected intent (or no match) was taken for each other one: `[expected:
    /// [got: clips]]`, only the clips that went wrong.
    package var confusions: [String: [String: Int]] {
        var table: [String: [String: Int]] = [:]
        for clip in clips where clip.expectedIntent != clip.gotIntent {
            table[clip.expectedIntent ?? "no match", default: [:]][
                clip.gotIntent ?? "no match", default: 0] += 1
        }
        return table
    }

    /// A sentence's results over every voice and condition.
    package struct Phrase: Sendable {
        package let sentence: String
        package let source: String
        package let expected: String
        package let clips: Int
        package let right: Int
        /// The most frequent wrong outcome, with what was heard.
        package let example: (heard: String, got: String)?
    }

    /// The sentences most often wrong, worst first.
    package func worstPhrases(_ count: Int = 10) -> [Phrase] {
        let bySentence = Dictionary(grouping: clips) { "\($0.source)|\($0.sentence)" }
        let phrases = bySentence.values.compactMap { clips -> Phrase? in
            guard let first = clips.first else { return nil }
            let wrong = clips.filter { !$0.isRight }
            guard !wrong.isEmpty else { return nil }
            let common = Dictionary(grouping: wrong, by: \.got).max { $0.value.count < $1.value.count }?.value
                .first
            return Phrase(
                sentence: first.sentence, source: first.source, expected: first.expected, clips: clips.count,
                right: clips.count - wrong.count, example: common.map { ($0.heard, $0.got) })
        }
        return phrases.sorted {
            let a = Double($0.right) / Double($0.clips)
            let b = Double($1.right) / Double($1.clips)
            return a != b ? a < b : $0.sentence < $1.sentence
        }.prefix(count).map { $0 }
    }

    /// A word said and how often it was heard as something else.
    package struct Word: Sendable {
        package let word: String
        /// How often the word was said, and how often it was misheard.
        package let said: Int
        package let misheard: Int
        /// What it was heard as, most frequent first ("" is nothing).
        package let heardAs: [(String, Int)]
    }

    /// The words most often misheard, most misheard first: in the clean clips of commands when
    /// there are any (noise drowns every word alike, which says nothing of the phrases), and not
    /// counting clips in which nothing was heard at all.
    package func misheardWords(_ count: Int = 15) -> [Word] {
        var said: [String: Int] = [:]
        var heardAs: [String: [String: Int]] = [:]
        let hasClean = clips.contains { $0.snr == nil }
        for clip in clips where clip.isCommand && !clip.heard.isEmpty && (!hasClean || clip.snr == nil) {
            for word in SpeechGrammar.spokenWords(clip.sentence) { said[word, default: 0] += 1 }
            for miss in clip.misheard { heardAs[miss.said, default: [:]][miss.heard, default: 0] += 1 }
        }
        return heardAs.map { word, heard in
            Word(
                word: word, said: said[word] ?? 0, misheard: heard.values.reduce(0, +),
                heardAs: heard.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map {
                    ($0.key, $0.value)
                })
        }.sorted { $0.misheard != $1.misheard ? $0.misheard > $1.misheard : $0.word < $1.word }.prefix(count)
            .map {
                $0
            }
    }

    /// What the report knows of a word, for its suggestion.
    package struct WordKind: Sendable {
        /// Part of a value's name (a landmark, a title).
        package var isValue = false
        /// Its pronunciation was guessed: no dictionary has it.
        package var isGuessed = false
        /// The grammar has it: the recognizer can hear it at all.
        package var isInGrammar = true

        package init(isValue: Bool = false, isGuessed: Bool = false, isInGrammar: Bool = true) {
            self.isValue = isValue
            self.isGuessed = isGuessed
            self.isInGrammar = isInGrammar
        }
    }

    /// What to do about a word that is often misheard.
    package static func suggestion(for word: Word, kind: WordKind) -> String {
        if !kind.isInGrammar {
            return
                "not in the grammar, so never heard: fine for a filler; if people say it, add a phrase or a synonym with it"
        }
        if kind.isGuessed {
            return
                "add a pronunciation of \"\(word.word)\" to the lexicon (Models/en/lexicon.dict): it is guessed"
        }
        let top = word.heardAs.first?.0 ?? ""
        if top.isEmpty {
            return "\"\(word.word)\" is often lost: make it optional in the phrase, or use a longer word"
        }
        if kind.isValue {
            return "add a synonym people would say for the value with \"\(word.word)\", unlike \"\(top)\""
        }
        return "rephrase, or add a synonym: \"\(word.word)\" sounds like \"\(top)\" to the recognizer"
    }
}
