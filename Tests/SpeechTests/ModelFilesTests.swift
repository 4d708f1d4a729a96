import Foundation
import Library
import PhraseMatching
import Speech
import Testing
import TravelTracking
import VoiceIntents

/// The generated grammar and guessed pronunciations of each sample app are kept in Models/en/ so
/// they can be read; this checks they are current. After an intended change, regenerate them with
/// `voice-intents grammar --app <app> -o Models/en` (or run this test with RECORD_GOLDEN=1).
@Suite("Model files", .serialized)
struct ModelFilesTests {
    static let models = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Models/en")

    static func matcher<App: VoiceApp>(_ app: App.Type, _ file: String) async throws -> PhraseMatcher {
        let dependencies = AppDependencyManager()
        if app == TravelTrackingApp.self { TravelTrackingApp.registerDependencies(in: dependencies) }
        if app == LibraryApp.self { LibraryApp.registerDependencies(in: dependencies) }
        return try await AppDependencyManager.$current.withValue(dependencies) {
            try await PhraseMatcher(
                app: AppDescription(app),
                catalog: try PhraseCatalog.load(
                    app: file, locale: "en",
                    in: models.deletingLastPathComponent().deletingLastPathComponent()
                        .appendingPathComponent("Phrases")))
        }
    }

    func expectCurrent(_ file: String, _ text: String) throws {
        let url = Self.models.appendingPathComponent(file)
        if ProcessInfo.processInfo.environment["RECORD_GOLDEN"] != nil {
            try text.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        let kept = try String(contentsOf: url, encoding: .utf8)
        #expect(
            kept == text,
            "Models/en/\(file) is out of date: regenerate it with voice-intents grammar -o Models/en")
    }

    @Test(arguments: ["travel-tracking", "library"])
    func grammarAndGuessedPronunciationsAreCurrent(_ file: String) async throws {
        let matcher =
            file == "library"
            ? try await Self.matcher(LibraryApp.self, file)
            : try await Self.matcher(TravelTrackingApp.self, file)
        let grammar = SpeechGrammar(matcher.spokenForms, name: file)
        try expectCurrent("\(file).gram", grammar.jsgf)
        let recognizer = try SpeechRecognizer()
        try recognizer.useGrammar(grammar)
        let dictionary = recognizer.guessedWords.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        try expectCurrent(
            "\(file).dict", dictionary.joined(separator: "\n") + (dictionary.isEmpty ? "" : "\n"))
    }
}
