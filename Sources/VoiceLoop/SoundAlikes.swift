import Logging
import PhraseMatching
import VoiceIntents
import VoiceRecognition
import VoiceUnderstanding

/// Phrases that sound alike, and what they mean for intents that need a known person: an intent
/// heard in place of a sensitive one ("lock the front door" for "unlock the front door") must not
/// run without a yes either.
package enum SoundAlikes {
    /// The values and phrases of `forms` that sound alike, with the pronunciations `recognizer`
    /// uses. Words its grammar leaves out (those of free-text phrases, heard by dictation) are
    /// loaded the same way first: from the lexicon, the dictionary, or guessed.
    package static func confusions(
        _ forms: SpokenForms, recognizer: SpeechRecognizer, check: ConfusabilityCheck = ConfusabilityCheck()
    ) throws -> [Confusion] {
        let missing = ConfusabilityCheck.words(in: forms).filter { recognizer.pronunciation(of: $0) == nil }
        if !missing.isEmpty {
            let words = SpokenForms.Phrase(intent: nil, elements: missing.sorted().map { .word($0) })
            try recognizer.useGrammar(SpeechGrammar(SpokenForms(phrases: [words]), name: "acoustic_lint"))
        }
        return check.confusions(in: forms, pronunciation: recognizer.pronunciation(of:))
    }

    /// A pair of intents whose phrases sound alike, one of which needs a known person.
    package struct SensitivePair: Hashable {
        /// The intent that requires authentication.
        package let sensitive: String
        /// The intent that sounds like it.
        package let soundAlike: String
        /// The two phrases, as the check showed them.
        package let phrases: (String, String)

        package static func == (a: Self, b: Self) -> Bool {
            (a.sensitive, a.soundAlike) == (b.sensitive, b.soundAlike)
        }
        package func hash(into hasher: inout Hasher) {
            hasher.combine(sensitive)
            hasher.combine(soundAlike)
        }

        package var warning: String {
            "\(soundAlike) sounds like \(sensitive), which requires authentication (\"\(phrases.0)\" and \"\(phrases.1)\"); by voice, both are confirmed before they run"
        }
    }

    /// The pairs of `confusions` where one intent of `app` requires authentication and the
    /// other does not, each pair once.
    package static func sensitivePairs(_ confusions: [Confusion], app: AppDescription) -> [SensitivePair] {
        func sensitive(_ identifier: String?) -> Bool {
            identifier.flatMap { app.intent($0) }.map { $0.authenticationPolicy != .alwaysAllowed } ?? false
        }
        var pairs: [SensitivePair] = []
        for confusion in confusions where confusion.kind == .phrases {
            guard let a = confusion.first.intent, let b = confusion.second.intent, a != b else { continue }
            let pair: SensitivePair
            switch (sensitive(a), sensitive(b)) {
            case (true, false):
                pair = SensitivePair(
                    sensitive: a, soundAlike: b, phrases: (confusion.first.text, confusion.second.text))
            case (false, true):
                pair = SensitivePair(
                    sensitive: b, soundAlike: a, phrases: (confusion.second.text, confusion.first.text))
            default: continue
            }
            if !pairs.contains(pair) { pairs.append(pair) }
        }
        return pairs
    }

    /// The sensitive pairs of `context`'s app, checked with the pronunciations of `recognizer`
    /// (one that has the app's command grammar loaded, as `listen`'s has; it may be left with
    /// another grammar in use), or of a recognizer loaded for the check; none, and nothing
    /// loaded, when no intent of the app requires authentication.
    package static func sensitivePairs(
        _ context: AppContext, matcher: PhraseMatcher, recognizer: SpeechRecognizer? = nil
    ) throws -> [SensitivePair] {
        guard context.description.intents.contains(where: { $0.authenticationPolicy != .alwaysAllowed })
        else {
            return []
        }
        let checker: SpeechRecognizer
        if let recognizer {
            checker = recognizer
        } else {
            checker = try SpeechRecognizer(.installed())
            try checker.useGrammar(SpeechGrammar(matcher.spokenForms, name: context.executableName))
        }
        return sensitivePairs(
            try confusions(matcher.spokenForms, recognizer: checker), app: context.description)
    }
}
