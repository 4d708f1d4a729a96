import Foundation
import HomeLights
import Library
import PhraseMatching
import SmartHome
import Speech
import Testing
import TravelTracking
import VoiceIntents

/// The generated grammar and the pronunciations of each sample app are kept in Models/en/ so
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

    @Test(arguments: ["travel-tracking", "library", "smart-home", "home-lights"])
    func grammarAndPronunciationsAreCurrent(_ file: String) async throws {
        let matcher =
            switch file {
            case "library": try await Self.matcher(LibraryApp.self, file)
            case "smart-home": try await Self.matcher(SmartHomeApp.self, file)
            case "home-lights": try await Self.matcher(HomeLightsApp.self, file)
            default: try await Self.matcher(TravelTrackingApp.self, file)
            }
        let grammar = SpeechGrammar(matcher.spokenForms, name: file)
        try expectCurrent("\(file).gram", grammar.jsgf)
        let recognizer = try SpeechRecognizer(Self.configuration())
        try recognizer.useGrammar(grammar)
        try expectCurrent("\(file).dict", recognizer.loadedPronunciations)
        // Every word of the sample apps is in the lexicon or cmudict: none is guessed.
        #expect(
            recognizer.guessedWords.isEmpty, "add these to Models/en/lexicon.dict: \(recognizer.guessedWords)"
        )
    }

    static func configuration() throws -> SpeechRecognizer.Configuration {
        try SpeechRecognizer.Configuration(manifest: models.appendingPathComponent("manifest.yaml"))
    }

    /// The manifest's configuration without the audio front end: for the tests of the grammar's
    /// mechanics, which hear eSpeak NG's clean clips whole (`recognize`). The denoiser starts
    /// each whole clip knowing no noise, and on those clips it costs words (the phrase suites'
    /// round trip: 79% word for word without it, 70% with it); what it is for, people in
    /// noise, is tested on people's recordings (`AudioFrontEndTests`).
    static func grammarConfiguration() throws -> SpeechRecognizer.Configuration {
        var configuration = try configuration()
        configuration.frontEnd = nil
        return configuration
    }

    @Test func theManifestNamesTheModelsTheRecognizerUsesForEnglish() throws {
        let configuration = try Self.configuration()
        let builtIn = SpeechRecognizer.Configuration.englishUS
        #expect(configuration.acousticModel == builtIn.acousticModel)
        #expect(configuration.dictionary == builtIn.dictionary)
        #expect(configuration.languageModel == builtIn.languageModel)
        #expect(configuration.arguments == builtIn.arguments)
        #expect(configuration.trailingSilence == builtIn.trailingSilence)
        #expect(configuration.maximumSilence == builtIn.maximumSilence)
        #expect(configuration.frontEnd == builtIn.frontEnd)
        #expect(configuration.minimumConfidence == builtIn.minimumConfidence)
        #expect(configuration.package == "pocketsphinx-en-us")
        #expect(configuration.lexicon == Self.models.appendingPathComponent("lexicon.dict").path)
    }

    /// The lexicon is read by the recognizer; every phone must be one the acoustic model has.
    @Test func theLexiconUsesTheModelsPhones() throws {
        let phones = Set(
            """
            AA AE AH AO AW AY B CH D DH EH ER EY F G HH IH IY JH K L M N NG OW OY P R S SH T TH UH UW V W \
            Y Z ZH
            """.split(whereSeparator: \.isWhitespace).map(String.init))
        let lines = try String(
            contentsOf: Self.models.appendingPathComponent("lexicon.dict"), encoding: .utf8
        )
        .split(separator: "\n").filter { !$0.hasPrefix(";;;") }
        #expect(lines.count > 30)
        for line in lines {
            let fields = line.split(separator: " ").map(String.init)
            #expect(fields.count >= 2, "\(line)")
            #expect(Set(fields.dropFirst()).isSubset(of: phones), "\(line)")
        }
    }

    @Test func aMalformedManifestIsNamedWithWhatIsWrong() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("manifest-\(UUID()).yaml")
        try "locale: en\npackage: x\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect {
            try SpeechRecognizer.Configuration(manifest: file)
        } throws: { error in
            "\(error)".contains(file.path) && "\(error)".contains("acousticModel")
        }
    }
}
