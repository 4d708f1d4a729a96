// With the Evaluation trait (on by default): noisy copies of the takes are mixed as the spoken
// evaluation mixes its clips.
#if Evaluation
    import Foundation
    import PhraseMatching
    import VoiceAudio
    import VoiceEvaluation
    import VoiceRecognition

    extension CalibrateCommand {
        /// `calibrate --wake-word`: hears the user's takes of `name` (and noisy copies of them),
        /// chooses the model's cutoff and the check's margin for them, prints what each costs,
        /// writes the choice and its plot to `folder`, and with `--save` next to the app's models.
        func calibrateWakeWord(_ name: String, _ context: AppContext, into folder: URL) async throws {
            let model = try WakeWordDetector.model(named: name, among: WakeWordDetector.installedModels())
            let takesFolder = URL(fileURLWithPath: wakeWordTakes ?? WakeWordTakes.defaultFolder(name))
            let files = try WakeWordTakes.files(in: takesFolder, model: name)
            guard files.count >= WakeWordCalibration.fewestTakes else {
                throw CommandFailure(
                    "\(files.count) takes of \(name) in \(takesFolder.relativePath): settings are chosen from \(WakeWordCalibration.fewestTakes) or more; record more with: record --wake-word \(name) --takes 12"
                )
            }
            // Each take is heard as recorded, and under each noise asked for: by default babble at
            // 10 dB, so that the check's margin keeps the user's word in a room with talk in it
            // (Benchmarks/Recognition/README.md, "The check's margin chosen for each person").
            let evaluation = try spoken.evaluation(context, recordingsOnly: false, defaultNoise: "babble")
            let cases = files.map {
                PhraseTestSuite.Case(
                    sentence: $0.lastPathComponent, expectation: .noMatch,
                    source: PhraseSource(file: takesFolder.path, line: 0, column: 0), audio: $0)
            }
            let items = evaluation.items(for: cases)
            let mixer = NoiseMixer(
                babble: items.contains { $0.condition.kind == .babble } ? try evaluation.babbleTrack() : nil)
            var takes: [(file: String, condition: String, audio: [Int16])] = []
            var copies: [(file: String, condition: String, audio: [Int16])] = []
            for item in items {
                let audio = try evaluation.clip(item, mixer: mixer)
                if item.condition == .clean {
                    takes.append((item.testCase.sentence, "as recorded", audio))
                } else {
                    let condition = "\(item.condition)" + (item.take == 0 ? "" : ", take \(item.take + 1)")
                    copies.append((item.testCase.sentence, condition, audio))
                }
            }
            guard !takes.isEmpty else {
                throw CommandFailure(
                    "--snr must include clean: the cutoff is chosen on the takes as recorded")
            }

            let recognizer = try SpeechRecognizer(evaluation.configuration)
            let progress = ProgressBar(title: "\(name) takes", total: takes.count + copies.count)
            let invocation =
                ProcessInfo.processInfo.environment["VOICE_INTENTS_INVOCATION"] ?? context.executableName
            let calibration = try WakeWordCalibration.choose(
                takes: takes, copies: copies, model: model, recognizer: recognizer,
                date: ISO8601DateFormatter().string(from: Date()),
                command: ([invocation] + CommandLine.arguments.dropFirst()).joined(separator: " ")
            ) { done, _ in progress.advance(to: done) }
            progress.finish()

            print(Self.table(calibration), terminator: "")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let base = "wake-word.\(model.name)"
            try calibration.write(to: folder.appendingPathComponent("\(base).json"))
            try calibration.plot().write(
                to: folder.appendingPathComponent("\(base).svg"), atomically: true, encoding: .utf8)
            print("wrote \(folder.path)/\(base).json, \(base).svg")
            let heard = calibration.heard.filter { $0.condition == "as recorded" }.count
            if Double(heard) < 0.9 * Double(takes.count) {
                print(
                    "warning: only \(heard) of \(takes.count) takes as recorded are heard with these settings: say the word as you would to wake the app, nearer the microphone, or choose another word (--wake-word)"
                )
            }
            if save {
                guard
                    let url = WakeWordCalibration.installedURL(
                        app: context.executableName, model: model.name, locale: phraseOptions.locale)
                else {
                    throw CommandFailure(
                        "no Models/\(phraseOptions.locale)/manifest.yaml found (or $VOICE_INTENTS_MODELS) to save the calibration next to"
                    )
                }
                try calibration.write(to: url)
                print("saved to \(url.path): listen --wake-word \(model.name) uses it")
            }
        }

        /// The chosen settings and what they keep, for each way the takes were heard: at the
        /// model's own cutoff, at the chosen one, and with the check at the chosen margin.
        static func table(_ calibration: WakeWordCalibration) -> String {
            let format = { (value: Double) in String(format: "%.2f", value) }
            let margin = calibration.checkMargin
            var lines = [
                "\(calibration.model): cutoff \(format(calibration.cutoff)) (the model's own \(format(calibration.modelCutoff))), "
                    + (margin.map { "the check at \(String(format: "%.0f", $0))" }
                        ?? "no check (a margin that keeps your takes would be under \(String(format: "%.0f", WakeWordCalibration.lowestUsefulMargin)), where it turns little away)"),
                "| how heard | takes | woken at \(format(calibration.modelCutoff)) | woken at \(format(calibration.cutoff)) | heard with the check |",
                "|---|---|---|---|---|",
            ]
            let conditions = calibration.conditions
            for condition in conditions {
                let here = calibration.takes.filter { $0.condition == condition }
                let own = here.filter { $0.peak > calibration.modelCutoff }.count
                let woken = here.filter { $0.peak > calibration.cutoff }
                let checked =
                    margin.map { minimum in
                        "\(woken.filter { ($0.margin ?? -.infinity) >= minimum }.count)"
                    } ?? "—"
                lines.append("| \(condition) | \(here.count) | \(own) | \(woken.count) | \(checked) |")
            }
            let margins = calibration.takes.compactMap(\.margin).filter(\.isFinite).sorted()
            if !margins.isEmpty {
                lines.append(
                    String(
                        format:
                            "the check's margin on the takes woken: lowest %.1f, median %.1f, highest %.1f",
                        margins[0], margins[margins.count / 2], margins[margins.count - 1]))
            }
            let missed = calibration.takes.filter { !calibration.heard.contains($0) }
            if !missed.isEmpty {
                lines.append(
                    "not heard: "
                        + missed.map {
                            "\($0.file) (\($0.condition): \(format($0.peak))\($0.margin.map { String(format: ", margin %.0f", $0) } ?? ""))"
                        }.joined(separator: ", "))
            }
            return lines.joined(separator: "\n") + "\n"
        }
    }
#endif
