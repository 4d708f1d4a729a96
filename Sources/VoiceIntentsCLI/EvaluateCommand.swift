// With the Evaluation trait (on by default): the spoken evaluation and its calibration.
#if Evaluation
    import ArgumentParser
    import Foundation
    import PhraseMatching
    import Synchronization
    import VoiceAudio
    import VoiceEvaluation
    import VoiceIntents
    import VoiceRecognition

    /// `evaluate`: how well the app's phrase tests survive being spoken, in several voices and in
    /// noise, or as recorded.
    struct EvaluateCommand<Apps: AppSet>: AsyncParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                commandName: "evaluate",
                abstract:
                    "Speak the phrase tests in several voices and noises, hear them, and report what went wrong.",
                discussion: """
                    Every sentence of the app's phrase tests (Phrases/<locale>/tests/<app>.yaml) is spoken by \
                    eSpeak NG in each --voices voice at each --rates rate, mixed with each --noise at each \
                    --snr, and heard through the app's grammar as `listen --input` hears a recording. \
                    Nothing is performed: the transcript's match is compared with the test. Speech is \
                    cached by content hash (--cache), so a second run only decodes.

                    Recordings of real users: --tests manifest.yaml, a phrase test file whose tests name \
                    their recording with audio: (a WAV file, or .raw 16 kHz 16-bit mono PCM), relative to \
                    the manifest:
                      tests:
                        - { audio: clips/0001.wav, say: "navigate to the map", intent: NavigateIntent, values: { navigationOption: Map } }
                        - { audio: clips/0002.wav, say: "what a lovely day", intent: none }

                    Writes report.md, report.json (the figures), clips.jsonl (every clip), accuracy.svg and \
                    latency.svg to --output (one folder per app when several are evaluated). --min-acceptance and --max-false-accepts make it \
                    exit 1 when a figure is worse, for CI.

                    --also adds another test file, e.g. the sentences that are a command for no app: \
                    --also Phrases/en/tests/out-of-domain.yaml.

                    The full sweep: evaluate --noise white,pink,babble --snr clean,20,10,5
                    """)
        }

        @OptionGroup var selection: AppSelection<Apps>

        @OptionGroup var phraseOptions: PhraseOptions

        @OptionGroup var spoken: SpokenTestOptions

        @Option(name: .shortAndLong, help: "The folder to write the report to.")
        var output = "evaluation"

        @Option(
            help: ArgumentHelp(
                "The lowest confidence (0 to 1) counted as acted on, as `listen --min-confidence`.",
                discussion:
                    "A clip that reached an intent below it is not acted on: a command there is a false reject, speech that is no command is no false accept. Default: what `listen` would use, the app's calibration or else the models' default (minimumConfidence). 0 counts everything the grammar fits."
            ))
        var minConfidence: Double?

        @Option(help: "Fail (exit 1) when command acceptance, in percent, is lower.")
        var minAcceptance: Double?

        @Option(help: "Fail (exit 1) when false accepts on no-match sentences, in percent, are higher.")
        var maxFalseAccepts: Double?

        func validate() throws {
            if let minConfidence, !(0...1).contains(minConfidence) {
                throw ValidationError("--min-confidence takes 0 to 1, not \(minConfidence)")
            }
        }

        func run() async throws {
            try await reportingFailures {
                let contexts = try selection.contexts()
                var failures: [String] = []
                for context in contexts {
                    let folder =
                        contexts.count > 1
                        ? URL(fileURLWithPath: output).appendingPathComponent(context.executableName)
                        : URL(fileURLWithPath: output)
                    failures += try await evaluate(context, into: folder)
                }
                if !failures.isEmpty {
                    for failure in failures {
                        FileHandle.standardError.write(Data("error: \(failure)\n".utf8))
                    }
                    throw ExitCode(1)
                }
            }
        }

        /// Evaluates one app and writes its report; returns the thresholds it missed.
        private func evaluate(_ context: AppContext, into folder: URL) async throws -> [String] {
            let files = try spoken.testFiles(
                default: context.ownTestFile(phraseOptions.location).map { [$0] } ?? [], context: context,
                locale: phraseOptions.locale)
            let matcher = try await context.matcher(phraseOptions.location)
            // Counted as `listen` would act: at its bar, with the garbage path that goes with it.
            let bar = try ConfidenceBar.resolve(
                minConfidence: minConfidence, context: context, locale: phraseOptions.locale,
                recognizerOptions: spoken.recognizerOptions)
            let grammar = context.grammar(
                of: matcher, garbage: bar.garbage.model,
                joinsCommands: spoken.recognizerOptions.joinedCommands,
                freeText: try spoken.recognizerOptions.freeTextWords(locale: phraseOptions.locale))
            let report = try await spoken.report(
                context, files: files,
                otherSpeech: try spoken.otherSpeechFiles(
                    Apps.self, besides: context, phrases: phraseOptions.location),
                matcher: matcher, grammar: grammar, folder: folder,
                commandName: "evaluate",
                defaultNoise: "babble"
            ).acting(at: bar.value)

            // Which words name values, and which pronunciations are guesses, for the suggestions.
            let recognizer = try SpeechRecognizer(
                try spoken.recognizerOptions.configuration(app: context.executableName))
            try recognizer.useGrammar(grammar)
            let guessed = Set(recognizer.guessedWords.keys)
            // A value word is one of a value's names and not a word of the phrases around it.
            var valueWords = Set<String>()
            var phraseWords = Set<String>()
            func collect(_ elements: [PhraseElement]) {
                for element in elements {
                    switch element {
                    case .word(let word): phraseWords.insert(word)
                    case .optional(let inner): collect(inner)
                    case .alternatives(let choices), .permutation(let choices): choices.forEach(collect)
                    case .applicationName, .placeholder: break
                    }
                }
            }
            for phrase in matcher.spokenForms.phrases {
                collect(phrase.elements)
                for values in phrase.placeholders.values {
                    switch values {
                    case .names(let names), .suggestedText(let names): valueWords.formUnion(names.joined())
                    default: break
                    }
                }
            }
            valueWords.subtract(phraseWords)

            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let plots = ["accuracy.svg", "latency.svg"]
            try report.accuracyPlot().write(
                to: folder.appendingPathComponent(plots[0]), atomically: true, encoding: .utf8)
            try report.latencyPlot().write(
                to: folder.appendingPathComponent(plots[1]), atomically: true, encoding: .utf8)
            let grammarWords = Set(grammar.words)
            let markdown = report.markdown(command: reproduction(context), bar: bar.origin, plots: plots) {
                word in
                EvaluationReport.WordKind(
                    isValue: valueWords.contains(word), isGuessed: guessed.contains(word),
                    isInGrammar: grammarWords.contains(word))
            }
            try markdown.write(
                to: folder.appendingPathComponent("report.md"), atomically: true, encoding: .utf8)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(report).write(to: folder.appendingPathComponent("report.json"))
            if !spoken.reportOnly {
                try report.clipLines().write(to: folder.appendingPathComponent("clips.jsonl"))
            }

            let figures = report.overall
            // A share of no clips at all says nothing: a run of other speech only has no commands.
            let acceptance =
                figures.commands > 0
                ? "command acceptance \(EvaluationReport.percent(figures.commandAcceptance)) of \(figures.commands)"
                : "no commands"
            print(
                """
                \(context.executableName): \(bar.origin)
                \(context.executableName): \(figures.clips) clips; \(acceptance), \
                false accepts \(EvaluationReport.percent(figures.falseAccepts)) of \(figures.noMatchClips), \
                false rejects \(EvaluationReport.percent(figures.falseRejects)), word error rate \
                \(EvaluationReport.percent(figures.wordErrorRate)), real-time factor \(String(format: "%.3f", figures.realTimeFactor))
                wrote \(folder.path)/report.md, report.json, clips.jsonl, \(plots.joined(separator: ", "))
                """)
            var failures: [String] = []
            if let minAcceptance, figures.commandAcceptance * 100 < minAcceptance {
                failures.append(
                    "\(context.executableName): command acceptance \(EvaluationReport.percent(figures.commandAcceptance)) is below --min-acceptance \(minAcceptance)%"
                )
            }
            if let maxFalseAccepts, figures.falseAccepts * 100 > maxFalseAccepts {
                failures.append(
                    "\(context.executableName): false accepts \(EvaluationReport.percent(figures.falseAccepts)) are above --max-false-accepts \(maxFalseAccepts)%"
                )
            }
            return failures
        }

        /// The command line that gives this app's report again.
        private func reproduction(_ context: AppContext) -> String {
            spoken.reproduction("evaluate", context, apps: Apps.self, defaultNoise: "babble").joined(
                separator: " ")
        }
    }

    extension Substring {
        var trimmed: String { trimmingCharacters(in: .whitespaces) }
    }

    /// A progress bar with the time left, on standard error: redrawn in place on a terminal, a line
    /// every tenth of the way otherwise (a CI log).
    final class ProgressBar: Sendable {
        private struct State {
            var done = 0
            var lastTenth = -1
        }

        private let title: String
        private let total: Int
        private let started = ContinuousClock.now
        private let isTerminal = isatty(STDERR_FILENO) != 0
        private let state = Mutex(State())

        init(title: String, total: Int) {
            self.title = title
            self.total = total
        }

        func advance(to done: Int) {
            state.withLock { state in
                state.done = max(state.done, done)
                let seconds = started.duration(to: .now).inSeconds
                let left = state.done > 0 ? seconds / Double(state.done) * Double(total - state.done) : 0
                let share = total > 0 ? Double(state.done) / Double(total) : 1
                let line = "\(title): \(state.done)/\(total) clips, \(Self.clock(left)) left"
                if isTerminal {
                    let filled = Int(share * 30)
                    let bar =
                        String(repeating: "█", count: filled) + String(repeating: "░", count: 30 - filled)
                    FileHandle.standardError.write(Data("\r\(bar) \(line)\u{1B}[K".utf8))
                } else if Int(share * 10) > state.lastTenth {
                    state.lastTenth = Int(share * 10)
                    FileHandle.standardError.write(Data("\(line)\n".utf8))
                }
            }
        }

        func finish() {
            if isTerminal { FileHandle.standardError.write(Data("\n".utf8)) }
        }

        static func clock(_ seconds: Double) -> String {
            let whole = Int(seconds.rounded())
            return String(format: "%d:%02d", whole / 60, whole % 60)
        }
    }
#endif
