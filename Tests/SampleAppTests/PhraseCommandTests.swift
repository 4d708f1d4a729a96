import Foundation
import Testing

/// The phrase commands as a user runs them: `match` output kept as golden files, `test` and
/// `lint` over the sample apps, and clear errors for bad input.
///
/// Golden files live in `Tests/SampleAppTests/Golden/`; run with `RECORD_GOLDEN=1` to write them
/// anew after an intended change, and read the difference before committing it.
@Suite("Phrase commands")
struct PhraseCommandTests {
    let executables = ExecutableTests()
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Golden")

    func expectGolden(_ name: String, _ output: String) throws {
        let file = Self.golden.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["RECORD_GOLDEN"] != nil {
            try output.write(to: file, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: file, encoding: .utf8)
        #expect(output == expected, "\(name) differs from its golden file; RECORD_GOLDEN=1 re-records it")
    }

    @Test(arguments: [
        ("travel-tracking", "find two tickets for machu pichu in travel tracking", "match-tickets.txt"),
        ("travel-tracking", "uh navigate to the Map in TravelTracking please", "match-navigate.txt"),
        ("travel-tracking", "find tickets for the louvre with travel tracking", "match-unknown-value.txt"),
        ("travel-tracking", "what's the weather like", "match-none.txt"),
        ("travel-tracking", "don't navigate in travel tracking", "match-negative.txt"),
        ("library", "add the road by jack london to my library", "match-add-book.txt"),
    ])
    func matchText(_ app: String, _ sentence: String, _ golden: String) throws {
        let result = try executables.run("voice-intents", ["match", "--app", app, sentence])
        try expectGolden(golden, result.output)
        #expect(result.status == (golden == "match-none.txt" || golden == "match-negative.txt" ? 1 : 0))
    }

    @Test func matchTakesWhatTheDeviceKnowsFromContext() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "context-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("en"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try """
        intents:
          TurnOnAreaLightsIntent:
            - { say: "turn on the lights here", set: { area: $area } }
        """.write(to: folder.appendingPathComponent("en/smart-home.yaml"), atomically: true, encoding: .utf8)
        let arguments = ["match", "--app", "smart-home", "--phrases", folder.path]
        let here = try executables.run(
            "voice-intents", arguments + ["--context", "area=Kitchen", "turn on the lights here"])
        #expect(here.output.hasPrefix("TurnOnAreaLightsIntent  score 1.00"), "\(here.output)")
        #expect(here.output.contains("area = Kitchen"), "\(here.output)")
        let nowhere = try executables.run("voice-intents", arguments + ["turn on the lights here"])
        #expect(nowhere.output.contains("partial"), "\(nowhere.output)")
        let malformed = try executables.run(
            "voice-intents", arguments + ["--context", "Kitchen", "turn on the lights here"])
        #expect(malformed.status != 0)
        #expect(
            malformed.errors.contains("--context takes key=value (area=Kitchen), not \"Kitchen\""),
            "\(malformed.errors)")
    }

    @Test func matchJSON() throws {
        let result = try executables.run("voice-intents", ["match", "--json", "how busy is kyoto"])
        try expectGolden("match-crowd.json", result.output)
        let decoded = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
        #expect((decoded?["match"] as? [String: Any])?["intent"] as? String == "GetCrowdStatusIntent")
    }

    @Test func appExecutablesOfferTheSameCommands() throws {
        let result = try executables.run("library", ["match", "open the want to read shelf in my library"])
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("OpenShelf  score"))
        #expect(result.output.contains("shelf = Want to Read"))
    }

    @Test func testCommandEndsWithTheCounts() throws {
        let result = try executables.run("voice-intents", ["test"])
        #expect(result.status == 0)
        let last = result.output.split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.range(of: #"^\d+ passed, 0 failed$"#, options: .regularExpression) != nil, "\(last)")
    }

    @Test func testCommandTimesAnyAppsMatcher() throws {
        let result = try executables.run("library", ["test", "--timing"])
        #expect(result.status == 0)
        let line = result.output.split(separator: "\n").first { $0.hasPrefix("timing library:") } ?? ""
        let pattern =
            #"^timing library: compiled \d+ phrases in [0-9.]+ ms; per test sentence p50 [0-9.]+ µs, p99 [0-9.]+ µs \((\d+) sentences\)"#
        let match = line.firstMatch(of: try Regex(pattern))
        #expect(match != nil, "\(result.output.suffix(400))")
        // Every sentence of its own file and of the shared out-of-domain file is timed.
        let counts = result.output.split(separator: "\n").last.map(String.init) ?? ""
        #expect(counts.hasSuffix(" 0 failed"))
        if let timed = match?.output[1].substring, let passed = Int(counts.split(separator: " ")[0]) {
            #expect(Int(timed) == passed)
        }
    }

    /// An app built as an executable of another name than its own ("my-books" for Library) finds
    /// the catalog named after the executable, or else the one named after the app.
    @Test func anAppFindsTheCatalogNamedAfterItsExecutable() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "named-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let phrases = folder.appendingPathComponent("Phrases/en")
        try FileManager.default.createDirectory(at: phrases, withIntermediateDirectories: true)
        let executable = folder.appendingPathComponent("my-books")
        // Copied by cp, not by this process: a write handle of ours could be inherited by a child
        // that another test forks meanwhile, and running the copy would then fail ("Text file busy").
        let copied = try executables.run(
            URL(fileURLWithPath: "/bin/cp"), [try executables.product("library").path, executable.path])
        try #require(copied.status == 0, "\(copied.errors)")
        let environment = ["VOICE_INTENTS_PHRASES": phrases.deletingLastPathComponent().path]
        let sentence = "put the shelf want to read up on the wall"

        try #"intents: { OpenShelf: ["put the shelf ${shelf} up on the wall"] }"#.write(
            to: phrases.appendingPathComponent("library.yaml"), atomically: true, encoding: .utf8)
        let byAppName = try executables.run(executable, ["match", sentence], environment: environment)
        #expect(
            byAppName.output.contains("/Phrases/en/library.yaml:1:"), "\(byAppName.output)\(byAppName.errors)"
        )

        try #"intents: { OpenShelf: ["put the shelf ${shelf} up on the wall"] }"#.write(
            to: phrases.appendingPathComponent("my-books.yaml"), atomically: true, encoding: .utf8)
        let byExecutable = try executables.run(executable, ["match", sentence], environment: environment)
        #expect(byExecutable.output.contains("/Phrases/en/my-books.yaml:1:"), "\(byExecutable.output)")
    }

    @Test func testCommandFailsOnAFailingFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "phrase-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("wrong.yaml")
        try """
        tests:
          - say: navigate to the map in travel tracking
            intent: FindTicketsIntent
          - say: navigate to the map in travel tracking
            intent: NavigateIntent
            values: { navigationOption: Map }
        """.write(to: file, atomically: true, encoding: .utf8)
        let result = try executables.run("travel-tracking", ["test", file.path])
        #expect(result.status == 1)
        #expect(
            result.output.contains(
                "wrong.yaml:2:5: error: \"navigate to the map in travel tracking\": expected FindTicketsIntent(), got NavigateIntent(navigationOption: Map) score 1.00"
            ))
        #expect(result.output.hasSuffix("1 passed, 1 failed\n"))
    }

    @Test func lintIsCleanForTheSamples() throws {
        let result = try executables.run("voice-intents", ["lint", "--strict"])
        #expect(result.status == 0)
        // Every word the sample apps' grammars use is in Models/en/lexicon.dict or cmudict, so no
        // pronunciation is guessed (the test of the lexicon's absence is in VoiceRecognitionTests).
        #expect(result.output == "0 errors, 0 warnings\n")
    }

    /// `lint --acoustic` adds what sounds alike; its findings on the samples are kept as a golden
    /// file (three in Library: "add" / "read" a book, "buy" / "put" a book, the shelves "to read" /
    /// "read"; "lock" / "unlock" in SmartHome, which the runtime confirms; none in
    /// TravelTracking), and they are warnings: `--strict` fails on them.
    @Test func acousticLintFindsWhatSoundsAlike() throws {
        let result = try executables.run("voice-intents", ["lint", "--acoustic"])
        #expect(result.status == 0)
        try expectGolden("lint-acoustic.txt", result.output)
        #expect(result.output.hasSuffix("0 errors, 4 warnings\n"))

        let strict = try executables.run(
            "voice-intents", ["lint", "--acoustic", "--strict", "--app", "library"])
        #expect(strict.status == 1)
        let travel = try executables.run("travel-tracking", ["lint", "--acoustic", "--strict"])
        #expect(travel.status == 0)
        #expect(travel.output == "0 errors, 0 warnings\n")

        // A wider threshold finds more, each with its distance.
        let wide = try executables.run(
            "library", ["lint", "--acoustic", "--max-phone-distance", "3", "--max-phone-ratio", "1"])
        #expect(wide.output.contains("\"read\" (R EH D) vs \"buy\" (B AY), phone distance 2.5 in 3 phones"))
        #expect(wide.output.split(separator: "\n").count > 4)
    }

    @Test func badInputGetsAClearError() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "phrase-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("en"), withIntermediateDirectories: true)
        try "intents:\n  NavigateIntent:\n    - \"go to [the ${navigationOption}\"\n"
            .write(
                to: folder.appendingPathComponent("en/travel-tracking.yaml"), atomically: true,
                encoding: .utf8)
        let malformed = try executables.run(
            "travel-tracking", ["match", "--phrases", folder.path, "navigate to map"])
        #expect(malformed.status == 1)
        #expect(
            malformed.errors.contains(
                "en/travel-tracking.yaml:3:38: error: expected \"]\", found the end of the phrase"))

        let locale = try executables.run("travel-tracking", ["match", "--locale", "xx", "navigate to map"])
        #expect(locale.status == 1)
        #expect(locale.errors.contains("error: no phrases for locale \"xx\"; there are: en"))

        let app = try executables.run("voice-intents", ["match", "--app", "weather", "hello"])
        #expect(app.errors.contains("error: no app \"weather\"; there are: travel-tracking, library"))
    }
}
