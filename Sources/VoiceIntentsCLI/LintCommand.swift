import ArgumentParser
import Foundation
import PhraseMatching
import Speech
import VoiceIntents

/// `lint`: check the app's phrases without audio.
struct LintCommand<Apps: AppSet>: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "lint",
            abstract:
                "Check phrases: app name, unspeakable placeholders, duplicates, collisions, phrases that never win.",
            discussion:
                "Prints file:line:column diagnostics; exits non-zero on errors, or on warnings with --strict."
        )
    }

    @OptionGroup var selection: AppSelection<Apps>

    @OptionGroup var phraseOptions: PhraseOptions

    @Flag(help: "Fail on warnings too.")
    var strict = false

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
                try recognizer.useGrammar(SpeechGrammar(matcher.spokenForms, name: context.executableName))
                for (word, phones) in recognizer.guessedWords.sorted(by: { $0.key < $1.key }) {
                    print(
                        "\(context.executableName): note: pronunciation of \"\(word)\" guessed from eSpeak NG: \(phones)"
                    )
                }
            }
            print("\(errors) errors, \(warnings) warnings")
            if errors > 0 || (strict && warnings > 0) { throw ExitCode(1) }
        }
    }
}
