import ArgumentParser

/// The `voice-intents` tool: the same commands as an app's executable, for several apps.
public struct VoiceIntentsCommand<Apps: AppSet>: AsyncParsableCommand {
    public static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "voice-intents",
            abstract: "Test, lint and run the phrases of voice-driven apps.",
            discussion:
                "Apps: \(Apps.appNames.joined(separator: ", ")). Each app's own executable offers the same commands.",
            subcommands: subcommands)
    }

    private static var subcommands: [any ParsableCommand.Type] {
        var commands: [any ParsableCommand.Type] = [
            MatchCommand<Apps>.self, TestCommand<Apps>.self, LintCommand<Apps>.self,
            TranscribeCommand<Apps>.self, SayCommand<Apps>.self, GrammarCommand<Apps>.self,
            DecoysCommand<Apps>.self, ListenCommand<Apps>.self,
        ]
        #if Evaluation
            commands += [EvaluateCommand<Apps>.self, CalibrateCommand<Apps>.self, AdaptCommand<Apps>.self]
        #endif
        return commands + [
            RecordCommand<Apps>.self, ServeCommand<Apps>.self, RunCommand<Apps>.self,
            PerformCommand<Apps>.self, ShortcutsCommand<Apps>.self, ValidateCommand<Apps>.self,
        ]
    }

    public init() {}
}

extension AppSet {
    /// Runs the `voice-intents` command line over these apps.
    ///
    /// ```swift
    /// enum MyApps: AppSet { static var apps: [AppContext] { [AppContext(MyApp.self)] } }
    /// await MyApps.main()
    /// ```
    public static func main() async {
        await VoiceIntentsCommand<Self>.main()
    }
}
