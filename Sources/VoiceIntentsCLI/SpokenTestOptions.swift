// With the Evaluation trait (on by default): the spoken evaluation and its calibration.
#if Evaluation
    import ArgumentParser
    import Foundation
    import PhraseMatching
    import VoiceAudio
    import VoiceEvaluation
    import VoiceIntents
    import VoiceRecognition

    /// What to speak and hear, and how, for the commands that hear an app's phrase tests spoken
    /// (`evaluate`, `calibrate`): test files, voices, rates, noise, cache, workers, the recognizer.
    struct SpokenTestOptions: ParsableArguments {
        @Option(help: "A phrase test file, or a manifest of recordings (default: the app's phrase tests).")
        var tests: String?

        @Option(
            help: ArgumentHelp(
                "Another phrase test file to hear with them (repeatable), e.g. Phrases/en/tests/out-of-domain.yaml.",
                valueName: "file"))
        var also: [String] = []

        @Option(
            help: ArgumentHelp(
                "Another app whose phrase tests' recordings (audio:) are heard as speech that is no command of this one (repeatable).",
                discussion:
                    "Other people's commands for another house are the speech an always-listening app must ignore most. A recording whose sentence this app's phrases match word for word is left out, as is one this app's own tests hold; how many are left out is said.",
                valueName: "app"))
        var otherSpeechOf: [String] = []

        @Option(
            help:
                "Hear this many of the tests, spread evenly over the files (commands and no-match sentences alike); all when not given."
        )
        var sample: Int?

        @Flag(
            help:
                "Hear only the tests with audio: (people's recordings), and speak none with eSpeak NG: figures for people."
        )
        var recordedOnly = false

        @Option(help: "eSpeak NG voices, comma-separated.")
        var voices = SpokenEvaluation.defaultVoices.joined(separator: ",")

        @Option(help: "Speaking rates in words a minute, comma-separated.")
        var rates = "175"

        @Option(
            help:
                "Kinds of noise for the --snr ratios: white, pink, babble (comma-separated; default: babble for evaluate, pink for calibrate)."
        )
        var noise: String?

        @Option(
            help: ArgumentHelp(
                "Recordings of noise to mix in at each --snr ratio (WAV, or raw 16 kHz PCM; comma-separated).",
                discussion:
                    "Each file is a condition of its own, named by the file: a stretch of it from a seeded random offset goes under every clip, scaled so that the loudest 2048-sample frame of the speech is that many dB above the loudest of the noise, and the mix scaled down whole where it would clip (the public speech-to-intent benchmarks' way). Without --noise, only these noises are used.",
                valueName: "files"))
        var noiseFile: String?

        @Option(
            help:
                "clean, and signal-to-noise ratios in dB, comma-separated (default: clean,10; clean for recordings only)."
        )
        var snr: String?

        @Option(
            help: ArgumentHelp(
                "Seconds of each noise condition's noise before every recording (default: 0, the recording as it is).",
                discussion:
                    "A live stream has heard the room before anyone speaks; a clip that starts with the noise at full level has not, which misleads a detector that learns the noise floor (--voice-activity webrtc). Clean recordings get none.",
                valueName: "seconds"))
        var lead = 0.0

        @Option(
            help: ArgumentHelp(
                "How many times each clip is heard in each noise condition, each under another stretch of the noise (default: 1; clean clips once).",
                discussion:
                    "Where a stretch of recorded noise falls decides many a clip: under one stretch a command is heard, under the next it is not. Figures from one take move by a command or two from run to run of a small set; --takes 8 averages that out. clips.jsonl names each clip's take.",
                valueName: "count"))
        var takes = 1

        @Option(
            help: "Where spoken sentences are kept between runs (default: ~/.cache/voice-intents/speech).")
        var cache: String?

        @Flag(help: "Speak every sentence anew instead of using the cache.")
        var noCache = false

        @Option(help: "Clips heard at once (default: one per core).")
        var jobs = ProcessInfo.processInfo.activeProcessorCount

        @Flag(
            help:
                "Write the report again from the clips.jsonl in --output, hearing nothing (give the options of the run that made it)."
        )
        var reportOnly = false

        @OptionGroup var recognizerOptions: RecognizerOptions

        func validate() throws {
            guard jobs > 0 else { throw ValidationError("--jobs must be at least 1") }
            guard (0...30).contains(lead) else { throw ValidationError("--lead takes 0 to 30 seconds") }
            guard (1...100).contains(takes) else { throw ValidationError("--takes takes 1 to 100") }
            if let sample, sample < 1 { throw ValidationError("--sample must be at least 1") }
            if voiceList.isEmpty { throw ValidationError("--voices needs at least one voice") }
            if rateList.isEmpty || rateList.contains(where: { !(80...450).contains($0) }) {
                throw ValidationError("--rates takes words a minute from 80 to 450, e.g. 150,190")
            }
            for kind in (noise ?? "").split(separator: ",") where NoiseKind(rawValue: kind.trimmed) == nil {
                throw ValidationError(
                    "unknown noise \"\(kind)\"; there are \(NoiseKind.allCases.map(\.rawValue).joined(separator: ", "))"
                )
            }
            for path in noiseFilePaths where !FileManager.default.fileExists(atPath: path) {
                throw ValidationError("--noise-file: no file at \(path)")
            }
            do {
                _ = try conditions(defaultNoise: "pink")
            } catch {
                throw ValidationError(error.message)
            }
        }

        var voiceList: [String] { voices.split(separator: ",").map(\.trimmed).filter { !$0.isEmpty } }
        var rateList: [Int] { rates.split(separator: ",").compactMap { Int($0.trimmed) } }

        /// `--noise`, or `defaultNoise` when it was not given.
        func noiseKinds(defaultNoise: String) -> String { noise ?? (noiseFile == nil ? defaultNoise : "") }

        /// `--noise-file`'s paths.
        var noiseFilePaths: [String] {
            (noiseFile ?? "").split(separator: ",").map(\.trimmed).filter { !$0.isEmpty }
        }

        /// `--snr`; without it, clean and 10 dB, or clean alone when only recordings are heard (a
        /// recording has its own room) and no noise was asked for.
        func snrs(recordingsOnly: Bool = false) -> String {
            snr ?? (recordingsOnly && noise == nil && noiseFile == nil ? "clean" : "clean,10")
        }

        func conditions(defaultNoise: String, recordingsOnly: Bool = false) throws(SpeechError)
            -> [NoiseCondition]
        {
            try NoiseCondition.conditions(
                kinds: noiseKinds(defaultNoise: defaultNoise).split(separator: ",").compactMap {
                    NoiseKind(rawValue: $0.trimmed)
                },
                snrs: snrs(recordingsOnly: recordingsOnly).split(separator: ",").map(String.init),
                noiseFiles: noiseFilePaths.map { URL(fileURLWithPath: $0).lastPathComponent })
        }

        /// The test files to hear: `--tests` or `defaultFiles`, then every `--also`.
        func testFiles(default defaultFiles: [URL], context: AppContext, locale: String) throws -> [URL] {
            let main = tests.map { [URL(fileURLWithPath: $0)] } ?? defaultFiles
            guard !main.isEmpty else {
                throw CommandFailure(
                    "\(context.executableName) has no phrase tests (\(locale)/tests/\(context.executableName).yaml); give a file with --tests"
                )
            }
            return main + also.map { URL(fileURLWithPath: $0) }
        }

        /// How clips are heard for `context` with these options: the noise conditions (those for
        /// recordings only when `recordingsOnly`), the noise recordings loaded, the voices, the
        /// cache and the recognizer.
        func evaluation(_ context: AppContext, recordingsOnly: Bool, defaultNoise: String) throws
            -> SpokenEvaluation
        {
            var evaluation = SpokenEvaluation(
                voices: voiceList, rates: rateList,
                conditions: try conditions(defaultNoise: defaultNoise, recordingsOnly: recordingsOnly),
                configuration: try recognizerOptions.configuration(app: context.executableName), workers: jobs
            )
            evaluation.recordingLead = lead
            evaluation.takes = takes
            for path in noiseFilePaths {
                let url = URL(fileURLWithPath: path)
                let noise = try SpokenEvaluation.recording(url)
                guard NoiseMixer.activeLevel(noise) > 0 else {
                    throw CommandFailure("\(path): the noise recording is silent")
                }
                evaluation.noiseFiles[url.lastPathComponent] = noise
            }
            if !noCache {
                evaluation.cache = try SpeechCache(
                    folder: cache.map { URL(fileURLWithPath: $0) } ?? SpeechCache.defaultFolder)
            }
            return evaluation
        }

        /// The clips of `files` heard under `grammar` with a progress bar, and matched; or, with
        /// `--report-only`, the clips a run wrote to `folder/clips.jsonl`.
        func report(
            _ context: AppContext, files: [URL], otherSpeech: [URL] = [], matcher: PhraseMatcher,
            grammar: SpeechGrammar, folder: URL, commandName: String, defaultNoise: String
        ) async throws -> EvaluationReport {
            if reportOnly {
                return try Self.report(
                    app: context.description.name, from: folder.appendingPathComponent("clips.jsonl"),
                    commandName: commandName)
            }
            var cases: [PhraseTestSuite.Case] = []
            for suite in try PhraseTestSuite.load(from: files) {
                cases += suite.cases.filter { testCase in
                    // Several commands in one sentence are said only to a grammar that joins them.
                    if case .joined = testCase.expectation, !recognizerOptions.joinedCommands { return false }
                    return !recordedOnly || testCase.audio != nil
                }
            }
            cases += try await Self.otherSpeech(otherSpeech, besides: cases, matcher: matcher, app: context)
            guard !cases.isEmpty else {
                throw CommandFailure(
                    "no tests to hear in \(files.map(\.relativePath).joined(separator: ", "))\(recordedOnly ? " with audio: (--recorded-only)" : "")"
                )
            }
            let evaluation = try evaluation(
                context, recordingsOnly: cases.allSatisfy { $0.audio != nil }, defaultNoise: defaultNoise)
            let items = evaluation.items(for: cases.spread(count: sample))
            let progress = ProgressBar(title: context.executableName, total: items.count)
            let heard = try evaluation.hear(items, grammar: grammar) { done, _ in progress.advance(to: done) }
            progress.finish()
            return await EvaluationReport(
                app: context.description.name, heard: heard, matcher: matcher,
                valueMargin: recognizerOptions.valueMarginInForce)
        }

        /// The own test files of the apps `--other-speech-of` names (not `context`'s own).
        func otherSpeechFiles<Apps: AppSet>(
            _ apps: Apps.Type, besides context: AppContext, phrases: PhraseLocation
        ) throws -> [URL] {
            try otherSpeechOf.map { name in
                let other = try Apps.app(name)
                guard other.executableName != context.executableName else {
                    throw CommandFailure("--other-speech-of \(name): that is the app being heard")
                }
                guard let file = other.ownTestFile(phrases) else {
                    throw CommandFailure(
                        "--other-speech-of \(name): it has no phrase tests (\(phrases.locale)/tests/\(name).yaml)"
                    )
                }
                return file
            }
        }

        /// The recordings of other apps' test `files` as speech that is no command of `app`: all
        /// but those whose sentence `cases` already hold, and those `app`'s phrases match word for
        /// word (a command of both), which are counted on standard error.
        static func otherSpeech(
            _ files: [URL], besides cases: [PhraseTestSuite.Case], matcher: PhraseMatcher, app: AppContext
        ) async throws -> [PhraseTestSuite.Case] {
            guard !files.isEmpty else { return [] }
            var tested = Set(cases.map { TextNormalizer.key($0.sentence) })
            var others: [PhraseTestSuite.Case] = []
            var commands: [String] = []
            for suite in try PhraseTestSuite.load(from: files) {
                for test in suite.cases where test.audio != nil {
                    guard tested.insert(TextNormalizer.key(test.sentence)).inserted else { continue }
                    if let best = await matcher.match(test.sentence).best, best.score >= 1 {
                        commands.append(test.sentence)
                        continue
                    }
                    others.append(
                        PhraseTestSuite.Case(
                            sentence: test.sentence, expectation: .noMatch, source: test.source,
                            audio: test.audio))
                }
            }
            if !commands.isEmpty {
                FileHandle.standardError.write(
                    Data(
                        "\(commands.count) recordings of other apps left out: \(app.executableName)'s phrases match them (\(commands.prefix(3).map { "\"\($0)\"" }.joined(separator: ", "))\(commands.count > 3 ? ", …" : ""))\n"
                            .utf8))
            }
            return others
        }

        /// The report of the clips a run wrote to `file`, dated when they were written.
        static func report(app: String, from file: URL, commandName: String = "evaluate") throws
            -> EvaluationReport
        {
            guard let data = FileManager.default.contents(atPath: file.path) else {
                throw CommandFailure(
                    "no \(file.path) to write the report from: run \(commandName) without --report-only first"
                )
            }
            let decoder = JSONDecoder()
            var clips: [EvaluationReport.Clip] = []
            for (number, line) in data.split(separator: 0x0A).enumerated() {
                do {
                    clips.append(try decoder.decode(EvaluationReport.Clip.self, from: Data(line)))
                } catch {
                    throw CommandFailure(
                        "\(file.path):\(number + 1): not a clip of \(commandName)'s (\(error))")
                }
            }
            let date =
                (try? FileManager.default.attributesOfItem(atPath: file.path))?[.modificationDate] as? Date
            return EvaluationReport(app: app, clips: clips, date: date ?? Date())
        }

        /// The app's command grammar, with the garbage path in force
        /// (``RecognizerOptions/garbagePath(for:locale:)``).
        func grammar(_ matcher: PhraseMatcher, _ context: AppContext, locale: String) throws -> SpeechGrammar
        {
            context.grammar(
                of: matcher, garbage: try recognizerOptions.garbagePath(for: context, locale: locale).model,
                joinsCommands: recognizerOptions.joinedCommands,
                freeText: try recognizerOptions.freeTextWords(locale: locale))
        }

        /// The command line that hears the same clips again: `name command [--app app] …`.
        func reproduction<Apps: AppSet>(
            _ command: String, _ context: AppContext, apps: Apps.Type, defaultNoise: String
        ) -> [String] {
            let name =
                ProcessInfo.processInfo.environment["VOICE_INTENTS_INVOCATION"]
                ?? URL(fileURLWithPath: CommandLine.arguments[0]).lastPathComponent
            var words = [name, command]
            if Apps.hasSeveralApps { words += ["--app", context.executableName] }
            if let tests { words += ["--tests", tests] }
            for file in also { words += ["--also", file] }
            for app in otherSpeechOf { words += ["--other-speech-of", app] }
            if let sample { words += ["--sample", "\(sample)"] }
            if recordedOnly {
                words += ["--recorded-only"]
            } else {
                words += ["--voices", voices, "--rates", rates]
            }
            let snrs = snrs(recordingsOnly: recordedOnly)
            if snrs.split(separator: ",").contains(where: { $0.trimmed != "clean" }) {
                if noise != nil || noiseFile == nil {
                    words += ["--noise", noiseKinds(defaultNoise: defaultNoise)]
                }
                if let noiseFile { words += ["--noise-file", noiseFile] }
                if takes > 1 { words += ["--takes", "\(takes)"] }
            }
            words += ["--snr", snrs]
            if let garbage = recognizerOptions.garbage { words += ["--garbage", garbage.rawValue] }
            if recognizerOptions.decoys { words += ["--decoys"] }
            return words
        }
    }
#endif
