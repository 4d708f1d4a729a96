import Foundation
import PhraseMatching
import VoiceRecognition

/// What one utterance comes to once it is heard and matched: a command to act on, with how sure
/// that is, or the reason it is not acted on.
///
/// The confidence joins the recognizer's (`RecognitionResult/confidence`: did the sound fit the
/// words?) with the matcher's score (did the words fit a phrase?) as their product, so a command
/// heard clearly but matched loosely, or matched word for word but heard poorly, scores low.
///
/// ```swift
/// let heard = try recognizer.recognize(samples)
/// let understanding = Understanding(heard: heard, match: await matcher.match(heard.commandText), minimumConfidence: 0.5)
/// if let rejection = understanding.rejection { print("ignored: \(rejection)") }
/// ```
package struct Understanding: Sendable {
    /// Why an utterance is not acted on.
    package enum Rejection: Sendable, Hashable, CustomStringConvertible {
        /// No words were heard (a cough, a door, noise the grammar could not fit).
        case nothingHeard
        /// The grammar's garbage path fitted the sound better than any command
        /// (`GarbageKind/utterance`), or a word the app does not know fitted its first word
        /// better than the command's own (`GarbageKind/commandWord`, `DecoyCheck`).
        case notACommand
        /// The words fit no phrase well enough, or fit two commands equally.
        case noMatch
        /// The words fit one of the app's negative phrases: not meant for the app.
        case negativePhrase(String)
        /// The words fit a command, but the confidence is below the bar: most likely
        /// speech that was not a command, forced onto one by the grammar.
        case lowConfidence(Double, minimumConfidence: Double)
        /// An answer of a few words with more sound around them than a person leaves around a
        /// yes, a no or a name (`RecognitionResult/secondsOutsideWords` over `limit`): most
        /// likely a longer sentence forced onto the answer.
        case tooMuchAroundTheWords(Double, limit: Double)

        package var description: String {
            switch self {
            case .nothingHeard: "nothing heard"
            case .notACommand: "not a command (garbage path or decoy)"
            case .noMatch: "no phrase fits"
            case .negativePhrase(let phrase): "negative phrase \"\(phrase)\""
            case .lowConfidence(let value, let bar):
                "confidence \(Self.format(value, apartFrom: bar)) below \(Self.format(bar, apartFrom: value))"
            case .tooMuchAroundTheWords(let seconds, let limit):
                "\(String(format: "%.1f", seconds)) s of sound around the words, over \(String(format: "%.1f", limit))"
            }
        }

        /// `value` with two decimals, or as many more (up to four) as it takes to tell it from
        /// `other`: "0.528 below 0.531", not "0.53 below 0.53".
        static func format(_ value: Double, apartFrom other: Double) -> String {
            let digits =
                (2...3).first { String(format: "%.\($0)f", value) != String(format: "%.\($0)f", other) } ?? 4
            return String(format: "%.\(digits)f", value)
        }
    }

    /// What the recognizer heard.
    package let heard: RecognitionResult
    /// What the matcher made of its `RecognitionResult/commandText`.
    package let match: MatchResult
    /// How sure it is that ``command`` is what was meant, from 0 to 1: the recognizer's
    /// confidence (1 for a result made by hand without one) times the matcher's score of the
    /// best candidate (0 when none).
    package let confidence: Double
    /// Why it is not acted on; `nil` when ``command`` is.
    package let rejection: Rejection?

    /// Joins `heard` and `match`. A value whose words fit the sound much worse than the rest of
    /// the sentence is taken back, so the runtime asks for it (``checkingValues(of:heard:margin:)``).
    ///
    /// - Parameters:
    ///   - minimumConfidence: The lowest ``confidence`` acted on (0 acts on any match).
    ///   - valueMargin: How much worse per frame a value's words may fit than the rest
    ///     (`RecognitionResult/valueMisfitMargin`); `nil` keeps every value.
    package init(
        heard: RecognitionResult, match: MatchResult, minimumConfidence: Double,
        valueMargin: Double? = RecognitionResult.valueMisfitMargin
    ) {
        self.heard = heard
        self.match = Self.checkingValues(of: match, heard: heard, margin: valueMargin)
        confidence = Self.confidence(hearing: heard.confidence?.value ?? 1, match: match)
        if heard.garbage == .utterance || heard.garbage == .commandWord {
            rejection = .notACommand
        } else if heard.spokenWords.isEmpty {
            rejection = .nothingHeard
        } else if let negative = match.negativePhrase {
            rejection = .negativePhrase(negative)
        } else if match.best == nil {
            rejection = .noMatch
        } else if confidence < minimumConfidence {
            rejection = .lowConfidence(confidence, minimumConfidence: minimumConfidence)
        } else {
            rejection = nil
        }
    }

    /// The recognizer's confidence `hearing` times the matcher's score of its best candidate
    /// (0 when it has none).
    package static func confidence(hearing: Double, match: MatchResult?) -> Double {
        hearing * ((match?.best ?? match?.candidates.first)?.score ?? 0)
    }

    /// The command to act on; `nil` when the utterance is rejected.
    package var command: PhraseMatch? { rejection == nil ? match.best : nil }
}
