import ArgumentParser
import Foundation
import VoiceIntents

/// `run`: the typed session, printing the answers (`listen --text` also speaks them).
struct RunCommand<Apps: AppSet>: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "run",
            abstract: "Read commands typed (or piped) on standard input and answer them.")
    }

    @OptionGroup var selection: AppSelection<Apps>

    @OptionGroup var options: AppOptions
    @OptionGroup var phraseOptions: PhraseOptions

    @Flag(help: "Answer as with no screen: full dialogs only, no snippets.")
    var voiceOnly = false

    func run() async throws {
        try await reportingFailures {
            let context = try selection.context()
            let logger = options.logger(for: context)
            try context.validate(logger: logger)
            let output = TextSink.standardOutput
            let read: @Sendable () -> String? = { Swift.readLine() }
            let session = TextSession(
                description: context.description,
                matcher: try await context.matcher(phraseOptions.location),
                runner: IntentRunner(
                    conversation: TerminalConversation(output: output, readLine: read),
                    dependencies: context.dependencies, hasScreen: !voiceOnly),
                output: output, readLine: read, voiceOnly: voiceOnly, logger: logger)
            _ = await session.run()
        }
    }
}

/// `perform`: run one intent by name with parameter values.
struct PerformCommand<Apps: AppSet>: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "perform",
            abstract: "Run one intent with the given parameter values; questions are asked on the terminal.",
            discussion: "Example: perform NavigateIntent navigationOption=map")
    }

    @OptionGroup var selection: AppSelection<Apps>

    @OptionGroup var options: AppOptions

    @Argument(help: "The intent's identifier, as `shortcuts` lists it.")
    var intent: String

    @Argument(help: "Parameter values as name=words.")
    var values: [String] = []

    @Flag(help: "Answer as with no screen: full dialogs only, no snippets.")
    var voiceOnly = false

    func run() async throws {
        let context = try selection.context()
        try context.validate(logger: options.logger(for: context))
        let description = context.description
        guard let definition = description.intent(intent) else {
            let known = description.intents.map(\.identifier).joined(separator: ", ")
            throw ValidationError("no intent '\(intent)'; the app has: \(known)")
        }
        var parameters: [String: any Sendable] = [:]
        for value in values {
            let pair = value.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2 else { throw ValidationError("'\(value)' is not name=value") }
            guard definition.parameters.contains(where: { $0.name == pair[0] }) else {
                let names = definition.parameters.map(\.name).joined(separator: ", ")
                throw ValidationError("\(intent) has no parameter '\(pair[0])'; it has: \(names)")
            }
            parameters[pair[0]] = pair[1]
        }
        let output = TextSink.standardOutput
        let runner = IntentRunner(
            conversation: TerminalConversation(output: output, readLine: { Swift.readLine() }),
            dependencies: context.dependencies, hasScreen: !voiceOnly)
        let outcome = await runner.run(definition.type, parameters: parameters)
        for step in outcome.chain {
            if !voiceOnly, let snippet = step.snippetText { print(snippet) }
            if let spoken = step.spokenText(voiceOnly: voiceOnly) { print(spoken) }
        }
        if outcome.status == .failed { throw ExitCode.failure }
    }
}

/// `shortcuts`: list shortcuts, phrases, intents and parameters.
struct ShortcutsCommand<Apps: AppSet>: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "shortcuts", abstract: "List the app's shortcuts, phrases and intent parameters.")
    }

    @OptionGroup var selection: AppSelection<Apps>

    @OptionGroup var options: AppOptions

    func run() async throws {
        let context = try selection.context()
        try context.validate(logger: options.logger(for: context))
        let description = context.description
        var text = ShortcutListing.text(for: description) + "\nIntents:\n"
        for intent in description.intents {
            text +=
                "  \(intent.identifier) \"\(intent.title)\" modes: \(ModeText.describe(intent.supportedModes))\n"
            for parameter in intent.parameters {
                text += "    \(parameter)\n"
            }
        }
        print(text, terminator: "")
    }
}

/// `validate`: check the declaration, print every diagnostic, fail on errors.
struct ValidateCommand<Apps: AppSet>: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "validate",
            abstract: "Check the app's declaration: placeholders, enum cases, identifiers, app names.",
            discussion: """
                Also warns of an intent whose phrases sound like those of an intent that requires \
                authentication (its authenticationPolicy): by voice, both are confirmed before they run.
                """)
    }

    @OptionGroup var selection: AppSelection<Apps>

    @OptionGroup var phraseOptions: PhraseOptions

    func run() async throws {
        try await reportingFailures {
            let context = try selection.context()
            var diagnostics = context.description.validate()
            if !diagnostics.contains(where: { $0.severity == .error }) {
                let pairs = try SoundAlikes.sensitivePairs(
                    context, matcher: try await context.matcher(phraseOptions.location))
                diagnostics += pairs.map { AppDiagnostic(.warning, $0.warning) }
            }
            for diagnostic in diagnostics { print(diagnostic) }
            let errors = diagnostics.count { $0.severity == .error }
            print("\(errors) errors, \(diagnostics.count - errors) warnings")
            if errors > 0 { throw ExitCode.failure }
        }
    }
}

enum ModeText {
    static func describe(_ modes: IntentModes) -> String {
        var names: [String] = []
        if modes.contains(.background) { names.append("background") }
        if modes.contains(.foreground) { names.append("foreground") }
        if modes.contains(.foreground(.dynamic)) { names.append("foreground(dynamic)") }
        if modes.contains(.foreground(.deferred)) { names.append("foreground(deferred)") }
        return names.joined(separator: ", ")
    }
}
