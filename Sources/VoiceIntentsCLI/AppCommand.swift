import ArgumentParser
import Foundation
import Logging
import VoiceIntents

/// The root command of an app executable.
struct AppCommand<App: VoiceApp>: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: AppContext.fileName(for: App.name),
            abstract: "\(App.name): commands by voice or keyboard.",
            subcommands: subcommands,
            defaultSubcommand: RunCommand<SingleApp<App>>.self)
    }

    private static var subcommands: [any ParsableCommand.Type] {
        typealias One = SingleApp<App>
        var commands: [any ParsableCommand.Type] = [
            RunCommand<One>.self, PerformCommand<One>.self, MatchCommand<One>.self, TestCommand<One>.self,
            LintCommand<One>.self, TranscribeCommand<One>.self, SayCommand<One>.self,
            GrammarCommand<One>.self,
            ListenCommand<One>.self,
        ]
        #if Evaluation
            commands += [EvaluateCommand<One>.self, CalibrateCommand<One>.self, AdaptCommand<One>.self]
        #endif
        return commands + [
            RecordCommand<One>.self, ServeCommand<One>.self, ShortcutsCommand<One>.self,
            ValidateCommand<One>.self,
        ]
    }
}

/// The logging every command shares.
struct AppOptions: ParsableArguments {
    @Flag(name: .shortAndLong, help: "Log every turn: transcript, match, parameters and timing.")
    var verbose = false

    /// swift-log to standard error (once per process), at debug level with `--verbose`.
    func logger(for context: AppContext) -> Logger {
        LoggingSetup.bootstrap()
        var logger = Logger(label: context.executableName)
        logger.logLevel = verbose ? .debug : .info
        return logger
    }
}

enum LoggingSetup {
    private static let once: Void = {
        LoggingSystem.bootstrap { StreamLogHandler.standardError(label: $0) }
    }()

    static func bootstrap() {
        _ = once
    }
}
