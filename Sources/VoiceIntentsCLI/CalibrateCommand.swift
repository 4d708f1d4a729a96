// With the Evaluation trait (on by default): the spoken evaluation and its calibration.
#if Evaluation
    import ArgumentParser
    import Foundation
    import PhraseMatching
    import VoiceAudio
    import VoiceEvaluation
    import VoiceRecognition

    /// `calibrate`: chooses the confidence threshold under which heard commands are ignored, on the
    /// app's spoken tests, and shows what it costs on clips it was not chosen on.
    struct CalibrateCommand<Apps: AppSet>: AsyncParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                commandName: "calibrate",
                abstract:
                    "Choose the confidence threshold that rejects what is not a command, and print the trade-off.",
                discussion: """
                    Speaks the app's phrase tests (with their near misses) and the shared out-of-domain \
                    sentences (Phrases/<locale>/tests/out-of-domain.yaml) as `evaluate` does (but with pink \
                    noise unless --noise says otherwise: babble at 10 dB leaves too few commands heard \
                    right to choose on), with the recognizer's confidence measured. A clip is accepted at a threshold when it reached an \
                    intent with a confidence at least the threshold. Clips are split in two halves by a hash \
                    of their sentence; the threshold is the one with the fewest wrong accepts whose false \
                    rejects stay within --max-false-rejects on the tuning half, and its figures on the \
                    held-out half are what it is worth.

                    Prints the curve (threshold, and on each half: false accepts of non-commands, wrong \
                    accepts of commands, false rejects of commands heard right, all commands not accepted), \
                    and writes calibration.json, calibration.svg and clips.jsonl to --output (one folder \
                    per app when several are calibrated). --save writes the threshold to \
                    Models/<locale>/<app>.calibration.json, where `listen` finds it. It saves only a \
                    threshold chosen on people's recordings (--recorded-only, with recordings of the app's \
                    commands among the tests): eSpeak NG's voices fit the acoustic model about as badly as \
                    people's other speech does, so a threshold chosen on them lets most talk through. An \
                    app without a calibration listens with the models' default, chosen on people.

                    With --wake-word, it chooses a trained wake word's settings for your voice instead, \
                    from your own takes of it (record --wake-word): the cutoff above which the model \
                    wakes, and the margin of the recognizer's check behind it, or no check where a margin \
                    that keeps your takes would turn away little. Each take is heard as recorded and \
                    under babble at 10 dB (--snr, --noise and --noise-file choose other copies; --snr \
                    clean none), so that the check keeps your word when people talk nearby. \
                    --save writes them to Models/<locale>/<app>.wake-word.<model>.json, which `listen` \
                    uses whenever it listens for that word.
                    """)
        }

        @OptionGroup var selection: AppSelection<Apps>

        @OptionGroup var phraseOptions: PhraseOptions

        @OptionGroup var spoken: SpokenTestOptions

        @Option(name: .shortAndLong, help: "The folder to write the curve, plot and clips to.")
        var output = "calibration"

        @Option(
            help: "The most false rejects of commands heard right the threshold may cost on the tuning half.")
        var maxFalseRejects = "2%"

        @Option(help: "The step between the thresholds printed.")
        var step = 0.05

        @Flag(
            help:
                "Write the threshold to Models/<locale>/<app>.calibration.json for `listen` (only one chosen on people's recordings: --recorded-only)."
        )
        var save = false

        @Option(
            help: ArgumentHelp(
                "Choose this trained wake word's cutoff and check for your own takes of it (record --wake-word), instead of the confidence threshold.",
                valueName: "model"))
        var wakeWord: String?

        @Option(
            help: ArgumentHelp(
                "With --wake-word: the folder of takes (default: recordings/wake-word-<model>, where record --wake-word puts them).",
                valueName: "folder"))
        var wakeWordTakes: String?

        func validate() throws {
            if wakeWord != nil {
                for (name, given) in [
                    ("--tests", spoken.tests != nil), ("--also", !spoken.also.isEmpty),
                    ("--other-speech-of", !spoken.otherSpeechOf.isEmpty), ("--sample", spoken.sample != nil),
                    ("--recorded-only", spoken.recordedOnly), ("--report-only", spoken.reportOnly),
                ] where given {
                    throw ValidationError("--wake-word hears your takes of the wake word: leave out \(name)")
                }
                return
            }
            if wakeWordTakes != nil { throw ValidationError("--wake-word-takes is for --wake-word") }
            guard falseRejectCap != nil else {
                throw ValidationError(
                    "--max-false-rejects takes a percentage from 0 to 100, e.g. 2% (got \"\(maxFalseRejects)\")"
                )
            }
            guard step > 0, step <= 0.5 else { throw ValidationError("--step takes 0.01 to 0.5, e.g. 0.05") }
            guard !save || spoken.recordedOnly || spoken.reportOnly else {
                throw ValidationError(Self.notChosenOnPeople)
            }
        }

        /// Why `--save` keeps no threshold chosen on eSpeak NG's speech.
        static var notChosenOnPeople: String {
            """
            --save keeps only a threshold chosen on people's recordings: add --recorded-only, with \
            recordings of the app's commands among the tests (audio: in a phrase test file). eSpeak NG's \
            voices fit the acoustic model about as badly as people's other speech does, so a threshold \
            chosen on them lets most talk through; without a calibration the app listens with the \
            models' default, chosen on people (Benchmarks/Calibration/people/README.md).
            """
        }

        /// `--max-false-rejects` as a share: "2%" or "2" is 0.02.
        var falseRejectCap: Double? {
            let text = maxFalseRejects.trimmingCharacters(in: .whitespaces)
            let number = text.hasSuffix("%") ? String(text.dropLast()) : text
            guard let percent = Double(number.trimmingCharacters(in: .whitespaces)),
                (0...100).contains(percent)
            else {
                return nil
            }
            return percent / 100
        }

        func run() async throws {
            try await reportingFailures {
                let contexts = try selection.contexts()
                for context in contexts {
                    let folder =
                        contexts.count > 1
                        ? URL(fileURLWithPath: output).appendingPathComponent(context.executableName)
                        : URL(fileURLWithPath: output)
                    if let wakeWord {
                        try await calibrateWakeWord(wakeWord, context, into: folder)
                        continue
                    }
                    try await calibrate(context, into: folder)
                }
            }
        }

        private func calibrate(_ context: AppContext, into folder: URL) async throws {
            let files = try spoken.testFiles(
                default: context.testFiles(phraseOptions.location), context: context,
                locale: phraseOptions.locale
            )
            let matcher = try await context.matcher(phraseOptions.location)
            let grammar = try spoken.grammar(matcher, context, locale: phraseOptions.locale)
            let report = try await spoken.report(
                context, files: files,
                otherSpeech: try spoken.otherSpeechFiles(
                    Apps.self, besides: context, phrases: phraseOptions.location),
                matcher: matcher, grammar: grammar, folder: folder,
                commandName: "calibrate", defaultNoise: "pink")
            let samples = try Self.samples(report.clips, file: folder.appendingPathComponent("clips.jsonl"))
            var calibration = Calibration(
                app: context.executableName,
                measure: Calibration.measure(
                    garbage: grammar.garbage, decoys: spoken.recognizerOptions.decoys),
                samples: samples,
                maxFalseRejects: falseRejectCap ?? 0.02,
                command: spoken.reproduction("calibrate", context, apps: Apps.self, defaultNoise: "pink")
                    .joined(
                        separator: " ")
                    + (maxFalseRejects == "2%" ? "" : " --max-false-rejects \(maxFalseRejects)"))
            calibration.frontEnd = AudioFrontEnd.Settings.argument(
                try spoken.recognizerOptions.configuration().frontEnd)

            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try calibration.write(to: folder.appendingPathComponent("calibration.json"))
            try calibration.plot().write(
                to: folder.appendingPathComponent("calibration.svg"), atomically: true, encoding: .utf8)
            if !spoken.reportOnly {
                try report.clipLines().write(to: folder.appendingPathComponent("clips.jsonl"))
            }

            print(Self.table(calibration, samples: samples, step: step), terminator: "")
            let held = calibration.heldOut
            print(
                """
                \(context.executableName): threshold \(String(format: "%.3f", calibration.threshold)), chosen on \
                \(calibration.tuning.clips) clips (false rejects ≤ \(EvaluationReport.percent(calibration.maxFalseRejects)) there); \
                held out (\(held.clips) clips): false accepts \(EvaluationReport.percent(held.falseAccepts)) of \(held.nonCommands) \
                non-commands, wrong accepts \(EvaluationReport.percent(held.wrongAccepts)) of \(held.commands) commands, \
                false rejects \(EvaluationReport.percent(held.falseRejects)) of \(held.rightCommands) heard right \
                (\(EvaluationReport.percent(held.allFalseRejects)) of all commands not accepted)
                wrote \(folder.path)/calibration.json, calibration.svg\(spoken.reportOnly ? "" : ", clips.jsonl")
                """)
            print(
                Self.recordings(report.clips, samples: samples, threshold: calibration.threshold),
                terminator: "")
            if save {
                guard report.clips.allSatisfy({ $0.speaker == "recorded" }),
                    report.clips.contains(where: { $0.isCommand })
                else { throw CommandFailure(Self.notChosenOnPeople) }
                guard
                    let url = Calibration.installedURL(
                        app: context.executableName, locale: phraseOptions.locale)
                else {
                    throw CommandFailure(
                        "no Models/\(phraseOptions.locale)/manifest.yaml found (or $VOICE_INTENTS_MODELS) to save the calibration next to"
                    )
                }
                try calibration.write(to: url, withCurve: false)
                print("saved \(url.path)")
            }
        }

        /// The sweep's view of each clip: its confidence (0 when nothing was heard) and outcome.
        static func samples(_ clips: [EvaluationReport.Clip], file: URL) throws -> [Calibration.Sample] {
            guard !clips.isEmpty else { throw CommandFailure("no clips to calibrate on") }
            return try clips.map { clip in
                guard let score = clip.confidence else {
                    throw CommandFailure(
                        "\(file.path): \"\(clip.sentence)\" has no confidence; run calibrate without --report-only"
                    )
                }
                return Calibration.Sample(
                    sentence: clip.sentence, score: score, isCommand: clip.isCommand,
                    reachedIntent: clip.gotIntent != nil, isRight: clip.isRight)
            }
        }

        /// How the threshold treats the clips heard as recorded (tests with `audio:`), both halves: people
        /// fit the acoustic model better than eSpeak NG's voices, so a threshold chosen mostly on
        /// synthetic speech can let real speech through. Empty when there are none.
        static func recordings(
            _ clips: [EvaluationReport.Clip], samples: [Calibration.Sample], threshold: Double
        ) -> String {
            let recorded = zip(clips, samples).filter { $0.0.speaker == "recorded" }
            var lines = ""
            for isCommand in [false, true] {
                let group = recorded.filter { $0.0.isCommand == isCommand }
                guard !group.isEmpty else { continue }
                let accepted = group.filter { $0.1.isAccepted(at: threshold) }
                let asking = accepted.filter { $0.0.asks != nil }.count
                lines +=
                    "recordings \(isCommand ? "of commands" : "that are no command"): \(accepted.count) of \(group.count) accepted"
                    + (isCommand || asking == 0 ? "" : " (\(asking) of them only to ask for a value)")
                let shown = (isCommand ? group.filter { !$0.1.isAccepted(at: threshold) } : accepted).map {
                    let asks =
                        isCommand ? nil : $0.0.asks.map { ", asks for \($0.joined(separator: " and "))" }
                    return
                        "\"\($0.0.sentence.prefix(40))\" (\($0.0.condition), \(String(format: "%.2f", $0.1.score))\(asks ?? ""))"
                }
                lines +=
                    shown.isEmpty
                    ? "\n" : (isCommand ? "; not: " : ": ") + shown.joined(separator: ", ") + "\n"
            }
            return lines
        }

        /// The trade-off curve as a table: a row every `step`, and the chosen threshold's row (→).
        static func table(_ calibration: Calibration, samples: [Calibration.Sample], step: Double) -> String {
            let (tuning, heldOut) = Calibration.split(samples)
            let steps = Int((1 / step).rounded(.down))
            var thresholds = (0...steps).map { Double($0) * step }
            if !thresholds.contains(where: { abs($0 - calibration.threshold) < 1e-9 }) {
                thresholds.append(calibration.threshold)
            }
            thresholds.sort()
            func cell(_ share: Double) -> String {
                let text = String(format: "%.1f%%", share * 100)
                return String(repeating: " ", count: max(0, 6 - text.count)) + text
            }
            var out = """
                  threshold |  tuning: FA  wrong     FR  FRall | held out: FA  wrong     FR  FRall
                ------------+----------------------------------+-------------------------------------

                """
            for threshold in thresholds {
                let a = Calibration.figures(tuning, at: threshold)
                let b = Calibration.figures(heldOut, at: threshold)
                let mark = abs(threshold - calibration.threshold) < 1e-9 ? "→" : " "
                out +=
                    "\(mark) \(String(format: "%9.3f", threshold)) |      \(cell(a.falseAccepts)) \(cell(a.wrongAccepts)) \(cell(a.falseRejects)) \(cell(a.allFalseRejects)) |"
                    + "        \(cell(b.falseAccepts)) \(cell(b.wrongAccepts)) \(cell(b.falseRejects)) \(cell(b.allFalseRejects))\n"
            }
            out += """
                FA: non-commands accepted; wrong: commands accepted with a wrong intent or value; FR: commands \
                heard right but under the threshold; FRall: commands not accepted, for any reason.
                tuning: \(tuning.count) clips (\(tuning.count(where: \.isCommand)) commands); held out: \(heldOut.count) clips \
                (\(heldOut.count(where: \.isCommand)) commands).

                """
            return out
        }
    }
#endif
