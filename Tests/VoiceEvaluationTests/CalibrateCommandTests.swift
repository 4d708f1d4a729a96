import Foundation
import Testing
import VoiceRecognition
import VoiceTestSupport

/// `calibrate` as a user runs it: a small sample of TravelTracking's tests and the out-of-domain
/// sentences spoken in one voice, clean, with the confidence measured; the curve re-swept from
/// the clips; a threshold chosen on people's recordings saved next to the models.
@Suite("calibrate", .serialized)
struct CalibrateCommandTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Recordings (tests with `audio:`) are heard as recorded, and calibrate says how its threshold
    /// treats them: people fit the acoustic model better than eSpeak NG's voices do.
    @Test func recordingsAreCountedOnTheirOwn() throws {
        let output = try temporaryFolder("calibrate-recordings")
        defer { try? FileManager.default.removeItem(at: output) }
        let tests = output.appendingPathComponent("tests.yaml")
        try """
        tests:
          - { say: "navigate to map in travel tracking", intent: NavigateIntent, values: { navigationOption: Map } }
        """.write(to: tests, atomically: true, encoding: .utf8)
        let recorded = output.appendingPathComponent("recorded.yaml")
        let data = "/usr/share/pocketsphinx/test/data"
        try """
        tests:
          - { say: "he was not an ill disposed young man", audio: \(data)/librivox/sense_and_sensibility_01_austen_64kb-0880.wav, intent: none }
          - { say: "five five", audio: \(data)/cards/004.wav, intent: none }
        """.write(to: recorded, atomically: true, encoding: .utf8)
        let run = try Executables.run(
            "voice-intents",
            [
                "calibrate", "--app", "travel-tracking", "--tests", tests.path, "--also", recorded.path,
                "--voices",
                "en-us", "--snr", "clean", "--output", output.path,
            ])
        #expect(run.status == 0, "\(run.output)\(run.errors)")
        let line = run.output.split(separator: "\n").first {
            $0.hasPrefix("recordings that are no command: ")
        }
        #expect(line?.contains(" of 2 accepted") == true, "\(run.output)")
        #expect(!run.output.contains("recordings of commands"), "no recording here is a command")
        let clips = try String(contentsOf: output.appendingPathComponent("clips.jsonl"), encoding: .utf8)
        #expect(
            clips.split(separator: "\n").count == 3 && clips.contains("\"speaker\":\"recorded\""), "\(clips)")
    }

    @Test func aSmallCalibrationPrintsTheCurveAndWritesItsFiles() throws {
        let output = try temporaryFolder("calibrate")
        defer { try? FileManager.default.removeItem(at: output) }
        let small = [
            "calibrate", "--app", "travel-tracking", "--sample", "24", "--voices", "en-us", "--snr", "clean",
            "--output", output.path,
        ]
        let run = try Executables.run("voice-intents", small)
        #expect(run.status == 0, "\(run.output)\(run.errors)")
        #expect(run.errors.contains("24/24 clips, 0:00 left"), "\(run.errors)")
        // The curve: a row every 0.05 and the chosen threshold's, marked.
        #expect(run.output.contains("threshold |  tuning: FA  wrong     FR  FRall | held out: FA"))
        #expect(run.output.contains("      0.000 |") && run.output.contains("      1.000 |"))
        #expect(run.output.split(separator: "\n").count { $0.hasPrefix("→ ") } == 1, "\(run.output)")
        #expect(run.output.contains("travel-tracking: threshold "))
        #expect(run.output.contains("chosen on") && run.output.contains("held out ("))

        let calibration = try Calibration.load(from: output.appendingPathComponent("calibration.json"))
        #expect(calibration.app == "travel-tracking" && calibration.maxFalseRejects == 0.02)
        #expect(calibration.tuning.clips + calibration.heldOut.clips == 24)
        #expect(calibration.tuning.falseRejects <= 0.02)
        #expect(calibration.curve?.count == 101)
        #expect(
            calibration.command
                == "voice-intents calibrate --app travel-tracking --sample 24 --voices en-us --rates 175 --snr clean"
        )
        let svg = try String(contentsOf: output.appendingPathComponent("calibration.svg"), encoding: .utf8)
        #expect(svg.hasPrefix("<svg") && svg.contains("travel-tracking: confidence threshold"))
        // Every clip has its confidence, and the sample reaches into the out-of-domain sentences.
        let clips = try String(contentsOf: output.appendingPathComponent("clips.jsonl"), encoding: .utf8)
            .split(separator: "\n")
        #expect(clips.count == 24 && clips.allSatisfy { $0.contains("\"confidence\":") })
        #expect(clips.contains { $0.contains("out-of-domain.yaml") })
        #expect(clips.contains { $0.contains("tests\\/travel-tracking.yaml") })

        // --report-only sweeps the clips again under another cap, hearing nothing.
        try FileManager.default.removeItem(at: output.appendingPathComponent("calibration.json"))
        let again = try Executables.run(
            "voice-intents", small + ["--report-only", "--max-false-rejects", "10%", "--step", "0.25"])
        #expect(again.status == 0, "\(again.errors)")
        #expect(!again.errors.contains("clips, 0:00 left"))
        #expect(again.output.contains("      0.250 |") && !again.output.contains("      0.050 |"))
        let looser = try Calibration.load(from: output.appendingPathComponent("calibration.json"))
        #expect(looser.maxFalseRejects == 0.1 && looser.threshold >= calibration.threshold)

        // --save keeps no threshold chosen on eSpeak NG's voices.
        let refused = try Executables.run("voice-intents", small + ["--report-only", "--save"])
        #expect(refused.status != 0)
        #expect(refused.errors.contains("--save keeps only a threshold chosen on people's recordings"))
    }

    /// A threshold chosen on people's recordings of the app's commands is saved next to the
    /// models' manifest, without the curve.
    @Test func aThresholdChosenOnPeopleIsSavedForListen() throws {
        let output = try temporaryFolder("calibrate-save")
        defer { try? FileManager.default.removeItem(at: output) }
        // A copy of the models without the app's own calibration.
        try FileManager.default.copyItem(
            at: Self.root.appendingPathComponent("Models"), to: output.appendingPathComponent("Models"))
        let models = output.appendingPathComponent("Models/en")
        try FileManager.default.removeItem(at: models.appendingPathComponent("smart-home.calibration.json"))
        var environment = ProcessInfo.processInfo.environment
        environment["VOICE_INTENTS_MODELS"] = output.appendingPathComponent("Models").path
        let saved = try Executables.run(
            "voice-intents",
            [
                "calibrate", "--app", "smart-home", "--recorded-only", "--sample", "8", "--snr", "clean",
                "--output", output.path, "--save",
            ], environment: environment)
        #expect(saved.status == 0, "\(saved.errors)")
        let file = models.appendingPathComponent("smart-home.calibration.json")
        #expect(saved.output.contains("saved \(file.path)"), "\(saved.output)")
        let kept = try Calibration.load(from: file)
        let chosen = try Calibration.load(from: output.appendingPathComponent("calibration.json"))
        #expect(kept.curve == nil && kept.threshold == chosen.threshold && chosen.curve != nil)
        #expect(kept.command?.contains("--recorded-only") == true, "\(kept.command ?? "")")
    }

    @Test func badOptionsAndClipsWithoutConfidenceAreNamed() throws {
        for (arguments, message) in [
            (["--max-false-rejects", "150%"], "--max-false-rejects takes a percentage from 0 to 100"),
            (["--max-false-rejects", "few"], "(got \"few\")"),
            (["--step", "0"], "--step takes 0.01 to 0.5"),
            (["--save"], "--save keeps only a threshold chosen on people's recordings"),
            (["--snr", "loud"], "\"loud\" is not a signal-to-noise ratio"),
            (["--also", "/nonexistent/more.yaml"], "/nonexistent/more.yaml"),
        ] {
            let run = try Executables.run(
                "voice-intents",
                ["calibrate", "--app", "travel-tracking", "--output", "/tmp/unused"] + arguments)
            #expect(run.status != 0)
            #expect(run.errors.contains(message), "\(arguments): \(run.errors)")
        }

        // evaluate's clips carry the confidence too (evaluate hears --also's file after --tests);
        // clips without one (written by hand, or before confidence was recorded) are named.
        let output = try temporaryFolder("calibrate-evaluate")
        defer { try? FileManager.default.removeItem(at: output) }
        let tests = output.appendingPathComponent("tests.yaml")
        try """
        tests:
          - { say: "navigate to map in travel tracking", intent: NavigateIntent, values: { navigationOption: Map } }
        """.write(to: tests, atomically: true, encoding: .utf8)
        let evaluated = try Executables.run(
            "voice-intents",
            [
                "evaluate", "--app", "travel-tracking", "--tests", tests.path, "--also",
                "Phrases/en/tests/out-of-domain.yaml", "--sample", "2", "--voices", "en-us", "--snr", "clean",
                "--output", output.path,
            ])
        #expect(evaluated.status == 0, "\(evaluated.errors)")
        #expect(evaluated.output.contains("travel-tracking: 2 clips;"), "\(evaluated.output)")
        let clips = try String(contentsOf: output.appendingPathComponent("clips.jsonl"), encoding: .utf8)
        #expect(clips.contains("tests.yaml:2:5") && clips.contains("out-of-domain.yaml"))
        #expect(clips.components(separatedBy: "\"confidence\":").count == 3, "\(clips)")
        try clips.replacingOccurrences(
            of: #""confidence":[-0-9.e]+,?"#, with: "", options: .regularExpression
        ).write(to: output.appendingPathComponent("clips.jsonl"), atomically: true, encoding: .utf8)
        let refused = try Executables.run(
            "voice-intents",
            ["calibrate", "--app", "travel-tracking", "--output", output.path, "--report-only"])
        #expect(refused.status == 1)
        #expect(
            refused.errors.contains("has no confidence; run calibrate without --report-only"),
            "\(refused.errors)")
    }
}
