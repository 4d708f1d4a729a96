import Foundation
import Logging
import PhraseMatching
import VoiceIntents
import VoiceRecognition
import VoiceUnderstanding

/// One app as the commands see it: its declaration, its file name, and its phrase catalog.
public struct AppContext: Sendable {
    /// The executable's name, also the name of its phrase files and calibration:
    /// `travel-tracking`. Without an executable of its own, the app's name made into a file name.
    public let executableName: String
    public let description: AppDescription
    /// Where the app's dependencies are registered.
    public let dependencies: AppDependencyManager
    /// The file name made from the app's name ("Travel Tracking" → `travel-tracking`): its phrase
    /// files go by it when none go by ``executableName``.
    let nameAsFileName: String

    /// Registers `App`'s dependencies (its `init()`) and reads its declaration.
    ///
    /// - Parameter executableName: The name of the app's own executable (`my-app`), when it runs
    ///   as one; `nil`: the app's name made into a file name (`VoiceApp.name` "Travel Tracking" →
    ///   `travel-tracking`).
    public init<App: VoiceApp>(_ app: App.Type, executableName: String? = nil) {
        _ = App()
        nameAsFileName = Self.fileName(for: App.name)
        self.executableName = executableName ?? nameAsFileName
        self.description = AppDescription(App.self)
        self.dependencies = .shared
    }

    /// The name the app's phrase files have in `phrases`: ``executableName``, or the app's name
    /// made into a file name when only that names a catalog or a test file there.
    package func phraseFileName(_ phrases: PhraseLocation) -> String {
        guard nameAsFileName != executableName, let folder = phrases.folder else { return executableName }
        let locale = folder.appendingPathComponent(phrases.locale)
        func hasFiles(_ name: String) -> Bool {
            [
                locale.appendingPathComponent("\(name).yaml"),
                locale.appendingPathComponent("tests/\(name).yaml"),
            ]
            .contains { FileManager.default.fileExists(atPath: $0.path) }
        }
        return !hasFiles(executableName) && hasFiles(nameAsFileName) ? nameAsFileName : executableName
    }

    /// `travel-tracking` for "Travel Tracking".
    package static func fileName(for name: String) -> String {
        name.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).joined(separator: "-")
    }

    /// Checks the declaration: warnings are logged, errors stop the program with a message that
    /// names what is wrong.
    public func validate(logger: Logger) throws {
        do {
            for warning in try description.validated() {
                logger.warning("\(warning.message)")
            }
        } catch let error as AppValidationError {
            throw VoiceLoopError("\(description.name): \(error)")
        }
    }

    /// The app's catalog for `locale` in `folder` (empty when the folder has no file for it).
    public func catalog(_ phrases: PhraseLocation) throws -> PhraseCatalog {
        guard let folder = phrases.folder else { return PhraseCatalog() }
        return try PhraseCatalog.load(app: phraseFileName(phrases), locale: phrases.locale, in: folder)
    }

    /// The matcher over the app's Swift phrases and its catalog.
    public func matcher(_ phrases: PhraseLocation) async throws -> PhraseMatcher {
        // The entity queries that give the names the app knows may read any dependency.
        try await dependencies.makeAsynchronous()
        return try await AppDependencyManager.$current.withValue(dependencies) {
            try await PhraseMatcher(app: description, catalog: try catalog(phrases))
        }
    }

    /// The app's phrase test files in `folder/locale/tests/`: its own (``ownTestFile(_:)``), then
    /// the ones every app shares (``sharedTestFiles(_:)``).
    package func testFiles(_ phrases: PhraseLocation) -> [URL] {
        (ownTestFile(phrases).map { [$0] } ?? []) + sharedTestFiles(phrases)
    }

    /// `folder/locale/tests/<app>.yaml`, when there is one.
    package func ownTestFile(_ phrases: PhraseLocation) -> URL? {
        Self.existingTestFile(phraseFileName(phrases), phrases)
    }

    /// The names of the test files in `folder/locale/tests/` that every app runs after its own:
    /// `out-of-domain`, speech that is a command for no app.
    package static let sharedTestFileNames = ["out-of-domain"]

    /// The test files every app shares that exist (``sharedTestFileNames``).
    package func sharedTestFiles(_ phrases: PhraseLocation) -> [URL] {
        Self.sharedTestFileNames.compactMap { Self.existingTestFile($0, phrases) }
    }

    private static func existingTestFile(_ name: String, _ phrases: PhraseLocation) -> URL? {
        guard let folder = phrases.folder else { return nil }
        let file = folder.appendingPathComponent(phrases.locale).appendingPathComponent("tests")
            .appendingPathComponent("\(name).yaml")
        return FileManager.default.fileExists(atPath: file.path) ? file : nil
    }
}

/// Where the phrase catalogs are, and which locale to read.
public struct PhraseLocation: Sendable {
    /// The `Phrases` folder, or `nil` when none was found (only Swift phrases are used then).
    public let folder: URL?
    public let locale: String

    /// The folder given, or `$VOICE_INTENTS_PHRASES`, or the first `Phrases` folder found going
    /// up from the current directory, then from the executable's.
    public static func find(explicit: String?, locale: String) -> PhraseLocation {
        if let explicit { return PhraseLocation(folder: URL(fileURLWithPath: explicit), locale: locale) }
        if let variable = ProcessInfo.processInfo.environment["VOICE_INTENTS_PHRASES"] {
            return PhraseLocation(folder: URL(fileURLWithPath: variable), locale: locale)
        }
        let starts = [
            URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
            URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
                .deletingLastPathComponent(),
        ]
        for start in starts {
            var folder = start
            while folder.path != "/" {
                let candidate = folder.appendingPathComponent("Phrases")
                var isFolder: ObjCBool = false
                if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isFolder),
                    isFolder.boolValue
                {
                    return PhraseLocation(folder: candidate, locale: locale)
                }
                folder.deleteLastPathComponent()
            }
        }
        return PhraseLocation(folder: nil, locale: locale)
    }
}

extension AppContext {
    /// The recognizer grammar of the app's phrases and values. With `joinsCommands`, a command
    /// may be followed by "and", "and then" or "then" and another
    /// (``VoiceLoop/Configuration/joinsCommands``).
    public func grammar(
        _ phrases: PhraseLocation, wakePhrase: String? = nil, garbage: GarbageModel? = nil,
        joinsCommands: Bool = false
    ) async throws -> SpeechGrammar {
        grammar(
            of: try await matcher(phrases), wakePhrase: wakePhrase, garbage: garbage,
            joinsCommands: joinsCommands)
    }

    /// The same, from a matcher made already.
    public func grammar(
        of matcher: PhraseMatcher, wakePhrase: String? = nil, garbage: GarbageModel? = nil,
        joinsCommands: Bool = false
    ) -> SpeechGrammar {
        grammar(
            of: matcher, wakePhrase: wakePhrase, garbage: garbage, joinsCommands: joinsCommands,
            freeText: nil)
    }

    /// The same, its free-text slots heard as a loop of `freeText` words (beside their
    /// suggestions, where they have some); `nil` leaves those without suggestions out.
    package func grammar(
        of matcher: PhraseMatcher, wakePhrase: String? = nil, garbage: GarbageModel? = nil,
        joinsCommands: Bool = false, freeText: FreeTextWords?
    ) -> SpeechGrammar {
        SpeechGrammar(
            matcher.spokenForms, name: executableName, wakePhrase: wakePhrase, garbage: garbage,
            joinsCommands: joinsCommands, freeText: freeText)
    }
}
