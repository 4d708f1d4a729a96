// With the Evaluation trait (on by default): adapting the acoustic model mixes noise as the
// spoken evaluation does.
#if Evaluation
    import ArgumentParser
    import Foundation
    import PhraseMatching
    import VoiceAudio
    import VoiceEvaluation
    import VoiceRecognition
    import VoiceUnderstanding

    /// `adapt`: adapts the acoustic model to transcribed speech (a user's own recordings, or a
    /// corpus), heard through the recognizer's front end, with Debian's sphinxtrain.
    struct AdaptCommand<Apps: AppSet>: AsyncParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                commandName: "adapt",
                abstract:
                    "Adapt the acoustic model to your voice and room, from recordings and what was said in them.",
                discussion: """
                    Each recording is heard through the recognizer's audio front end, as `listen` hears it, \
                    and the model's means, mixture weights and transition matrices are moved towards it \
                    (MAP), or its means transformed (MLLR), with Debian's sphinxtrain (bw, map_adapt, \
                    mllr_solve, mk_s2sendump). Give the recordings `record` made (--tests \
                    recordings/<app>/tests.yaml) or a corpus (--corpus: lines of a WAV file's path, a tab, \
                    and what was said). --noise adds copies of each recording under those noises, so \
                    that the model also hears you in a noisy room.

                    --save writes the adapted model where `listen`, `serve` and `evaluate` find it for \
                    the app: Models/<locale>/<app>.adaptation/ beside its calibration. Measure it first: \
                    evaluate --tests <other recordings> --adaptation <folder>, against --adaptation \
                    none. Adapt on recordings you do not measure with.

                    A few minutes of your own commands suit MLLR; MAP wants an hour or more \
                    (Scripts/adapt-model.sh makes the shipped model from 2 hours of speech).
                    """)
        }

        @OptionGroup var selection: AppSelection<Apps>

        @Option(
            help: ArgumentHelp(
                "A phrase test file whose tests have audio (what `record` writes); repeat for more.",
                valueName: "file"))
        var tests: [String] = []

        @Option(
            help: ArgumentHelp(
                "A corpus: lines of a WAV file (relative to the corpus) and what was said, separated by a tab; repeat for more.",
                valueName: "file"))
        var corpus: [String] = []

        @Option(
            help: ArgumentHelp(
                "Recorded noise (16 kHz or any WAV) to make noisy copies under, comma-separated; each copy takes the next noise and a stretch of it at random.",
                valueName: "files"))
        var noise: String?

        @Option(help: "Noisy copies of each recording (with --noise).")
        var copies = 2

        @Option(help: "Signal-to-noise ratios in dB for the copies, drawn in turn (with --noise).")
        var snr = "5,10,15,20"

        @Option(
            help:
                "What to adapt: mllr (one transform of the means, for minutes of speech) or map (means, mixture weights, transitions, for an hour or more)."
        )
        var method = ModelAdapter.Method.mllr

        @Option(help: "MAP's prior weight tau (default: estimated by map_adapt from the data).")
        var tau: Double?

        @Option(help: "Rounds of statistics and re-estimation.")
        var passes = 1

        @Flag(help: "With map: adapt the variances too.")
        var variances = false

        @Option(help: "Draws the noise stretches and ratios.")
        var seed: UInt64 = 1

        @Option(
            name: .shortAndLong,
            help:
                "The folder to write the adapted model to (default with --save: Models/<locale>/<app>.adaptation)."
        )
        var output: String?

        @Flag(help: "Write the adapted model where listen, serve and evaluate find it for the app.")
        var save = false

        @Option(help: "A folder for the features and statistics (default: a temporary one, removed after).")
        var work: String?

        @OptionGroup var phraseOptions: PhraseOptions

        @OptionGroup var recognizerOptions: RecognizerOptions

        func validate() throws {
            if tests.isEmpty && corpus.isEmpty {
                throw ValidationError("give recordings: --tests or --corpus")
            }
            if output == nil && !save { throw ValidationError("say where: --output <folder> or --save") }
            if copies < 0 { throw ValidationError("--copies must be 0 or more") }
            if passes < 1 { throw ValidationError("--passes must be at least 1") }
            if let tau, tau <= 0 { throw ValidationError("--tau must be positive") }
            _ = try ratios()
        }

        private func ratios() throws -> [Double] {
            let values = snr.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard !values.isEmpty, values.allSatisfy({ $0 != nil }) else {
                throw ValidationError("--snr takes decibels, comma-separated (5,10,15)")
            }
            return values.map { $0! }
        }

        func run() async throws {
            try await reportingFailures {
                let started = Date()
                let context = try selection.context()
                var models = try recognizerOptions.configuration(app: context.executableName)
                let destination: URL
                if let output {
                    destination = URL(fileURLWithPath: output)
                } else {
                    guard let url = AcousticAdaptation.installedURL(app: context.executableName) else {
                        throw CommandFailure("no installed models to save beside; give --output")
                    }
                    destination = url
                }
                // Adapting again starts from what the app already hears with, unless that is the
                // folder being written (then from the models' own).
                if models.adaptation?.folder.path == destination.standardizedFileURL.path {
                    models.adaptation = try SpeechRecognizer.Configuration.installed().adaptation
                }
                let said = try readRecordings()
                guard !said.isEmpty else {
                    throw CommandFailure("no recordings with audio in the files given")
                }
                let noises = try readNoises()
                let clips = try makeClips(said, noises: noises, frontEnd: models.frontEnd)
                let folder =
                    work.map { URL(fileURLWithPath: $0) }
                    ?? FileManager.default.temporaryDirectory
                    .appendingPathComponent("voice-intents-adapt-\(UUID().uuidString)")
                defer { if work == nil { try? FileManager.default.removeItem(at: folder) } }
                let adapter = try ModelAdapter(base: models, work: folder)
                var sources = tests + corpus
                if !noises.isEmpty {
                    sources.append(
                        "\(copies) noisy copies each under \(noises.map(\.name).joined(separator: ", ")) at \(snr) dB"
                    )
                }
                let report = try adapter.adapt(
                    clips,
                    settings: .init(method: method, tau: tau, passes: passes, adaptsVariances: variances),
                    sources: sources, output: destination
                ) { step in say("\(elapsed(since: started)) \(step)") }
                for (word, count) in report.unknownWords.sorted(by: { $0.value > $1.value }).prefix(10) {
                    say("  left out \(count) clips for \"\(word)\", which no dictionary has")
                }
                say(
                    "adapted on \(report.aligned) of \(report.clips) clips (\(String(format: "%.2f", report.hours)) h) in \(elapsed(since: started)); wrote \(destination.path)"
                )
                if save {
                    say(
                        "listen, serve and evaluate of \(context.executableName) now hear with it (--adaptation none: without)"
                    )
                }
            }
        }

        /// A recording and what was said in it.
        private struct Said {
            var audio: URL
            var words: [String]
        }

        private func readRecordings() throws -> [Said] {
            var said: [Said] = []
            for file in tests {
                for testCase in try PhraseTestSuite.load(from: URL(fileURLWithPath: file)).cases {
                    guard let audio = testCase.audio, case .intent = testCase.expectation else { continue }
                    said.append(Said(audio: audio, words: SpeechGrammar.spokenWords(testCase.sentence)))
                }
            }
            for file in corpus {
                let url = URL(fileURLWithPath: file)
                let text: String
                do {
                    text = try String(contentsOf: url, encoding: .utf8)
                } catch {
                    throw CommandFailure("cannot read the corpus \(file): \(error.localizedDescription)")
                }
                for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
                    .enumerated()
                where !line.trimmingCharacters(in: .whitespaces).isEmpty && !line.hasPrefix("#") {
                    let fields = line.split(separator: "\t", maxSplits: 1).map(String.init)
                    guard fields.count == 2 else {
                        throw CommandFailure(
                            "\(file):\(index + 1):1: a corpus line is a WAV file, a tab, and what was said")
                    }
                    let audio =
                        fields[0].hasPrefix("/")
                        ? URL(fileURLWithPath: fields[0])
                        : url.deletingLastPathComponent().appendingPathComponent(fields[0])
                    said.append(Said(audio: audio, words: SpeechGrammar.spokenWords(fields[1])))
                }
            }
            return said
        }

        private func readNoises() throws -> [(name: String, samples: [Float])] {
            try (noise ?? "").split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }.map { path in
                    let samples = try SpokenEvaluation.recording(URL(fileURLWithPath: path))
                    guard NoiseMixer.activeLevel(samples) > 0 else {
                        throw CommandFailure("\(path): the noise recording is silent")
                    }
                    return (URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent, samples)
                }
        }

        /// Each recording heard through the front end, clean and in its noisy copies.
        private func makeClips(
            _ said: [Said], noises: [(name: String, samples: [Float])], frontEnd: AudioFrontEnd.Settings?
        ) throws -> [ModelAdapter.Clip] {
            let ratios = try ratios()
            let frontEnd = try frontEnd.map { try AudioFrontEnd($0) }
            var random = SplitMix64(seed: seed)
            var clips: [ModelAdapter.Clip] = []
            var copy = 0
            let every = max(1, said.count / 20)
            for (index, recording) in said.enumerated() {
                if index % every == 0 {
                    say("  hearing recording \(index + 1) of \(said.count) through the front end")
                }
                let speech = try SpokenEvaluation.recording(recording.audio)
                var versions: [(String, [Float])] = [("clean", speech)]
                if !noises.isEmpty {
                    for _ in 0..<copies {
                        let noise = noises[copy % noises.count]
                        let ratio = ratios[(copy / noises.count) % ratios.count]
                        copy += 1
                        let stretch = NoiseMixer.stretch(
                            of: noise.samples, count: speech.count, generator: &random)
                        let level = NoiseMixer.rms(stretch)
                        guard level > 0 else { continue }
                        let mixed = NoiseMixer.mix(speech, under: stretch.map { $0 / level }, snr: ratio)
                        versions.append(("\(noise.name)-\(Int(ratio))dB", NoiseMixer.belowClipping(mixed)))
                    }
                }
                for (name, samples) in versions {
                    var heard = AudioBuffer(samples: samples, sampleRate: AudioFormat.recognizerSampleRate)
                        .int16Samples
                    if let frontEnd {
                        frontEnd.reset()
                        // The front end works in whole frames: the last part frame is padded out.
                        heard = frontEnd.process(heard + [Int16](repeating: 0, count: 160))
                    }
                    clips.append(
                        ModelAdapter.Clip(
                            name: String(format: "clip%05d-", index) + name, samples: heard,
                            words: recording.words))
                }
            }
            return clips
        }

        /// Writes a line to standard output at once: the steps take minutes.
        private func say(_ line: String) {
            FileHandle.standardOutput.write(Data("\(line)\n".utf8))
        }

        private func elapsed(since start: Date) -> String {
            let seconds = Int(Date().timeIntervalSince(start))
            return String(format: "[%d:%02d]", seconds / 60, seconds % 60)
        }
    }

    extension ModelAdapter.Method: ExpressibleByArgument {}
#endif
