import ArgumentParser
import Foundation
import PhraseMatching
import VoiceAudio
import VoiceRecognition

/// `record`: show an app's phrase tests one at a time and record each from the microphone, into
/// WAV files and a test file of `audio:` tests that `evaluate` and `calibrate` hear as real speech.
struct RecordCommand<Apps: AppSet>: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "record",
            abstract: "Record yourself saying the app's phrase tests, for evaluate and calibrate.",
            discussion: """
                Each sentence is shown in turn: say it, then pause. Every recording is a 16 kHz WAV \
                file in the folder, listed in the folder's tests.yaml with what the sentence must \
                reach. Stop whenever you like (Ctrl-C): the same command goes on where it stopped. \
                A recording that went wrong is said again with --redo and its file's name. \
                Then choose a confidence threshold for your voice:
                  calibrate --tests <folder>/tests.yaml --also Phrases/en/tests/out-of-domain.yaml --recorded-only --save

                With --wake-word, it records takes of a trained wake word instead (--takes of them, \
                into recordings/wake-word-<model>/), and says how well the model hears each. Then \
                choose its cutoff and check for your voice:
                  calibrate --wake-word <model> --save
                """)
    }

    @OptionGroup var selection: AppSelection<Apps>

    @OptionGroup var options: AppOptions
    @OptionGroup var phraseOptions: PhraseOptions

    @Option(
        help:
            "The phrase test file whose sentences to say, e.g. Phrases/en/tests/out-of-domain.yaml (default: the app's own)."
    )
    var tests: String?

    @Option(help: "Say this many of the sentences, spread evenly over the file; all when not given.")
    var sample: Int?

    @Option(
        name: .shortAndLong,
        help: "The folder for the recordings and their tests.yaml (default: recordings/<app>).")
    var output: String?

    @Option(help: "Where to listen (default, pulse, pulse:<source>, alsa:<pcm>), as for listen.")
    var device: String?

    @Option(help: "Seconds to wait for each sentence to be said before stopping.")
    var timeout = 10.0

    @Option(
        help: ArgumentHelp(
            "Say a recording again, first: its file's name or number (0012.wav, 12); repeat for more.",
            valueName: "recording"))
    var redo: [String] = []

    @Option(
        help: ArgumentHelp(
            "Record takes of this trained wake word (okay_nabu, hey_jarvis, alexa, hey_mycroft) instead of the phrase tests.",
            valueName: "model"))
    var wakeWord: String?

    @Option(help: "With --wake-word: how many takes the folder should hold.")
    var takes = 12

    @OptionGroup var recognizerOptions: RecognizerOptions

    func validate() throws {
        if wakeWord != nil, tests != nil || sample != nil {
            throw ValidationError("--wake-word records the wake word: leave out --tests and --sample")
        }
        if takes < 1 { throw ValidationError("--takes must be at least 1") }
        if let sample, sample < 1 { throw ValidationError("--sample must be at least 1") }
        if timeout <= 0 { throw ValidationError("--timeout must be positive") }
        if let device { _ = try AudioDevice(parsingOption: device) }
    }

    func run() async throws {
        try await reportingFailures {
            let context = try selection.context()
            if let wakeWord { return try await recordWakeWord(wakeWord, context: context) }
            let location = phraseOptions.location
            guard let file = tests.map({ URL(fileURLWithPath: $0) }) ?? context.ownTestFile(location) else {
                throw CommandFailure(
                    "\(context.executableName) has no phrase tests (\(location.locale)/tests/\(context.executableName).yaml); give a file with --tests"
                )
            }
            let folder = URL(fileURLWithPath: output ?? "recordings/\(context.executableName)")
            var recordings = try RecordingsFile(folder: folder, app: context.executableName)
            // Recordings to say again come first, into the files they had (replaced only once
            // the new one is in).
            var again: [(testCase: PhraseTestSuite.Case, name: String?)] = []
            for recording in redo {
                let name = try RecordingsFile.fileName(recording)
                again.append((try recordings.test(recordedIn: name), name))
            }
            let chosen = try PhraseTestSuite.load(from: file).cases.filter { $0.audio == nil }
                .spread(count: sample)
            let toDo =
                again
                + chosen.filter { testCase in
                    !recordings.contains(testCase)
                        && !again.contains { $0.testCase.sentence == testCase.sentence }
                }.map { (testCase: $0, name: String?.none) }
            guard !toDo.isEmpty else {
                say(
                    "nothing left to record: \(recordings.count) recordings in \(recordings.file.relativePath)"
                )
                return
            }

            let recognizer = try SpeechRecognizer(recognizerOptions.configuration())
            try recognizer.useGrammar(try await context.grammar(location))
            let input = try openMicrophone(context: context)
            defer { input.stop() }
            say(
                "\(toDo.count) of \(chosen.count) sentences to record from \(input.name) into \(folder.relativePath)/; say each one when it is shown, then pause."
            )
            for (index, (testCase, name)) in toDo.enumerated() {
                say("[\(index + 1)/\(toDo.count)] say: \(testCase.sentence)")
                guard let said = try recognizer.record(timeout: timeout, read: input.read) else {
                    throw CommandFailure(
                        "nothing heard within \(Int(timeout)) s from \(input.name); \(index) recorded this time. Run the same command again to go on."
                    )
                }
                let written =
                    try name.map { try recordings.replace($0, with: testCase, audio: said.audio) }
                    ?? recordings.add(testCase, audio: said.audio)
                let heard =
                    said.result.readableText.isEmpty ? "no command" : "\"\(said.result.readableText)\""
                say(
                    "  heard \(heard) (\(String(format: "%.1f", said.audio.duration)) s, peak \(String(format: "%.0f", said.peakDecibels)) dBFS) → \(written)"
                )
                warnAboutLevel(said)
            }
            say(
                """
                \(recordings.count) recordings in \(recordings.file.relativePath). Hear them:
                  calibrate --tests \(recordings.file.relativePath) --also Phrases/\(location.locale)/tests/out-of-domain.yaml
                """)
        }
    }

    /// Says when a recording was clipped or very quiet, and what to do.
    private func warnAboutLevel(_ said: RecordedUtterance) {
        if said.clippedShare > 0.001 {
            say("  warning: clipped (too loud): lower the input volume or move back from the microphone")
        } else if said.peakDecibels < -30 {
            say("  warning: very quiet: raise the input volume (pavucontrol) or move closer")
        }
    }

    /// `record --wake-word`: takes of the wake word into the folder until it holds `takes` of
    /// them (`--redo` ones first), each said when asked and heard by the model at once.
    private func recordWakeWord(_ name: String, context: AppContext) async throws {
        let detector = try WakeWordDetector(name)
        let phrase = detector.model.phrase
        let folder = URL(fileURLWithPath: output ?? WakeWordTakes.defaultFolder(name))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var existing = Set(WakeWordTakes.names(in: folder) ?? [])
        var toDo = try redo.map { try RecordingsFile.fileName($0) }
        for name in toDo where !existing.contains(name) {
            throw CommandFailure("no take \(name) in \(folder.relativePath) to say again")
        }
        var number = 1
        while existing.count + toDo.count - redo.count < takes {
            let file = String(format: "%04d.wav", number)
            if !existing.contains(file), !toDo.contains(file) { toDo.append(file) }
            number += 1
        }
        guard !toDo.isEmpty else {
            say(
                "nothing left to record: \(existing.count) takes of \"\(phrase)\" in \(folder.relativePath) (--takes \(takes + 1) or more for further ones)"
            )
            return
        }
        let recognizer = try SpeechRecognizer(recognizerOptions.configuration())
        // Only the end of the take is wanted from it: the app's grammar is as good as any.
        try recognizer.useGrammar(try await context.grammar(phraseOptions.location))
        let input = try openMicrophone(context: context)
        defer { input.stop() }
        let cutoff = detector.model.probabilityCutoff
        say(
            "\(toDo.count) takes of \"\(phrase)\" to record from \(input.name) into \(folder.relativePath)/; say it each time you are asked, as you would to wake the app, then pause."
        )
        for (index, file) in toDo.enumerated() {
            say("[\(index + 1)/\(toDo.count)] say: \(phrase)")
            // A second before the word: the model and its check hear what led up to it.
            guard let said = try recognizer.record(timeout: timeout, lead: 1.0, read: input.read) else {
                throw CommandFailure(
                    "nothing heard within \(Int(timeout)) s from \(input.name); \(index) recorded this time. Run the same command again to go on."
                )
            }
            try WAVFile.write(said.audio, to: folder.appendingPathComponent(file))
            existing.insert(file)
            let peak = detector.slidingMeans(of: said.audio.int16Samples).map(\.mean).max() ?? 0
            say(
                "  \(peak > cutoff ? "heard" : "not heard") by \(name) (\(String(format: "%.2f", peak)); it wakes above \(String(format: "%.2f", cutoff))), \(String(format: "%.1f", said.audio.duration)) s, peak \(String(format: "%.0f", said.peakDecibels)) dBFS → \(file)"
            )
            warnAboutLevel(said)
        }
        say(
            """
            \(existing.count) takes of "\(phrase)" in \(folder.relativePath). Choose the wake word's cutoff and check for them:
              calibrate --wake-word \(name)\(output == nil ? "" : " --wake-word-takes \(folder.relativePath)") --save
            """)
    }

    /// Writes a line to standard output at once (prompts must not wait in a buffer).
    private func say(_ line: String) {
        FileHandle.standardOutput.write(Data("\(line)\n".utf8))
    }

    private func openMicrophone(context: AppContext) throws -> VoiceInput {
        let device = try AudioDevice(parsingOption: device ?? "default")
        do {
            return try VoiceInput(microphone: device, logger: options.logger(for: context))
        } catch {
            throw CommandFailure(
                "no microphone: \(error.message)\nName one with --device (pactl list short sources, or arecord -L)."
            )
        }
    }
}

/// A folder of recordings and the test file that lists them (`tests.yaml`), added to one
/// recording at a time so that stopping loses at most the sentence being said.
struct RecordingsFile {
    let folder: URL
    let file: URL
    private var recorded: Set<Key>

    var count: Int { recorded.count }

    private struct Key: Hashable {
        let sentence: String
        let expectation: PhraseTestSuite.Expectation
    }

    /// Opens (or starts) `folder/tests.yaml`; `app` goes into a new file's heading.
    init(folder: URL, app: String) throws {
        self.folder = folder
        file = folder.appendingPathComponent("tests.yaml")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        if FileManager.default.fileExists(atPath: file.path),
            let text = try? String(contentsOf: file, encoding: .utf8),
            text.contains("\n  - ")
        {
            recorded = Set(
                try PhraseTestSuite.load(from: file).cases.map {
                    Key(sentence: $0.sentence, expectation: $0.expectation)
                })
        } else {
            recorded = []
            let heading = """
                # Phrase tests of \(app) said by a person, recorded with `record`: each with what it
                # must reach and its recording (audio:, relative to this file). Hear them with
                # evaluate or calibrate --tests <this file>.
                tests:

                """
            try Data(heading.utf8).write(to: file, options: .atomic)
        }
    }

    func contains(_ testCase: PhraseTestSuite.Case) -> Bool {
        recorded.contains(Key(sentence: testCase.sentence, expectation: testCase.expectation))
    }

    /// Writes `audio` as the next free `NNNN.wav` and lists it; returns the file's name.
    mutating func add(_ testCase: PhraseTestSuite.Case, audio: AudioBuffer) throws -> String {
        var number = recorded.count + 1
        var name: String { String(format: "%04d.wav", number) }
        while FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path) { number += 1 }
        try WAVFile.write(audio, to: folder.appendingPathComponent(name))
        try list(testCase, audio: name)
        return name
    }

    /// Adds the line of `testCase`, recorded in `name`, at the end of the file.
    private mutating func list(_ testCase: PhraseTestSuite.Case, audio name: String) throws {
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("  - \(Self.line(testCase, audio: name))\n".utf8))
        recorded.insert(Key(sentence: testCase.sentence, expectation: testCase.expectation))
    }

    /// The file name of a recording named on the command line: "12", "0012" or "0012.wav".
    static func fileName(_ recording: String) throws -> String {
        if let number = Int(recording.hasSuffix(".wav") ? String(recording.dropLast(4)) : recording),
            number > 0
        {
            return String(format: "%04d.wav", number)
        }
        guard recording.hasSuffix(".wav"), !recording.contains("/") else {
            throw CommandFailure(
                "--redo takes a recording's number or file name (12, 0012.wav), not \(recording)")
        }
        return recording
    }

    /// The test recorded in `name` (without its recording).
    func test(recordedIn name: String) throws -> PhraseTestSuite.Case {
        guard try lines().contains(where: { $0.hasSuffix(Self.ending(name)) }),
            let testCase = try PhraseTestSuite.load(from: file).cases.first(where: {
                $0.audio?.lastPathComponent == name
            })
        else {
            throw CommandFailure("no recording \(name) in \(file.relativePath)")
        }
        return PhraseTestSuite.Case(
            sentence: testCase.sentence, expectation: testCase.expectation, source: testCase.source)
    }

    /// Replaces the recording `name` with `audio` of `testCase`, listed last; returns `name`.
    mutating func replace(_ name: String, with testCase: PhraseTestSuite.Case, audio: AudioBuffer) throws
        -> String
    {
        var lines = try lines()
        guard let line = lines.firstIndex(where: { $0.hasSuffix(Self.ending(name)) }) else {
            throw CommandFailure("no recording \(name) in \(file.relativePath)")
        }
        // The new recording first: until the list is written again, the old line names it.
        try WAVFile.write(audio, to: folder.appendingPathComponent(name))
        lines.remove(at: line)
        try Data(lines.joined(separator: "\n").utf8).write(to: file, options: .atomic)
        try list(testCase, audio: name)
        return name
    }

    private func lines() throws -> [String] {
        try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
    }

    /// How the line of the recording `name` ends, as ``line(_:audio:)`` writes it.
    private static func ending(_ name: String) -> String { "audio: \(name) }" }

    /// `{ say: "…", intent: …, values: { … }, audio: 0001.wav }`, as phrase test files write a test.
    static func line(_ testCase: PhraseTestSuite.Case, audio: String) -> String {
        func quoted(_ text: String) -> String {
            "\""
                + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
                    of: "\"", with: "\\\"")
                + "\""
        }
        let expectation: String
        switch testCase.expectation {
        case .noMatch:
            expectation = "intent: none"
        case .intent(let intent, let values):
            expectation = Self.command(intent, values, quoted: quoted)
        case .joined(let commands):
            let each = commands.map { command in
                "{ " + Self.command(command.intent ?? "", command.values, quoted: quoted) + " }"
            }
            expectation = "intents: [\(each.joined(separator: ", "))]"
        }
        return "{ say: \(quoted(testCase.sentence)), \(expectation), " + ending(audio)
    }

    /// `intent: X, values: { … }`, as a test line writes a command.
    private static func command(_ intent: String, _ values: [String: String], quoted: (String) -> String)
        -> String
    {
        let pairs = values.sorted { $0.key < $1.key }.map { "\($0.key): \(quoted($0.value))" }
        return "intent: \(intent), values: {\(pairs.isEmpty ? "" : " \(pairs.joined(separator: ", ")) ")}"
    }
}
