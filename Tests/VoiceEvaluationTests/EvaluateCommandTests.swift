import ArgumentParser
import Foundation
import Testing
import VoiceAudio
import VoiceEvaluation
import VoiceIntentsCLI
import VoiceRecognition
import VoiceTestSupport

/// The apps of the recordings test, for the `voice-intents` command line.
enum RoverApps: AppSet {
    static var apps: [AppContext] { [AppContext(RoverApp.self)] }
}

/// `evaluate` as a user runs it: the sample apps' phrase tests spoken and heard, and Debian's real
/// recordings through a manifest.
@Suite("evaluate", .serialized)
struct EvaluateCommandTests {
    static let testData = "/usr/share/pocketsphinx/test/data"
    static let asterisk = "/usr/share/asterisk/sounds/en_US_f_Allison/digits"

    /// The slice CI runs: both sample apps, one voice, clean, 150 of each app's tests spread
    /// evenly over its file, with floors a little below what they measure (2026-11-27:
    /// TravelTracking 88.4% of 121 commands, Library 77.4% of 115; all of them, 2026-11-23: 86.7%
    /// and 74.0%). Most of Library's misses are titles no catalogue suggests, which the grammar
    /// cannot say; the near misses at the end of each file are never heard right, because a
    /// grammar forces a value the app does not know onto one it does ("find six tickets for the
    /// louvre"). eSpeak NG's audio varies a little from process to process, hence the margin.
    /// False accepts (31–38%) are high until the recognizer can reject speech that is not a
    /// command; their ceiling only catches a change for the worse. Every test, in five voices, is
    /// the benchmark's run (`evaluate --app …`).
    @Test(arguments: [("travel-tracking", 85.0, 65.0), ("library", 73.0, 65.0)])
    func sampleAppsKeepTheirSpokenAccuracy(_ app: String, _ floor: Double, _ ceiling: Double) throws {
        let output = try temporaryFolder("evaluate-\(app)")
        defer { try? FileManager.default.removeItem(at: output) }
        let run = try Executables.run(
            "voice-intents",
            [
                "evaluate", "--app", app, "--voices", "en-us", "--snr", "clean", "--sample", "150",
                "--no-cache",
                "--output", output.path, "--min-acceptance", "\(floor)", "--max-false-accepts", "\(ceiling)",
            ])
        #expect(run.status == 0, "\(run.output)\(run.errors)")
        // The progress went to standard error, a line per tenth, with the time left.
        #expect(run.errors.contains("clips, 0:00 left"))
        let report = try JSONDecoder().decode(
            EvaluationReport.self, from: Data(contentsOf: output.appendingPathComponent("report.json")))
        #expect(report.voices == ["en-us"] && report.conditions == ["clean"])
        #expect(report.overall.commands > 100 && report.overall.noMatchClips > 20)
        // Speed is the benchmark's to measure; a busy machine must not fail this test.
        #expect(report.overall.realTimeFactor > 0)
        let markdown = try String(contentsOf: output.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(
            markdown.contains(
                "voice-intents evaluate --app \(app) --sample 150 --voices en-us --rates 175 --snr clean"))
        for file in ["accuracy.svg", "latency.svg", "clips.jsonl"] {
            #expect(
                FileManager.default.fileExists(atPath: output.appendingPathComponent(file).path), "\(file)")
        }
    }

    @Test func aFloorThatIsNotMetFailsTheRun() throws {
        let output = try temporaryFolder("evaluate-floor")
        defer { try? FileManager.default.removeItem(at: output) }
        let manifest = output.appendingPathComponent("tests.yaml")
        try """
        tests:
          - { say: "navigate to map in travel tracking", intent: NavigateIntent, values: { navigationOption: Map } }
          - { say: "play some jazz", intent: none }
        """.write(to: manifest, atomically: true, encoding: .utf8)
        let run = try Executables.run(
            "voice-intents",
            [
                "evaluate", "--app", "travel-tracking", "--tests", manifest.path, "--voices", "en-us",
                "--snr", "clean", "--output", output.path, "--min-acceptance", "100.5",
            ])
        #expect(run.status == 1)
        #expect(run.errors.contains("is below --min-acceptance 100.5%"), "\(run.errors)")

        // --sample takes tests spread over the file: one of two is the first.
        let sampled = try Executables.run(
            "voice-intents",
            [
                "evaluate", "--app", "travel-tracking", "--tests", manifest.path, "--sample", "1", "--voices",
                "en-us", "--snr", "clean", "--output", output.path,
            ])
        #expect(sampled.status == 0, "\(sampled.errors)")
        #expect(sampled.output.contains("travel-tracking: 1 clips; command acceptance"), "\(sampled.output)")

        // --report-only writes the report again from clips.jsonl, hearing nothing.
        try FileManager.default.removeItem(at: output.appendingPathComponent("report.md"))
        let rewritten = try Executables.run(
            "voice-intents",
            [
                "evaluate", "--app", "travel-tracking", "--tests", manifest.path, "--sample", "1", "--voices",
                "en-us", "--snr", "clean", "--output", output.path, "--report-only",
            ])
        #expect(rewritten.status == 0, "\(rewritten.errors)")
        #expect(
            rewritten.output.contains("travel-tracking: 1 clips;")
                && !rewritten.errors.contains("clips, 0:00 left"))
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("report.md").path))
        try "not json\n".write(
            to: output.appendingPathComponent("clips.jsonl"), atomically: true, encoding: .utf8)
        let broken = try Executables.run(
            "voice-intents",
            ["evaluate", "--app", "travel-tracking", "--output", output.path, "--report-only"])
        #expect(broken.status == 1)
        #expect(broken.errors.contains("clips.jsonl:1: not a clip of evaluate's"), "\(broken.errors)")
    }

    @Test func badOptionsAreNamed() throws {
        for (arguments, message) in [
            (["--snr", "loud"], "\"loud\" is not a signal-to-noise ratio"),
            (["--noise", "traffic", "--snr", "10"], "unknown noise \"traffic\""),
            (["--voices", "en-xx"], "eSpeak NG has no voice \"en-xx\""),
            (["--tests", "/nonexistent/tests.yaml"], "/nonexistent/tests.yaml"),
        ] {
            let run = try Executables.run(
                "voice-intents",
                ["evaluate", "--app", "travel-tracking", "--output", "/tmp/unused"] + arguments)
            #expect(run.status != 0)
            #expect(run.errors.contains(message), "\(arguments): \(run.errors)")
        }
    }

    /// Asterisk's sounds are G.722; ffmpeg decodes them (read through popen, which is safe in an
    /// async test, unlike Foundation's Process).
    static func decodeG722(_ path: String) throws -> [Int16] {
        guard let pipe = popen("ffmpeg -nostdin -loglevel error -i '\(path)' -f s16le -ar 16000 -ac 1 -", "r")
        else {
            throw CocoaError(.fileReadUnknown)
        }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = fread(&buffer, 1, buffer.count, pipe)
            if count <= 0 { break }
            data.append(contentsOf: buffer[0..<count])
        }
        try #require(pclose(pipe) == 0, "ffmpeg could not decode \(path): apt-get install ffmpeg")
        return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    /// Debian's real recordings, through a manifest, heard by a small app whose phrases cover
    /// them: a rover command, two cards, Asterisk's numbers from zero to ninety (one speaker),
    /// and five LibriVox sentences that are no command.
    @Test func realRecordingsAreEvaluatedThroughAManifest() async throws {
        let folder = try temporaryFolder("recordings")
        defer { try? FileManager.default.removeItem(at: folder) }
        var lines = [
            "tests:",
            "  - { audio: \(Self.testData)/goforward.raw, say: go forward ten meters, intent: MoveRoverIntent, values: { direction: Forward, distance: \"10\" } }",
            "  - { audio: \(Self.testData)/cards/001.wav, say: ten of clubs, intent: PlayCardIntent, values: { rank: Ten, suit: Clubs } }",
            "  - { audio: \(Self.testData)/cards/003.wav, say: seven of clubs, intent: PlayCardIntent, values: { rank: Seven, suit: Clubs } }",
        ]
        let numbers = Array(0...20) + [30, 40, 50, 60, 70, 80, 90]
        let words = [
            "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
            "twelve",
            "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty",
        ]
        let tens = [
            30: "thirty", 40: "forty", 50: "fifty", 60: "sixty", 70: "seventy", 80: "eighty", 90: "ninety",
        ]
        for number in numbers {
            let wav = folder.appendingPathComponent("digit-\(number).wav")
            try WAVFile.write(
                AudioBuffer(
                    int16: try Self.decodeG722("\(Self.asterisk)/\(number).g722"), sampleRate: 16_000),
                to: wav)
            let said = number <= 20 ? words[number] : tens[number] ?? ""
            lines.append(
                "  - { audio: digit-\(number).wav, say: \(said), intent: EnterNumberIntent, values: { number: \"\(number)\" } }"
            )
        }
        let transcripts = try String(
            contentsOfFile: "\(Self.testData)/librivox/transcription", encoding: .utf8)
        for line in transcripts.split(separator: "\n") {
            // <s> words </s> (file)
            guard let open = line.lastIndex(of: "("), let close = line.lastIndex(of: ")") else { continue }
            let file = line[line.index(after: open)..<close]
            let said = line[..<open].replacingOccurrences(of: "<s>", with: "").replacingOccurrences(
                of: "</s>", with: ""
            )
            .trimmingCharacters(in: .whitespaces)
            lines.append(
                "  - { audio: \(Self.testData)/librivox/\(file).wav, say: \"\(said)\", intent: none }")
        }
        let manifest = folder.appendingPathComponent("manifest.yaml")
        // The app has no phrase catalog: an empty Phrases folder.
        let phrases = folder.appendingPathComponent("Phrases")
        try FileManager.default.createDirectory(
            at: phrases.appendingPathComponent("en"), withIntermediateDirectories: true)
        try (lines.joined(separator: "\n") + "\n").write(to: manifest, atomically: true, encoding: .utf8)

        let output = folder.appendingPathComponent("report")
        var command = try #require(
            try VoiceIntentsCommand<RoverApps>.parseAsRoot([
                // Every value taken as heard: with the check of how well a value fits the sound,
                // the "ten" of cards/001.wav, 38 per frame worse than "of clubs", is asked for
                // (Benchmarks/Calibration/people/README.md, "A name that does not fit").
                "evaluate", "--tests", manifest.path, "--snr", "clean", "--phrases",
                phrases.path, "--output", output.path, "--value-margin", "off",
            ]) as? any AsyncParsableCommand)
        try await command.run()

        let report = try JSONDecoder().decode(
            EvaluationReport.self, from: Data(contentsOf: output.appendingPathComponent("report.json")))
        // Recordings are heard as recorded: one speaker ("recorded").
        #expect(report.voices == ["recorded"] && report.conditions == ["clean"])
        let figures = report.overall
        #expect(figures.commands == 3 + numbers.count && figures.noMatchClips == 5)
        // Measured 2026-11-22: the rover and both cards right, and the numbers but for the tens,
        // which Asterisk's speaker says so that "thirty" to "ninety" are heard as "thirteen" to
        // "nineteen" (24 of 31 commands). The LibriVox sentences are all heard as commands: the
        // recognizer has no rejection yet, so no ceiling is set on them here.
        #expect(figures.commandAcceptance >= 0.7, "\(figures)")
        #expect(figures.intentAccuracy == 1)
        #expect(["direction", "distance", "rank", "suit"].allSatisfy { figures.valueAccuracy[$0] == 1 })
        #expect(figures.valueAccuracy["number"].map { $0 >= 0.65 } == true)
        #expect(figures.wordErrorRate < 0.3)
        let markdown = try String(contentsOf: output.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(markdown.contains("in 1 voice (recorded)"))
    }
}
