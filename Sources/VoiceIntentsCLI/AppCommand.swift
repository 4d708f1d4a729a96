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
            subcommands: [
                RunCommand<SingleApp<App>>.self, PerformCommand<SingleApp<App>>.self,
                MatchCommand<SingleApp<App>>.self, TestCommand<SingleApp<App>>.self,
                LintCommand<SingleApp<App>>.self, TranscribeCommand<SingleApp<App>>.self,
                SayCommand<SingleApp<App>>.self, GrammarCommand<SingleApp<App>>.self,
                ListenCommand<SingleApp<App>>.self, EvaluateCommand<SingleApp<App>>.self,
                CalibrateCommand<SingleApp<App>>.self, RecordCommand<SingleApp<App>>.self,
                ServeCommand<SingleApp<App>>.self,
                ShortcutsCommand<SingleApp<App>>.self,
                ValidateCommand<SingleApp<App>>.self,
            ],
            defaultSubcommand: RunCommand<SingleApp<App>>.self)
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
