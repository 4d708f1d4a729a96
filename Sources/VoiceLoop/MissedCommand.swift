import PhraseMatching
import VoiceIntents

/// What the loop answers, spoken or typed alike, when a command fits two shortcuts about
/// equally well: it names both, and the person says it another way.
package enum MissedCommand {
    /// "Sorry, did you mean Find Tickets or Crowd Status? Please say it another way." when
    /// `result` is ambiguous between two shortcuts; `nil` otherwise.
    package static func question(for result: MatchResult, in description: AppDescription) -> String? {
        guard result.isAmbiguous, result.candidates.count > 1 else { return nil }
        let options = result.candidates.prefix(2).map {
            description.shortcuts[$0.shortcutIndex].shortTitle.defaultValue
        }
        return "Sorry, did you mean \(options[0]) or \(options[1])? Please say it another way."
    }
}
