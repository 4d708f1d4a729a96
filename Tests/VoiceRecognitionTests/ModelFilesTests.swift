import Foundation
import PhraseMatching
import Testing
import VoiceIntents
import VoiceRecognition
import VoiceTestSupport
import VoiceUnderstanding

/// The generated grammar and the pronunciations of each sample app are kept in Models/en/ so
/// they can be read; this checks they are current. After an intended change, regenerate them with
/// `voice-intents grammar --app <app> -o Models/en` (or run this test with RECORD_GOLDEN=1).
@Suite("Model files", .serialized)
struct ModelFilesTests {

    func expectCurrent(_ file: String, _ text: String) throws {
        let url = TestModels.models.appendingPathComponent(file)
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
        let matcher = try await TestModels.matcher(sample: file)
        let grammar = SpeechGrammar(matcher.spokenForms, name: file)
        try expectCurrent("\(file).gram", grammar.jsgf)
        let recognizer = try SpeechRecognizer(TestModels.configuration())
        try recognizer.useGrammar(grammar)
        try expectCurrent("\(file).dict", recognizer.loadedPronunciations)
        // Every word of the sample apps is in the lexicon or cmudict: none is guessed.
        #expect(
            recognizer.guessedWords.isEmpty, "add these to Models/en/lexicon.dict: \(recognizer.guessedWords)"
        )
    }

    @Test func theManifestNamesTheModelsTheRecognizerUsesForEnglish() throws {
        let configuration = try TestModels.configuration()
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
        #expect(configuration.lexicon == TestModels.models.appendingPathComponent("lexicon.dict").path)
    }

    /// The lexicon is read by the recognizer; every phone must be one the acoustic model has.
    @Test func theLexiconUsesTheModelsPhones() throws {
        let phones = Set(
            """
            AA AE AH AO AW AY B CH D DH EH ER EY F G HH IH IY JH K L M N NG OW OY P R S SH T TH UH UW V W \
            Y Z ZH
            """.split(whereSeparator: \.isWhitespace).map(String.init))
        let lines = try String(
            contentsOf: TestModels.models.appendingPathComponent("lexicon.dict"), encoding: .utf8
        )
        .split(separator: "\n").filter { !$0.hasPrefix(";;;") }
        #expect(lines.count > 30)
        for line in lines {
            let fields = line.split(separator: " ").map(String.init)
            #expect(fields.count >= 2, "\(line)")
            #expect(Set(fields.dropFirst()).isSubset(of: phones), "\(line)")
        }
    }

    /// An app that finds no models stops and says where it looked and what to set, rather than
    /// hearing without the lexicon and the settings: the tool run from a folder of its own, with
    /// no `Models` in it or above it; then with `VOICE_INTENTS_MODELS` naming a folder without them.
    @Test func anAppWithoutModelsSaysWhereItLooked() throws {
        let alone = FileManager.default.temporaryDirectory.appendingPathComponent("alone-\(UUID())")
        try FileManager.default.createDirectory(at: alone, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: alone) }
        let tool = alone.appendingPathComponent("voice-intents")
        // Copied by cp, not by this process: a write handle of ours could be inherited by a child
        // that another test forks meanwhile, and running the copy would then fail ("Text file busy").
        let copied = try Executables.run(
            command: "cp",
            [
                URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
                    .appendingPathComponent("voice-intents").path, tool.path,
            ], in: alone)
        try #require(copied.status == 0, "\(copied.errors)")
        let reading =
            "/usr/share/pocketsphinx/test/data/librivox/sense_and_sensibility_01_austen_64kb-0880.wav"
        func transcribe(_ environment: [String: String]) throws -> (status: Int32, errors: String) {
            let run = try Executables.run(
                command: tool.path, ["transcribe", "--dictation", reading], in: alone,
                environment: environment)
            return (run.status, run.errors)
        }
        var environment = ProcessInfo.processInfo.environment
        environment["VOICE_INTENTS_MODELS"] = nil
        // Unless this machine has them installed (Scripts/install-models.sh), where they are found.
        let installed = SpeechRecognizer.Configuration.modelFolders().suffix(2).contains {
            FileManager.default.fileExists(atPath: $0.appendingPathComponent("en/manifest.yaml").path)
        }
        if !installed {
            let none = try transcribe(environment)
            #expect(none.status != 0)
            #expect(
                none.errors.contains(
                    "no speech models for \"en\": no en/manifest.yaml in \(alone.path)/Models"))
            #expect(none.errors.contains("set VOICE_INTENTS_MODELS"), "\(none.errors)")
        }
        environment["VOICE_INTENTS_MODELS"] = alone.path
        let wrong = try transcribe(environment)
        #expect(wrong.status != 0)
        #expect(wrong.errors.contains("VOICE_INTENTS_MODELS is \(alone.path), which has no en/manifest.yaml"))
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
