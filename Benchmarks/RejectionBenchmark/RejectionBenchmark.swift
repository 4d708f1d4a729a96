// Rejection benchmark: which measure tells a command from speech that is not one, under the
// sample apps' grammars, and at what cost.
//
//     VOICE_INTENTS_BENCHMARKS=1 swift build -c release --product rejection-benchmark && .build/release/rejection-benchmark
//
// Clips: the sample apps' phrase tests (commands, a sample of each app's; and every `intent:
// none` sentence) spoken by eSpeak NG in two voices, clean and with pink and babble noise at
// 10 dB; Debian's real recordings (PocketSphinx's test data, Asterisk's prompts) heard under the
// apps' grammars as speech that is not a command, and under grammars of their own transcripts as
// real speech that is. Each clip is decoded under its grammar, then heard again by phone loops
// (and, for a few, by dictation); every candidate measure is computed per clip. Clips are split
// by a hash of their sentence: a threshold is chosen on the tuning half (the highest that rejects
// at most 2% of its commands) and false accepts and rejects are counted on the held-out half.
// It prints figures only; it asserts nothing.
//
// `--help` says what each option does.
//
// What a clip is and the near misses are in Clips.swift; the decoding of every clip in
// Decoding.swift; what a clip gave and the rates and thresholds computed from many in Figures.swift;
// the garbage-path and end-to-end reports in Reports.swift. The options, the clips and the other
// reports are here, in the command's `run()`.

import BenchmarkCommand
import BenchmarkSupport
import Dispatch
import Foundation
import Library
import PhraseMatching
import Synchronization
import TravelTracking
import VoiceAudio
import VoiceEvaluation
import VoiceIntents
import VoiceRecognition
import VoiceUnderstanding

@main
struct RejectionBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rejection-benchmark",
        abstract:
            "Which measure tells a command from speech that is not one, under the sample apps' grammars, and at what cost.",
        discussion: """
            Commands and other speech, spoken by eSpeak NG and recorded by people, are decoded \
            under the apps' grammars; a threshold is chosen on one half of the clips and its false \
            accepts and rejects are counted on the other. VERBOSE=1 lists the clips. It prints \
            figures only; it asserts nothing.
            """)

    enum Only: String, ExpressibleByArgument, CaseIterable {
        case recorded
    }

    @Option(help: "Commands per app.")
    var commands = 60

    @OptionGroup var clips: SpokenClipOptions

    @Option(help: "Clips also heard by dictation.")
    var dictation = 60

    @Option(help: "Take an even spread of N clips, for a quick look.")
    var limit: Int?

    @Option(
        help: "Also decode with -compallsen yes (measured no better, at an extra real-time factor of 0.08).")
    var allSenones = YesNo.no

    @Option(
        help: ArgumentHelp(
            "Garbage path settings, each one more decode of every clip under the grammar with a GarbageModel: whole-utterance entry p, phone q, value-slot entry v; \"lattice\" searches it with PocketSphinx's lattice best path instead of the Viterbi path; \"loop/q\" is the garbage loop alone; \"none\" for no garbage decodes.",
            valueName: "p/q[/v][/lattice];…|none"))
    var garbage = "0/1e-3;1e-2/1e-3;1e-2/3e-3;1e-2/0.01;1e-2/0.03;loop/0.01;1e-2/1e-3/1e-4;1e-2/3e-3/1e-3"

    @Option(help: "Hear every clip with the phone loop too, as the reference score.")
    var phoneLoop = YesNo.yes

    @Option(help: "Debian's real recordings alone, no eSpeak NG clips.")
    var only: Only?

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit takes a whole number above 0") }
    }

    func run() async throws {
        let commandsPerApp = commands
        let voices = clips.voices ?? ["en-us", "en-us+f2"]
        let dictationClips = dictation
        let jobs = clips.jobs
        let hearsPhoneLoop = phoneLoop.isOn
        let garbageSpecification = garbage
        let garbageSettings: [GarbageSetting] =
            garbageSpecification == "none"
            ? []
            : garbageSpecification.split(separator: ";").map { item in
                let fields = item.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
                let value = fields.count > 2 ? Double(fields[2]) : nil
                let viterbi = !fields.contains("lattice")
                // "loop/q": the garbage loop alone, as a reference score.
                let loopOnly = fields[0] == "loop"
                return GarbageSetting(
                    label: (loopOnly
                        ? "garbage loop alone q=\(fields[1])" : "garbage p=\(fields[0]) q=\(fields[1])")
                        + (value.map { " v=\($0)" } ?? "") + (viterbi ? "" : ", lattice best path"),
                    model: GarbageModel(
                        utterance: loopOnly ? 0.5 : Double(fields[0]) ?? 0, phone: Double(fields[1]) ?? 1e-3,
                        value: value),
                    viterbi: viterbi, loopOnly: loopOnly)
            }

        let configuration = try SpeechRecognizer.Configuration.installed()
        print(
            "rejection benchmark (\(jobs) jobs), decoder arguments: \(configuration.arguments.joined(separator: " "))"
        )

        /// The phone loops compared as the reference score.
        let loops: [(name: String, loop: PhoneLoop)] =
            hearsPhoneLoop
            ? [
                (
                    "phone loop, CI phones, beam 1e-20",
                    PhoneLoop(beam: 1e-20, phoneBeam: 1e-20, contextIndependent: true)
                )
            ]
            : []
        // A loop with beams of 1e-10 collapsed (one phone held for two seconds) and scored worse.
        // Triphones in the loop (`-allphone_ci no`, beam 1e-20) measured an extra real-time factor of 2.2
        // on 60 clips, forty times the budget, and separated no better: not run by default.

        // MARK: Clips

        var grammars: [String: SpeechGrammar] = [:]
        /// Each grammar again with each garbage setting, by "<grammar>#<setting index>".
        var garbageGrammars: [String: SpeechGrammar] = [:]
        var matchers: [String: PhraseMatcher] = [:]
        var jobList: [Job] = []
        let evaluation = SpokenEvaluation(
            voices: voices, conditions: [.clean, .noise(.pink, snr: 10), .noise(.babble, snr: 10)],
            configuration: configuration, cache: try SpeechCache(folder: SpeechCache.defaultFolder))
        let mixer = NoiseMixer(babble: try evaluation.babbleTrack())
        for app in SampleApp.all {
            let name = app.name
            let matcher = try await app.matcher()
            matchers[name] = matcher
            let plain = SpeechGrammar(matcher.spokenForms, name: name)
            grammars[name] = plain
            for (index, setting) in garbageSettings.enumerated() {
                garbageGrammars["\(name)#\(index)"] = SpeechGrammar(
                    setting.loopOnly ? SpokenForms(phrases: []) : matcher.spokenForms,
                    name: "\(name)_garbage\(index)",
                    garbage: setting.model)
            }
            let cases = try app.testCases()
            let misses = Set(nearMisses[name] ?? [])
            let none = cases.filter { $0.expectation == .noMatch }
            let commands = cases.filter { $0.expectation != .noMatch && !misses.contains($0.sentence) }.sorted
            {
                SpeechCache.hash($0.sentence) < SpeechCache.hash($1.sentence)
            }.prefix(commandsPerApp)
            let nearMissCases = misses.sorted().map {
                PhraseTestSuite.Case(sentence: $0, expectation: .noMatch, source: .swift)
            }
            print(
                "\(name): \(commands.count) commands, \(none.count) sentences that are not commands, \(nearMissCases.count) near misses"
            )
            for item in evaluation.items(for: Array(commands) + none + nearMissCases) {
                let isCommand = item.testCase.expectation != .noMatch
                let isNearMiss = misses.contains(item.testCase.sentence)
                var job = Job(
                    label: "\(item.testCase.sentence) [\(item.speaker), \(item.condition)]", grammar: name,
                    isCommand: isCommand,
                    group: isNearMiss ? "eSpeak NG near miss" : "eSpeak NG, \(item.condition)",
                    isTuning: isTuning(item.testCase.sentence), hearsDictation: false,
                    audio: { try evaluation.clip(item, mixer: mixer) })
                job.canSay = plain.canSay(item.testCase.sentence)
                job.expectation = item.testCase.expectation
                job.words = SpeechGrammar.spokenWords(item.testCase.sentence).joined(separator: " ")
                jobList.append(job)
            }
        }

        let recordings = try pocketSphinxRecordings()
        let knower = try SpeechRecognizer(configuration)
        let prompts = try asteriskPrompts(stride: 3, knows: knower.knows)
        print(
            "real recordings: \(recordings.count) of PocketSphinx's test data, \(prompts.recordings.count) Asterisk prompts"
        )
        let ownSentences = [
            "asterisk": prompts.all,
            "librivox": recordings.filter { $0.name.hasPrefix("librivox") }.map(\.words),
            "goforward": [words("go forward ten meters")],
        ]
        for (name, sentences) in ownSentences {
            grammars[name] = grammar(name, sentences)
            for (index, setting) in garbageSettings.enumerated() {
                garbageGrammars["\(name)#\(index)"] = grammar(
                    "\(name)_garbage\(index)", setting.loopOnly ? [] : sentences, garbage: setting.model)
            }
        }
        /// A recording with pink noise 10 dB below its active level (a seed per recording).
        func withPinkNoise(_ recording: Recording) -> [Int16] {
            let rate = AudioFormat.recognizerSampleRate
            let noisy = mixer.mix(
                AudioBuffer(int16: recording.samples, sampleRate: rate).samples, .pink, snr: 10,
                seed: UInt64(SpeechCache.hash(recording.name).suffix(12), radix: 16) ?? 1)
            return AudioBuffer(samples: noisy, sampleRate: rate).int16Samples
        }
        for recording in recordings + prompts.recordings {
            let own =
                recording.name.hasPrefix("asterisk")
                ? "asterisk"
                : recording.name.hasPrefix("librivox")
                    ? "librivox" : recording.name == "goforward" ? "goforward" : nil
            for (group, samples) in [
                ("recorded", recording.samples), ("recorded, pink 10 dB", withPinkNoise(recording)),
            ] {
                if let own {
                    var job = Job(
                        label: "\(recording.name) under \(own) (\(group))", grammar: own, isCommand: true,
                        group: group,
                        isTuning: isTuning(recording.name), hearsDictation: false, audio: { samples })
                    job.canSay = true
                    job.words = recording.words.joined(separator: " ")
                    jobList.append(job)
                }
                for app in SampleApp.all.map(\.name) {
                    jobList.append(
                        Job(
                            label: "\(recording.name) under \(app) (\(group))", grammar: app,
                            isCommand: false,
                            group: group, isTuning: isTuning(recording.name), hearsDictation: false,
                            audio: { samples },
                            expectation: .noMatch))
                }
            }
        }
        // Dictation on an even spread of the held-out eSpeak NG clips (it is slow).
        let spread = jobList.indices.filter { jobList[$0].group.hasPrefix("eSpeak") && !jobList[$0].isTuning }
        let step = max(1, spread.count / max(dictationClips, 1))
        for index in Swift.stride(from: 0, to: spread.count, by: step).map({ spread[$0] }).prefix(
            dictationClips)
        {
            let job = jobList[index]
            jobList[index] = Job(
                label: job.label, grammar: job.grammar, isCommand: job.isCommand, group: job.group,
                isTuning: job.isTuning,
                hearsDictation: true, audio: job.audio, canSay: job.canSay, words: job.words,
                expectation: job.expectation)
        }
        let allGrammars = grammars
        let allGarbageGrammars = garbageGrammars
        let measuresAllSenones = allSenones.isOn
        // --only recorded: Debian's real recordings alone (no eSpeak NG clips).
        if let only {
            jobList = jobList.filter { $0.group.hasPrefix(only.rawValue) }
        }
        // --limit N: an even spread of N clips, for a quick look.
        let limit = limit ?? jobList.count
        if limit < jobList.count {
            let every = Double(jobList.count) / Double(limit)
            jobList = (0..<limit).map { jobList[Int(Double($0) * every)] }
        }

        // MARK: Decoding

        let clock = ContinuousClock()
        let started = clock.now
        let heard = try decodeClips(
            jobList, workers: jobs, configuration: configuration, grammars: allGrammars,
            garbageGrammars: allGarbageGrammars, garbageSettings: garbageSettings, loops: loops,
            measuresAllSenones: measuresAllSenones)
        print("decoded \(heard.count) clips in \(format((clock.now - started).inSeconds, 0)) s")

        // MARK: Figures

        let tuning = heard.filter(\.job.isTuning)
        let heldOut = heard.filter { !$0.job.isTuning }
        let audio = heard.reduce(0) { $0 + $1.audioSeconds }
        let grammarRTF = heard.reduce(0) { $0 + $1.grammarSeconds } / audio
        print(
            """

            clips: \(tuning.count) tuning (\(tuning.filter(\.job.isCommand).count) commands), \
            \(heldOut.count) held out (\(heldOut.filter(\.job.isCommand).count) commands); \(format(audio, 0)) s of audio
            grammar decode alone: real-time factor \(format(grammarRTF))
            """)
        let baseline = rates(heldOut, "path score per frame", -.infinity)
        print(
            "no rejection (any words accepted), held out: false accepts \(percent(baseline.fa)), false rejects \(percent(baseline.fr)) (no words heard)\n"
        )

        var measureNames = Set(heard.flatMap(\.measures.keys))
        measureNames.remove("dictation agreement")
        var costs: [String: Double] = [:]
        for (index, (name, _)) in loops.enumerated() {
            let cost = heard.reduce(0) { $0 + $1.loopSeconds[index] } / audio
            for kind in ["utterance margin", "worst word margin", "words' margin"] {
                costs["\(name): \(kind)"] = cost
            }
        }
        for (index, setting) in garbageSettings.enumerated() where setting.loopOnly {
            costs["\(setting.label): margin per frame"] =
                heard.reduce(0) { $0 + $1.garbage[index].seconds } / audio
        }
        let allSenonesRTF = heard.reduce(0) { $0 + $1.allSenonesSeconds } / audio
        if allSenonesRTF > 0 {
            print(
                "grammar decode with all senones (-compallsen yes): real-time factor \(format(allSenonesRTF))\n"
            )
        }
        for name in measureNames where name.hasPrefix("all senones") {
            costs[name] =
                allSenonesRTF - grammarRTF
                + (name.contains("phone loop") ? costs[loops[0].name + ": words' margin"]! : 0)
        }
        print(
            "| measure | AUC (held out) | threshold (tuning) | false accepts (held out) | false rejects (held out) | extra RTF |"
        )
        print("|---|---|---|---|---|---|")
        for name in measureNames.sorted(by: { areaUnderCurve(heldOut, $0) > areaUnderCurve(heldOut, $1) }) {
            let chosen = threshold(tuning, name)
            let figures = rates(heldOut, name, chosen)
            print(
                "| \(name) | \(format(areaUnderCurve(heldOut, name))) | \(format(chosen, 1)) | \(percent(figures.fa)) of \(figures.others) | \(percent(figures.fr)) of \(figures.commands) | \(costs[name].map { format($0) } ?? "0") |"
            )
        }

        // By group, for the measures that matter most.
        let best = measureNames.max(by: { areaUnderCurve(heldOut, $0) < areaUnderCurve(heldOut, $1) })!
        let bestThreshold = threshold(tuning, best)
        print(
            "\nbest measure: \(best), threshold \(format(bestThreshold, 1)) (chosen on tuning clips); held out by group:"
        )
        print("| group | false accepts | false rejects |")
        print("|---|---|---|")
        for group in Set(heard.map(\.job.group)).sorted() {
            let figures = rates(heldOut.filter { $0.job.group == group }, best, bestThreshold)
            print(
                "| \(group) | \(percent(figures.fa)) of \(figures.others) | \(percent(figures.fr)) of \(figures.commands) |"
            )
        }
        // Real recordings alone: a threshold chosen on eSpeak NG clips is chosen on voices that fit the
        // acoustic model worse than people do, so choose one on the recordings' own tuning half too.
        for group in ["recorded", "recorded, pink 10 dB"] {
            let recorded = heard.filter { $0.job.group == group }
            guard recorded.contains(where: \.job.isCommand), recorded.contains(where: { !$0.job.isCommand })
            else {
                continue
            }
            let recordedTuning = recorded.filter(\.job.isTuning)
            let recordedHeldOut = recorded.filter { !$0.job.isTuning }
            let eSpeakTuning = tuning.filter { !$0.job.group.hasPrefix("recorded") }
            print(
                """

                real recordings alone (\(group)): \(recordedTuning.count) tuning, \(recordedHeldOut.count) held out \
                (\(recordedHeldOut.filter(\.job.isCommand).count) recordings under grammars of their own words)
                | measure | AUC (held out) | threshold (recordings' tuning half) | false accepts | false rejects | threshold (eSpeak NG's tuning half) | false accepts | false rejects |
                |---|---|---|---|---|---|---|---|
                """)
            for name in measureNames.sorted(by: {
                areaUnderCurve(recordedHeldOut, $0) > areaUnderCurve(recordedHeldOut, $1)
            }) {
                let own = threshold(recordedTuning, name)
                let ownFigures = rates(recordedHeldOut, name, own)
                var eSpeakColumns = "— | — | —"
                if eSpeakTuning.contains(where: \.job.isCommand) {
                    let eSpeak = threshold(eSpeakTuning, name)
                    let figures = rates(recordedHeldOut, name, eSpeak)
                    eSpeakColumns = "\(format(eSpeak, 1)) | \(percent(figures.fa)) | \(percent(figures.fr))"
                }
                print(
                    "| \(name) | \(format(areaUnderCurve(recordedHeldOut, name))) | \(format(own, 1)) | \(percent(ownFigures.fa)) of \(ownFigures.others) | \(percent(ownFigures.fr)) of \(ownFigures.commands) | \(eSpeakColumns) |"
                )
            }
            printSpread(
                recorded, "words' acoustic score per frame (the confidence)",
                as: "the confidence's score per frame")
        }
        // Per-app recorded negatives, and the spread of the measure, for setting the confidence's scale.
        printSpread(heard, best, as: best)

        // Dictation, on its own subset.
        let dictated = heard.filter { $0.dictationSeconds != nil }
        if !dictated.isEmpty {
            let dictationAudio = dictated.reduce(0) { $0 + $1.audioSeconds }
            let rtf = dictated.reduce(0) { $0 + ($1.dictationSeconds ?? 0) } / dictationAudio
            let at = rates(dictated, "dictation agreement", 0.5)
            let bestThere = rates(dictated, best, bestThreshold)
            print(
                """

                dictation agreement (\(dictated.count) held-out eSpeak NG clips, accept when half the words agree): \
                AUC \(format(areaUnderCurve(dictated, "dictation agreement"))), false accepts \(percent(at.fa)) of \(at.others), \
                false rejects \(percent(at.fr)) of \(at.commands), extra RTF \(format(rtf)); \
                \(best) on the same clips: false accepts \(percent(bestThere.fa)), false rejects \(percent(bestThere.fr))
                """)
        }

        if ProcessInfo.processInfo.environment["VERBOSE"] != nil {
            print("\nheld-out mistakes of \(best):")
            for clip in heldOut.sorted(by: { $0.job.label < $1.job.label }) {
                let accepted = (clip.measures[best] ?? -.infinity) >= bestThreshold
                guard accepted != clip.job.isCommand else { continue }
                print(
                    "  \(clip.job.isCommand ? "rejected" : "accepted") \(clip.job.label) as \"\(clip.transcript)\" (\(format(clip.measures[best] ?? -.infinity, 1)))"
                )
            }
        }

        reportGarbagePaths(
            heard, settings: garbageSettings, loopNames: loops.map(\.name), audio: audio,
            grammarRTF: grammarRTF)
        await reportEndToEnd(heard, matchers: matchers, settings: garbageSettings)
    }
}
