import ArgumentParser
import Foundation
import Logging
import VoiceIntents

/// The root command of an app executable.
struct AppCommand<App: VoiceApp>: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: executableName,
            abstract: "\(App.name): commands by voice or keyboard.",
            discussion: """
                Type a command the way you would say it, for example "\(AppSession<App>.examplePhrase)".
                """,
            subcommands: [
                RunCommand<App>.self, PerformCommand<App>.self, ShortcutsCommand<App>.self,
                ValidateCommand<App>.self,
            ],
            defaultSubcommand: RunCommand<App>.self)
    }

    /// `travel-tracking` for "Travel Tracking".
    static var executableName: String {
        App.name.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber })
            .joined(separator: "-")
    }
}

/// What every command of an app shares: start-up, logging, validation.
struct AppOptions: ParsableArguments {
    @Flag(name: .shortAndLong, help: "Log every turn: transcript, match, parameters and timing.")
    var verbose = false
}

/// Starting an app: dependencies registered, declaration checked, logging set up.
enum AppSession<App: VoiceApp> {
    /// Registers the app's dependencies and checks its declaration; warnings are logged, errors
    /// stop the program with a message that names what is wrong.
    static func start(verbose: Bool) throws -> (AppDescription, Logger) {
        LoggingSetup.bootstrap(verbose: verbose)
        var logger = Logger(label: AppCommand<App>.executableName)
        logger.logLevel = verbose ? .debug : .info
        _ = App()
        let description = AppDescription(App.self)
        do {
            for warning in try description.validated() {
                logger.warning("\(warning.message)")
            }
        } catch let error as AppValidationError {
            FileHandle.standardError.write(Data("\(App.name): \(error)\n".utf8))
            throw ExitCode.failure
        }
        return (description, logger)
    }

    static var examplePhrase: String {
        let description = AppDescription(App.self)
        guard let phrase = description.shortcuts.first?.phrases.first else { return App.name }
        return PhraseText.example(of: phrase, appName: App.name)
    }
}

/// swift-log to standard error, once per process.
enum LoggingSetup {
    private static let once: Void = {
        LoggingSystem.bootstrap { StreamLogHandler.standardError(label: $0) }
    }()

    static func bootstrap(verbose: Bool) {
        _ = once
    }
}
