import Foundation
import PhraseMatching
import Testing
import VoiceEvaluation
import VoiceTestSupport

@testable import VoiceAudio
@testable import VoiceIntentsCLI

/// `record`: a person says the phrase tests into a real microphone (a private PulseAudio server's
/// virtual source), and what they said becomes `audio:` tests.
@Suite("Recording phrase tests", .serialized)
struct RecordCommandTests {
    /// One test of TravelTracking and one sentence that is no command, said by Debian's real
    /// recording: both are recorded whole, listed with their expectations, and heard again.
    @Test(
        .enabled(if: PrivateSoundServer.isInstalled, PrivateSoundServer.notInstalled),
        .enabled(if: FileManager.default.fileExists(atPath: goForwardPath), "needs pocketsphinx's test data"))
    func sentencesSaidIntoTheMicrophoneBecomeTestsWithTheirRecordings() async throws {
        try await offThePool {
            let folder = Self.temporaryFolder()
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let sentences = folder.appendingPathComponent("sentences.yaml")
            try """
            tests:
              - { say: "buy tickets for uluru in travel tracking", intent: FindTicketsIntent, values: { landmark: "Uluru" } }
              - { say: "go forward ten meters", intent: none }

            """.write(to: sentences, atomically: true, encoding: .utf8)
            let recordings = folder.appendingPathComponent("mine")
            let arguments = ["--tests", sentences.path, "--output", recordings.path]
            let spoken = try LiveLoop.spoken("buy tickets for uluru in travel tracking")
            var reader = try RawPCMReader(url: URL(fileURLWithPath: goForwardPath))
            let person = try reader.readAll().forRecognizer

            let server = try PrivateSoundServer()
            defer { server.stop() }
            let microphone = server.liveMicrophone()
            defer { microphone.close() }
            let recorder = try LiveLoop.Listener(
                arguments, environment: server.environment, command: "record")
            defer { if recorder.process.isRunning { recorder.process.terminate() } }
            // Each sentence is said once it is shown, as a person reading the prompts would.
            for (prompt, speech) in [("[1/2] say: buy tickets", spoken), ("[2/2] say: go forward", person)] {
                try #require(recorder.waitFor(prompt), "\(recorder.output)\(recorder.errors)")
                Thread.sleep(forTimeInterval: 0.5)
                microphone.say(speech)
            }
            try #require(recorder.waitFor("2 recordings in"), "\(recorder.output)\(recorder.errors)")
            recorder.process.waitUntilExit()
            #expect(recorder.process.terminationStatus == 0, "\(recorder.errors)")
            #expect(
                recorder.output.contains("heard \"buy tickets for uluru in travel tracking\""),
                "\(recorder.output)")

            let recorded = try PhraseTestSuite.load(from: recordings.appendingPathComponent("tests.yaml"))
                .cases
            #expect(
                recorded.map(\.sentence) == [
                    "buy tickets for uluru in travel tracking", "go forward ten meters",
                ])
            #expect(
                recorded.map(\.expectation) == [
                    .intent("FindTicketsIntent", values: ["landmark": "Uluru"]), .noMatch,
                ])
            #expect(recorded.map { $0.audio?.lastPathComponent } == ["0001.wav", "0002.wav"])

            // Heard again from the files, as a user would: the tests by `evaluate` (which hears a
            // recording as the loop heard it live), the person's sentence (2.8 s as recorded) also by
            // dictation, which would lose words cut off at either end.
            let first = try #require(recorded[0].audio)
            let second = try #require(recorded[1].audio)
            for file in [first, second] { #expect(try WAVFile.read(from: file).sampleRate == 16_000) }
            let duration = try WAVFile.read(from: second).duration
            #expect((2.8...4.5).contains(duration), "\(duration) s")
            let report = folder.appendingPathComponent("report")
            let evaluated = try Executables.run(
                "travel-tracking",
                [
                    "evaluate", "--tests", recordings.appendingPathComponent("tests.yaml").path,
                    "--recorded-only", "--snr", "clean", "--output", report.path,
                ])
            #expect(evaluated.status == 0, "\(evaluated.errors)")
            let clips = try String(contentsOf: report.appendingPathComponent("clips.jsonl"), encoding: .utf8)
                .split(separator: "\n").map {
                    try JSONDecoder().decode(EvaluationReport.Clip.self, from: Data($0.utf8))
                }
            #expect(clips.count == 2)
            #expect(clips.first?.heard == "buy tickets for uluru in travel tracking", "\(clips)")
            #expect(clips.first?.isRight == true, "\(clips)")
            let dictated = try Executables.run("travel-tracking", ["transcribe", "--dictation", second.path])
            #expect(dictated.output == "go forward ten meters\n", "\(dictated.errors)")
        }
    }

    /// `record --wake-word okay_nabu --takes 5`: each take said into the microphone when asked is
    /// written whole and heard by the model at once, and `calibrate --wake-word` chooses settings
    /// for the five. eSpeak NG stands in for the person.
    @Test(.enabled(if: PrivateSoundServer.isInstalled, PrivateSoundServer.notInstalled))
    func takesOfTheWakeWordSaidIntoTheMicrophoneAreRecordedForCalibrate() async throws {
        try await offThePool {
            let folder = Self.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let takes = folder.appendingPathComponent("takes")
            let server = try PrivateSoundServer()
            defer { server.stop() }
            let microphone = server.liveMicrophone()
            defer { microphone.close() }
            let recorder = try LiveLoop.Listener(
                ["--wake-word", "okay_nabu", "--takes", "5", "--output", takes.path],
                environment: server.environment, command: "record")
            defer { if recorder.process.isRunning { recorder.process.terminate() } }
            for take in 1...5 {
                try #require(
                    recorder.waitFor("[\(take)/5] say: Okay Nabu"), "\(recorder.output)\(recorder.errors)")
                Thread.sleep(forTimeInterval: 0.5)
                microphone.say(try TestSpeech.spoken("okay nabu.", voice: "en-us", rate: 150 + 10 * take))
            }
            try #require(
                recorder.waitFor("5 takes of \"Okay Nabu\" in"), "\(recorder.output)\(recorder.errors)")
            recorder.process.waitUntilExit()
            #expect(recorder.process.terminationStatus == 0, "\(recorder.errors)")
            #expect(
                recorder.output.components(separatedBy: "heard by okay_nabu").count - 1 == 5,
                "\(recorder.output)")
            #expect(
                recorder.output.contains("calibrate --wake-word okay_nabu --wake-word-takes"),
                "\(recorder.output)")
            let names = try FileManager.default.contentsOfDirectory(atPath: takes.path).sorted()
            #expect(names == (1...5).map { String(format: "%04d.wav", $0) })
            for name in names {
                let audio = try WAVFile.read(from: takes.appendingPathComponent(name))
                #expect(audio.sampleRate == 16_000)
                // The second before the word is kept, for the model and its check.
                #expect(audio.duration > 1.5, "\(name): \(audio.duration) s")
            }

            // Nothing left to record: said without opening a microphone.
            let again = try Executables.run(
                "travel-tracking",
                ["record", "--wake-word", "okay_nabu", "--takes", "5", "--output", takes.path])
            #expect(
                again.output.contains("nothing left to record: 5 takes"), "\(again.output)\(again.errors)")

            let calibrated = try Executables.run(
                "travel-tracking",
                [
                    "calibrate", "--wake-word", "okay_nabu", "--wake-word-takes", takes.path, "--output",
                    folder.appendingPathComponent("report").path,
                ])
            #expect(calibrated.status == 0, "\(calibrated.errors)")
            // Heard as recorded and, by default, under babble at 10 dB.
            #expect(calibrated.output.contains("| as recorded | 5 | 5 |"), "\(calibrated.output)")
            #expect(calibrated.output.contains("| babble 10 dB | 5 |"), "\(calibrated.output)")
        }
    }

    /// A folder of its own for one test's recordings.
    static func temporaryFolder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("record-\(UUID().uuidString.prefix(8))")
    }

    /// `seconds` of a steady tone, as a recording.
    static func tone(_ seconds: Double) -> AudioBuffer {
        AudioBuffer(
            samples: (0..<Int(seconds * 16_000)).map { Float(sin(Double($0) / 10)) / 4 }, sampleRate: 16_000)
    }

    /// Stopped and started again, `record` goes on with the sentences not yet recorded, and a run
    /// with nothing left to record says so without opening a microphone.
    @Test func aSecondRunKeepsWhatWasRecordedAndAsksOnlyForTheRest() async throws {
        try await offThePool {
            let folder = Self.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            var file = try RecordingsFile(folder: folder, app: "travel-tracking")
            let source = PhraseSource(file: "sentences.yaml", line: 1, column: 1)
            let cases = [
                PhraseTestSuite.Case(
                    sentence: #"say "hello\" to the map"#,
                    expectation: .intent("NavigateIntent", values: ["navigationOption": #"The "Map""#]),
                    source: source),
                PhraseTestSuite.Case(sentence: "tell me a joke", expectation: .noMatch, source: source),
            ]
            let tone = Self.tone(0.5)
            #expect(try file.add(cases[0], audio: tone) == "0001.wav")

            let reopened = try RecordingsFile(folder: folder, app: "travel-tracking")
            #expect(reopened.contains(cases[0]) && !reopened.contains(cases[1]))
            let listed = try PhraseTestSuite.load(from: reopened.file).cases
            #expect(listed.map(\.sentence) == [cases[0].sentence])
            #expect(listed.map(\.expectation) == [cases[0].expectation])
            #expect(try WAVFile.read(from: try #require(listed.first?.audio)).duration == 0.5)

            // With every sentence recorded, the command needs no microphone at all.
            var full = reopened
            #expect(try full.add(cases[1], audio: tone) == "0002.wav")
            let sentences = folder.appendingPathComponent("sentences.yaml")
            try "tests:\n  - { say: \"tell me a joke\", intent: none }\n".write(
                to: sentences, atomically: true, encoding: .utf8)
            let run = try Executables.run(
                "travel-tracking",
                ["record", "--tests", sentences.path, "--output", folder.path, "--device", "pulse:nowhere"])
            #expect(run.status == 0, "\(run.errors)")
            #expect(run.output.contains("nothing left to record: 2 recordings in"), "\(run.output)")
        }
    }

    /// A recording that went wrong is said again into its own file (`--redo`); until the new one
    /// is in, the old one stays listed, so a microphone that fails loses nothing.
    @Test func aRecordingIsSaidAgainIntoItsOwnFile() async throws {
        try await offThePool {
            let folder = Self.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            var file = try RecordingsFile(folder: folder, app: "travel-tracking")
            let source = PhraseSource(file: "sentences.yaml", line: 1, column: 1)
            let cases = [
                PhraseTestSuite.Case(
                    sentence: "navigate to the map", expectation: .intent("NavigateIntent", values: [:]),
                    source: source),
                PhraseTestSuite.Case(sentence: "tell me a joke", expectation: .noMatch, source: source),
            ]
            for testCase in cases { _ = try file.add(testCase, audio: Self.tone(0.5)) }

            #expect(try RecordingsFile.fileName("1") == "0001.wav")
            #expect(try RecordingsFile.fileName("0012.wav") == "0012.wav")
            #expect(throws: CommandFailure.self) { try RecordingsFile.fileName("../x") }
            let again = try file.test(recordedIn: "0001.wav")
            #expect(again.sentence == "navigate to the map" && again.expectation == cases[0].expectation)
            #expect(throws: CommandFailure.self) { try file.test(recordedIn: "0009.wav") }

            #expect(try file.replace("0001.wav", with: again, audio: Self.tone(1)) == "0001.wav")
            let listed = try PhraseTestSuite.load(from: file.file).cases
            #expect(listed.map(\.sentence) == ["tell me a joke", "navigate to the map"])
            #expect(listed.map { $0.audio?.lastPathComponent } == ["0002.wav", "0001.wav"])
            #expect(try WAVFile.read(from: folder.appendingPathComponent("0001.wav")).duration == 1)
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
                $0.hasSuffix(".wav")
            }
            #expect(files.sorted() == ["0001.wav", "0002.wav"])

            // From the command line: an unknown recording is named, and a microphone that cannot be
            // opened leaves the recording to redo where it was.
            let before = try String(contentsOf: file.file, encoding: .utf8)
            let sentences = folder.appendingPathComponent("sentences.yaml")
            try "tests:\n  - { say: \"tell me a joke\", intent: none }\n".write(
                to: sentences, atomically: true, encoding: .utf8)
            let arguments = [
                "record", "--tests", sentences.path, "--output", folder.path, "--device", "pulse:nowhere",
            ]
            let unknown = try Executables.run("travel-tracking", arguments + ["--redo", "9"])
            #expect(unknown.status != 0)
            #expect(unknown.errors.contains("no recording 0009.wav in "), "\(unknown.errors)")
            let noMicrophone = try Executables.run("travel-tracking", arguments + ["--redo", "0002.wav"])
            #expect(noMicrophone.status != 0)
            #expect(noMicrophone.errors.contains("no microphone"), "\(noMicrophone.errors)")
            #expect(try String(contentsOf: file.file, encoding: .utf8) == before)
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("0002.wav").path))
        }
    }
}
