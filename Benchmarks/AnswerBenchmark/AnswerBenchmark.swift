// Answer benchmark: how the voice loop tells an answer to a confirmation ("Search for 2 tickets
// to Uluru?") from other speech heard in its place, under the grammar of yes and no; or, with
// `--question landmark` or `--question number`, an answer to "Which landmark?" (TravelTracking's
// landmarks, their short forms) or "How many tickets?" (1 to 30) under the grammar the voice loop
// listens with for such a question.
//
//     VOICE_INTENTS_BENCHMARKS=1 swift build -c release --product answer-benchmark && .build/release/answer-benchmark
//
// Clips: every yes-and-no phrase of `SpokenAnswer` spoken by eSpeak NG (the answers); the
// out-of-domain sentences of `Phrases/en/tests/out-of-domain.yaml` spoken the same way, with
// Debian's recordings it lists, and Asterisk's prompts (one person), as speech that is no answer;
// each clean and in pink noise at 10 dB, heard as `evaluate` hears a clip. For each way of
// deciding, it counts the answers not taken and the other speech taken, by group. It prints
// figures only; it asserts nothing.

import BenchmarkCommand
import BenchmarkSupport
import Foundation
import PhraseMatching
import VoiceAudio
import VoiceEvaluation
import VoiceIntents
import VoiceRecognition
import VoiceUnderstanding

@main
struct AnswerBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "answer-benchmark",
        abstract: "How the voice loop tells an answer to its question from other speech heard in its place.",
        discussion: """
            Answers spoken by eSpeak NG (and, with --people-digits, people's digits) against \
            other speech, clean and in noise at 10 dB, under the grammar the loop listens with for \
            the question. It prints figures only; it asserts nothing.
            """)

    enum Question: String, ExpressibleByArgument, CaseIterable {
        case yesNo = "yes-no", landmark, number
    }

    enum OnOff: String, ExpressibleByArgument, CaseIterable {
        case on, off
    }

    enum Channel: String, ExpressibleByArgument, CaseIterable {
        case learnt, fresh
    }

    @OptionGroup var clips: SpokenClipOptions

    @Option(help: "Every Nth of Asterisk's prompts of 2 to 12 words as other speech; 0 for none.")
    var asterisk = 8

    @Option(help: "The question answered: a confirmation, \"Which landmark?\" or \"How many tickets?\".")
    var question = Question.yesNo

    @Option(help: ArgumentHelp("Each answer said after WORD (\"um three\").", valueName: "WORD"))
    var hesitate: String?

    @Option(
        help:
            "Whether the grammar lets an answer begin with a hesitation (default: as the voice loop does, off for a confirmation, on for the others)."
    )
    var hesitations: OnOff?

    @Option(
        help:
            "With --question number, also people's answers: N takes of each digit by each of the six speakers of the spoken digits (Tests/Recordings holds what N = 1 hears; more takes are read from recordings/spoken-digits of $VOICE_INTENTS_SHARED)."
    )
    var peopleDigits = 0

    @Option(
        help:
            "People's digits heard after three other digits by the same speaker (learnt), as the loop hears an answer, or on a fresh channel."
    )
    var peopleChannel = Channel.learnt

    @Option(
        help: ArgumentHelp(
            "Recorded noise at 10 dB, mixed as `evaluate --noise-file` mixes it, instead of pink noise.",
            valueName: "FILE"))
    var noiseFile: String?

    func run() async throws {
        let voices = clips.voices ?? SpokenEvaluation.defaultVoices
        let jobs = clips.jobs
        let asteriskStride = asterisk
        let question = question.rawValue
        let hesitation = hesitate.map { $0 + " " } ?? ""
        let hesitations =
            (hesitations ?? (question == "yes-no" ? .off : .on)) == .on ? SpeechGrammar.hesitations : []
        let peopleChannel = peopleChannel.rawValue
        let noiseFile = noiseFile.map { URL(fileURLWithPath: $0) }
        let configuration = try SpeechRecognizer.Configuration.installed()
        let source = PhraseSource(file: "answer-benchmark", line: 0, column: 0)
        let answer = PhraseTestSuite.Expectation.intent("answer", values: [:])
        // The answers, and the grammar the voice loop hears them with (`VoiceSession.grammar(for:)`).
        let answers: [String]
        let grammar: SpeechGrammar
        switch self.question {
        case .yesNo:
            answers = SpokenAnswer.yesPhrases + SpokenAnswer.noPhrases
            grammar = SpeechGrammar(answers: [.yesOrNo], name: "confirmation", hesitations: hesitations)
        case .landmark:
            let forms = try await SampleApp.all[0].matcher().spokenForms
            let titles =
                forms.valueNames.first { $0.parameters.contains("landmark") }?.values.map(\.title) ?? []
            let names = titles + SpeechGrammar.shortForms(of: titles)
            answers = names + titles.map { "the \($0)" }
            grammar = SpeechGrammar(
                answers: [.values(.names(names.map(SpeechGrammar.spokenWords).filter { !$0.isEmpty }))],
                name: "landmark", hesitations: hesitations)
        case .number:
            answers = (1...30).map(String.init)
            grammar = SpeechGrammar(answers: [.values(.integer())], name: "number", hesitations: hesitations)
        }
        var cases = answers.map {
            PhraseTestSuite.Case(sentence: hesitation + $0, expectation: answer, source: source)
        }
        // People's answers: single digits said by six speakers (8 kHz, resampled as any recording is).
        var heardBefore: [URL: [URL]] = [:]
        if question == "number", peopleDigits > 0 {
            let names = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
            for speaker in ["george", "jackson", "lucas", "nicolas", "theo", "yweweler"] {
                for digit in 0...9 {
                    for take in 0..<min(peopleDigits, 10) {
                        let file = try PeoplesRecordings.file(
                            "spoken-digits", "\(digit)_\(speaker)_\(take).wav")
                        cases.append(
                            PhraseTestSuite.Case(
                                sentence: names[digit], expectation: answer, source: source, audio: file))
                        // What the speaker said before: other digits, never the clip itself.
                        if peopleChannel == "learnt" {
                            heardBefore[file] = try (1...3).map {
                                try PeoplesRecordings.file(
                                    "spoken-digits", "\((digit + $0) % 10)_\(speaker)_\((take + 5) % 10).wav")
                            }
                        }
                    }
                }
            }
        }
        cases += try PhraseTestSuite.load(
            from: packagePhrases.appendingPathComponent("en/tests/out-of-domain.yaml")
        )
        .cases

        // Asterisk's prompts, as WAV files the evaluation reads like any recording.
        let prompts = FileManager.default.temporaryDirectory.appendingPathComponent(
            "answer-benchmark-\(getpid())")
        defer { try? FileManager.default.removeItem(at: prompts) }
        if asteriskStride > 0 {
            try FileManager.default.createDirectory(at: prompts, withIntermediateDirectories: true)
            for (index, prompt) in try asteriskSentences(wordCounts: 2...12).enumerated()
            where index % asteriskStride == 0 {
                let file = prompts.appendingPathComponent("\(prompt.key).wav")
                try WAVFile.write(
                    AudioBuffer(int16: try readG722("\(asterisk)/\(prompt.key).g722"), sampleRate: 16_000),
                    to: file)
                cases.append(
                    PhraseTestSuite.Case(
                        sentence: prompt.text, expectation: .noMatch, source: source, audio: file))
            }
        }

        var evaluation = SpokenEvaluation(
            voices: voices,
            conditions: try NoiseCondition.conditions(
                kinds: noiseFile == nil ? [.pink] : [], snrs: ["clean", "10"],
                noiseFiles: noiseFile.map { [$0.lastPathComponent] } ?? []),
            configuration: configuration, workers: jobs)
        evaluation.heardBefore = heardBefore
        if let noiseFile {
            evaluation.noiseFiles[noiseFile.lastPathComponent] = try SpokenEvaluation.recording(noiseFile)
        }
        let noisy = evaluation.conditions.first { $0 != .clean }?.description ?? "pink 10 dB"
        evaluation.cache = try SpeechCache(folder: SpeechCache.defaultFolder)
        let items = evaluation.items(for: cases)
        print(
            "answer benchmark, \(question) question\(hesitation.isEmpty ? "" : " (answers after \"\(hesitation.dropLast())\")"), hesitations \(hesitations.isEmpty ? "off" : "on"): \(answers.count) answers, \(items.count) clips (\(voices.count) voices, clean and pink 10 dB), \(jobs) jobs; trailing silence \(configuration.trailingSilence) s"
        )
        let started = ContinuousClock.now
        let heard = try evaluation.hear(items, grammar: grammar) {
            done, total in
            if done % 100 == 0 || done == total {
                FileHandle.standardError.write(Data("\r\(done) of \(total) clips".utf8))
            }
        }
        FileHandle.standardError.write(Data("\n".utf8))
        let elapsed = ContinuousClock.now - started
        let audio = heard.reduce(0) { $0 + $1.duration }
        print(
            "decoded \(String(format: "%.0f", audio)) s of audio in \(elapsed.formatted(.units(allowed: [.seconds], fractionalPart: .show(length: 0)))), real-time factor \(String(format: "%.3f", heard.reduce(0) { $0 + $1.decodeTime } / audio))\n"
        )

        // MARK: Figures

        func isAnswer(_ clip: SpokenEvaluation.Heard) -> Bool { clip.item.testCase.expectation == answer }
        func group(_ clip: SpokenEvaluation.Heard) -> String {
            let who =
                isAnswer(clip)
                ? "answers said"
                : clip.item.speaker == .recording ? "people, no answer" : "eSpeak NG, no answer"
            return "\(who), \(clip.item.condition)"
        }
        let groups = ["answers said", "eSpeak NG, no answer", "people, no answer"].flatMap { who in
            ["clean", noisy].map { "\(who), \($0)" }
        }
        /// One way of deciding whether a clip heard with words is taken as an answer.
        struct Rule {
            let name: String
            let takes: (SpokenEvaluation.Heard) -> Bool
        }
        func confidence(_ clip: SpokenEvaluation.Heard) -> Double { clip.confidence ?? 0 }
        func outsideWords(_ clip: SpokenEvaluation.Heard) -> Double { clip.secondsOutsideWords ?? .infinity }
        func limit(_ slack: Double) -> Double { configuration.trailingSilence + slack }
        var rules = [Rule(name: "any words heard", takes: { _ in true })]
        for bar in [0.5, 0.75, 0.9] {
            rules.append(Rule(name: "confidence ≥ \(bar)", takes: { confidence($0) >= bar }))
        }
        for slack in [0.5, 0.7, 1.0] {
            rules.append(
                Rule(
                    name: "at most \(limit(slack)) s outside the words (slack \(slack) s)",
                    takes: { outsideWords($0) <= limit(slack) }))
        }
        // The confirmation bar on top of the limit the loop uses for a yes or a no: `listen` sets it
        // halfway from the app's command bar to 1 (0.766 and 0.744 for the sample apps' calibrations).
        for bar in [0.5, 0.6, 0.65, 0.7, 0.75, 0.8] {
            rules.append(
                Rule(
                    name: "at most \(limit(0.7)) s outside the words, and confidence ≥ \(bar)",
                    takes: { outsideWords($0) <= limit(0.7) && confidence($0) >= bar }))
        }
        // Any other answer: the loop's limit for it and the sample apps' command bars (about 0.5).
        rules.append(
            Rule(
                name: "at most \(limit(1.0)) s outside the words, and confidence ≥ 0.5",
                takes: { outsideWords($0) <= limit(1.0) && confidence($0) >= 0.5 }))

        print(
            "Answers not taken (of the answers said) and other speech taken, out of the clips of each group:\n"
        )
        print("| answer taken when | " + groups.joined(separator: " | ") + " |")
        print("|---|" + String(repeating: "---|", count: groups.count))
        for rule in rules {
            let cells = groups.map { name -> String in
                let clips = heard.filter { group($0) == name }
                let counted = clips.filter { clip in
                    let taken = !clip.transcript.isEmpty && rule.takes(clip)
                    return isAnswer(clip) ? !taken : taken
                }
                return "\(counted.count) of \(clips.count)"
            }
            print("| \(rule.name) | " + cells.joined(separator: " | ") + " |")
        }

        // Heard right: the answer's words, after any hesitation (what the conversation reads).
        let said = heard.filter(isAnswer)
        let right = said.filter { clip in
            SpeechGrammar.withoutHesitation(clip.transcript)
                == SpeechGrammar.spokenWords(SpeechGrammar.withoutHesitation(clip.item.testCase.sentence))
                .joined(
                    separator: " ")
        }
        print(
            "\nanswers heard right (their words, after any hesitation): \(right.count) of \(said.count); clean \(right.filter { $0.item.condition.description == "clean" }.count)"
        )
        for condition in evaluation.conditions where peopleDigits > 0 {
            let people = said.filter { $0.item.speaker == .recording && $0.item.condition == condition }
            let heardRight = right.filter { $0.item.speaker == .recording && $0.item.condition == condition }
            let taken = heardRight.filter { outsideWords($0) <= limit(1.0) && confidence($0) >= 0.5 }
            print(
                "people's digits (channel \(peopleChannel)), \(condition): heard right \(heardRight.count) of \(people.count) (\(String(format: "%.1f", 100 * Double(heardRight.count) / Double(max(people.count, 1))))%), taken by the loop's limit and a bar of 0.5: \(taken.count)"
            )
        }

        /// The area under the ROC curve of `measure`, answers against other speech (nothing heard
        /// scores lowest).
        func curveArea(_ measure: (SpokenEvaluation.Heard) -> Double) -> Double {
            func score(_ clip: SpokenEvaluation.Heard) -> Double {
                clip.transcript.isEmpty ? -.infinity : measure(clip)
            }
            return areaUnderCurve(
                positives: heard.filter(isAnswer).map(score),
                negatives: heard.filter { !isAnswer($0) }.map(score))
        }
        print(
            """

            AUC, answers against other speech: confidence \(String(format: "%.3f", curveArea(confidence))), \
            seconds outside the words (fewer is better) \(String(format: "%.3f", curveArea { -outsideWords($0) }))
            """)
        let answerConfidence = quantiles(
            heard.filter { isAnswer($0) && !$0.transcript.isEmpty }.map(confidence),
            at: [0.01, 0.02, 0.05, 0.1, 0.5])
        if !answerConfidence.isEmpty {
            print(
                "answers heard: confidence at 1/2/5/10/50%: \(answerConfidence.map { String(format: "%.3f", $0) }.joined(separator: " "))"
            )
        }
        let outside = quantiles(
            heard.filter(isAnswer).compactMap(\.secondsOutsideWords), at: [0.5, 0.9, 0.95, 0.99, 1])
        if !outside.isEmpty {
            print(
                "answers heard: seconds outside the words at 50/90/95/99/100%: \(outside.map { String(format: "%.2f", $0) }.joined(separator: " "))"
            )
        }
    }
}
