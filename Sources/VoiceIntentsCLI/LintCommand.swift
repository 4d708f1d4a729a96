import ArgumentParser
import Foundation
import PhraseMatching
import VoiceIntents
import VoiceRecognition
import VoiceUnderstanding

/// `lint`: check the app's phrases without audio.
struct LintCommand<Apps: AppSet>: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "lint",
            abstract:
                "Check phrases: app name, unspeakable placeholders, duplicates, collisions, phrases that never win.",
            discussion: """
                Prints file:line:column diagnostics; exits non-zero on errors, or on warnings with --strict. \
                With --acoustic, also warns of values of one type, and phrases of different intents, that \
                sound alike: their pronunciations (CMU phones) are at most --max-phone-distance apart, and \
                at most --max-phone-ratio of the phones of the words that differ do.
                """
        )
    }

    @OptionGroup var selection: AppSelection<Apps>

    @OptionGroup var phraseOptions: PhraseOptions

    @Flag(help: "Fail on warnings too.")
    var strict = false

    @Flag(help: "Also warn of values and phrases that sound alike (by phone edit distance).")
    var acoustic = false

    @Option(
        help: ArgumentHelp(
            "With --acoustic: the largest phone distance warned of (a whole phone substituted, inserted or deleted is 1; alike phones cost 0.25 or 0.5).",
            valueName: "phones"))
    var maxPhoneDistance = 2.0

    @Option(
        help: ArgumentHelp(
            "With --acoustic: the largest share of the differing words' phones that may differ.",
            valueName: "ratio"))
    var maxPhoneRatio = 0.6

    func run() async throws {
        try await reportingFailures {
            let contexts = try selection.contexts()
            var warnings = 0
            var errors = 0
            for context in contexts {
                for diagnostic in context.description.validate() {
                    print("\(context.executableName): \(diagnostic)")
                    if diagnostic.severity == .error { errors += 1 } else { warnings += 1 }
                }
                let matcher = try await context.matcher(phraseOptions.location)
                for diagnostic in await matcher.lint() {
                    print(diagnostic)
                    if diagnostic.severity == .error { errors += 1 } else { warnings += 1 }
                }
                // Words the recognizer's dictionary lacks: their pronunciations are guesses.
                let recognizer = try SpeechRecognizer(.installed())
                let forms = matcher.spokenForms
                try recognizer.useGrammar(SpeechGrammar(forms, name: context.executableName))
                for (word, phones) in recognizer.guessedWords.sorted(by: { $0.key < $1.key }) {
                    print(
                        "\(context.executableName): note: pronunciation of \"\(word)\" guessed from eSpeak NG: \(phones)"
                    )
                }
                if acoustic {
                    for confusion in try confusions(forms, recognizer: recognizer) {
                        print(confusion.diagnostic)
                        warnings += 1
                    }
                }
            }
            print("\(errors) errors, \(warnings) warnings")
            if errors > 0 || (strict && warnings > 0) { throw ExitCode(1) }
        }
    }

    func validate() throws {
        guard maxPhoneDistance >= 0, maxPhoneRatio >= 0 else {
            throw ValidationError("--max-phone-distance and --max-phone-ratio must be 0 or more")
        }
    }

    /// The values and phrases of `forms` that sound alike, with the pronunciations the recognizer
    /// uses.
    func confusions(_ forms: SpokenForms, recognizer: SpeechRecognizer) throws -> [Confusion] {
        try SoundAlikes.confusions(
            forms, recognizer: recognizer,
            check: ConfusabilityCheck(maximumDistance: maxPhoneDistance, maximumRatio: maxPhoneRatio))
    }
}
