// Rejection benchmark: which measure tells a command from speech that is not one, under the
// sample apps' grammars, and at what cost.
//
//     swift build -c release --product rejection-benchmark && .build/release/rejection-benchmark
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
// Options: --commands N (commands per app, default 60), --voices a,b, --dictation N (clips also
// heard by dictation, default 60), --jobs N, --limit N (an even spread of N clips), --all-senones yes
// (also decode with -compallsen yes, which measured no better and costs an extra RTF of 0.08).

import BenchmarkSupport
import Dispatch
import Foundation
import Library
import PhraseMatching
import Speech
import Synchronization
import TravelTracking
import VoiceIntents

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

func format(_ value: Double, _ digits: Int = 3) -> String { String(format: "%.\(digits)f", value) }
func percent(_ value: Double) -> String { String(format: "%.1f%%", value * 100) }

var options: [String: String] = [:]
var argumentList = Array(CommandLine.arguments.dropFirst())
while argumentList.count >= 2, argumentList[0].hasPrefix("--") {
    options[String(argumentList[0].dropFirst(2))] = argumentList[1]
    argumentList.removeFirst(2)
}
let commandsPerApp = Int(options["commands"] ?? "") ?? 60
let voices = (options["voices"] ?? "en-us,en-us+f2").split(separator: ",").map(String.init)
let dictationClips = Int(options["dictation"] ?? "") ?? 60
let jobs = Int(options["jobs"] ?? "") ?? ProcessInfo.processInfo.activeProcessorCount

let configuration = try SpeechRecognizer.Configuration.installed()
print(
    "rejection benchmark (\(jobs) jobs), decoder arguments: \(configuration.arguments.joined(separator: " "))"
)

/// The phone loops compared as the reference score.
let loops: [(name: String, loop: PhoneLoop)] = [
    ("phone loop, CI phones, beam 1e-20", PhoneLoop(beam: 1e-20, phoneBeam: 1e-20, contextIndependent: true))
]
// A loop with beams of 1e-10 collapsed (one phone held for two seconds) and scored worse.
// Triphones in the loop (`-allphone_ci no`, beam 1e-20) measured an extra real-time factor of 2.2
// on 60 clips, forty times the budget, and separated no better: not run by default.

// MARK: Clips

/// One clip to decode, and what it is.
struct Job: Sendable {
    let label: String
    let grammar: String
    /// A command (or real speech under a grammar of its own transcript), which should be accepted.
    let isCommand: Bool
    let group: String
    /// The tuning half (`true`) or the held-out half.
    let isTuning: Bool
    let hearsDictation: Bool
    let audio: @Sendable () throws -> [Int16]
}

func isTuning(_ key: String) -> Bool {
    (UInt64(SpeechCache.hash(key).suffix(4), radix: 16) ?? 0) % 2 == 0
}

var grammars: [String: SpeechGrammar] = [:]
var jobList: [Job] = []
let evaluation = SpokenEvaluation(
    voices: voices, conditions: [.clean, .noise(.pink, snr: 10), .noise(.babble, snr: 10)],
    configuration: configuration, cache: try SpeechCache(folder: SpeechCache.defaultFolder))
let mixer = NoiseMixer(babble: try evaluation.babbleTrack())
for app in SampleApp.all {
    let name = app.name
    let matcher = try await app.matcher()
    grammars[name] = SpeechGrammar(matcher.spokenForms, name: name)
    let cases = try app.testCases()
    let none = cases.filter { $0.expectation == .noMatch }
    let commands = cases.filter { $0.expectation != .noMatch }.sorted {
        SpeechCache.hash($0.sentence) < SpeechCache.hash($1.sentence)
    }.prefix(commandsPerApp)
    print("\(name): \(commands.count) commands, \(none.count) sentences that are not commands")
    for item in evaluation.items(for: Array(commands) + none) {
        let isCommand = item.testCase.expectation != .noMatch
        jobList.append(
            Job(
                label: "\(item.testCase.sentence) [\(item.speaker), \(item.condition)]", grammar: name,
                isCommand: isCommand, group: "eSpeak NG, \(item.condition)",
                isTuning: isTuning(item.testCase.sentence), hearsDictation: false,
                audio: { try evaluation.clip(item, mixer: mixer) }))
    }
}

let recordings = try pocketSphinxRecordings()
let knower = try SpeechRecognizer(configuration)
let prompts = try asteriskPrompts(stride: 3, knows: knower.knows)
print(
    "real recordings: \(recordings.count) of PocketSphinx's test data, \(prompts.recordings.count) Asterisk prompts"
)
grammars["asterisk"] = grammar("asterisk", prompts.all)
grammars["librivox"] = grammar("librivox", recordings.filter { $0.name.hasPrefix("librivox") }.map(\.words))
grammars["goforward"] = grammar("goforward", [words("go forward ten meters")])
for recording in recordings + prompts.recordings {
    let samples = recording.samples
    let own =
        recording.name.hasPrefix("asterisk")
        ? "asterisk"
        : recording.name.hasPrefix("librivox")
            ? "librivox" : recording.name == "goforward" ? "goforward" : nil
    if let own {
        jobList.append(
            Job(
                label: "\(recording.name) under \(own)", grammar: own, isCommand: true, group: "recorded",
                isTuning: isTuning(recording.name), hearsDictation: false, audio: { samples }))
    }
    for app in SampleApp.all.map(\.name) {
        jobList.append(
            Job(
                label: "\(recording.name) under \(app)", grammar: app, isCommand: false, group: "recorded",
                isTuning: isTuning(recording.name), hearsDictation: false, audio: { samples }))
    }
}
// Dictation on an even spread of the held-out eSpeak NG clips (it is slow).
let spread = jobList.indices.filter { jobList[$0].group.hasPrefix("eSpeak") && !jobList[$0].isTuning }
let step = max(1, spread.count / max(dictationClips, 1))
for index in Swift.stride(from: 0, to: spread.count, by: step).map({ spread[$0] }).prefix(dictationClips) {
    let job = jobList[index]
    jobList[index] = Job(
        label: job.label, grammar: job.grammar, isCommand: job.isCommand, group: job.group,
        isTuning: job.isTuning,
        hearsDictation: true, audio: job.audio)
}
let allGrammars = grammars
let measuresAllSenones = options["all-senones"] == "yes"
// --limit N: an even spread of N clips, for a quick look.
if let limit = Int(options["limit"] ?? ""), limit < jobList.count {
    let every = Double(jobList.count) / Double(limit)
    jobList = (0..<limit).map { jobList[Int(Double($0) * every)] }
}

// MARK: Decoding

/// What one clip gave: the transcript, the times, and every candidate measure (higher means more
/// like a command).
struct Outcome: Sendable {
    let job: Job
    let transcript: String
    let audioSeconds: Double
    let grammarSeconds: Double
    let loopSeconds: [Double]
    let allSenonesSeconds: Double
    let dictationSeconds: Double?
    let measures: [String: Double]
}

let outcomes = Mutex<[Outcome]>([])
let failure = Mutex<String?>(nil)
let clock = ContinuousClock()
let started = clock.now
let jobsToRun = jobList
DispatchQueue.concurrentPerform(iterations: jobs) { worker in
    do {
        let recognizer = try SpeechRecognizer(configuration)
        var dictation: SpeechRecognizer?
        // Every senone scored in every frame (`-compallsen yes`): PocketSphinx normalises each
        // frame's acoustic scores by the best senone it computed, which under a grammar is only
        // the grammar's own; with all of them it is the best any sound could do.
        var allSenonesConfiguration = configuration
        allSenonesConfiguration.arguments += ["-compallsen", "yes"]
        let allSenones = try SpeechRecognizer(allSenonesConfiguration)
        for (_, grammar) in allGrammars.sorted(by: { $0.key < $1.key }) {
            try recognizer.useGrammar(grammar)
            try allSenones.useGrammar(grammar)
        }
        for index in Swift.stride(from: worker, to: jobsToRun.count, by: jobs) {
            let job = jobsToRun[index]
            let samples = try job.audio()
            try recognizer.useGrammar(allGrammars[job.grammar]!)
            recognizer.forgetChannel()
            var began = clock.now
            let result = try recognizer.recognize(samples)
            let grammarSeconds = seconds(clock.now - began)
            var measures: [String: Double] = [:]
            let frames = Double(max(result.frames, 1))
            let acoustic = Double(result.words.reduce(0) { $0 + $1.acousticScore }) / frames
            let spoken = result.spokenWords
            var loopSeconds: [Double] = []
            if !spoken.isEmpty {
                measures["path score per frame"] = Double(result.score) / frames
                measures["grammar acoustic score per frame"] = acoustic
                measures["lowest word posterior"] = Double(spoken.map(\.posterior).min() ?? 0)
                // Duration: frames per phone of each word.
                let perPhone = spoken.map { word -> Double in
                    let phones = recognizer.pronunciation(of: word.word)?.split(separator: " ").count ?? 1
                    return Double(word.endFrame - word.startFrame + 1) / Double(max(phones, 1))
                }
                measures["shortest word, frames per phone"] = perPhone.min()
                measures["longest word, frames per phone (negated)"] = -(perPhone.max() ?? 0)
                let totalPhones = spoken.reduce(0) {
                    $0 + (recognizer.pronunciation(of: $1.word)?.split(separator: " ").count ?? 1)
                }
                let wordFrames = spoken.reduce(0) { $0 + $1.endFrame - $1.startFrame + 1 }
                measures["speaking rate, |log(frames per phone / 8)| (negated)"] =
                    -abs(log(Double(wordFrames) / Double(max(totalPhones, 1)) / 8))
            }
            for (name, loop) in loops {
                recognizer.forgetChannel()
                began = clock.now
                let phones = try recognizer.hearPhones(samples, loop: loop)
                loopSeconds.append(seconds(clock.now - began))
                if !spoken.isEmpty {
                    measures["\(name): utterance margin"] = acoustic - phones.scorePerFrame
                    // The words' margin is what `RecognitionConfidence` is computed from.
                    measures["\(name): worst word margin"] = phones.margins(of: spoken).min()
                    measures["\(name): words' margin"] = phones.margin(of: spoken)
                }
            }
            var normalisedSeconds = 0.0
            if measuresAllSenones {
                try allSenones.useGrammar(allGrammars[job.grammar]!)
                allSenones.forgetChannel()
                began = clock.now
                let normalised = try allSenones.recognize(samples)
                normalisedSeconds = seconds(clock.now - began)
                let normalisedWords = normalised.spokenWords
                if !normalisedWords.isEmpty {
                    let frames = normalisedWords.map { Double($0.endFrame - $0.startFrame + 1) }
                    let scores = normalisedWords.map { Double($0.acousticScore) }
                    measures["all senones: words' score per frame"] =
                        scores.reduce(0, +) / frames.reduce(0, +)
                    measures["all senones: worst word's score per frame"] = zip(scores, frames).map {
                        $0 / $1
                    }.min()
                    measures["all senones: utterance score per frame"] =
                        Double(normalised.words.reduce(0) { $0 + $1.acousticScore })
                        / Double(max(normalised.frames, 1))
                    allSenones.forgetChannel()
                    let phones = try allSenones.hearPhones(samples, loop: loops[0].loop)
                    let margins = phones.margins(of: normalisedWords)
                    measures["all senones + phone loop: words' margin"] =
                        zip(margins, frames).reduce(0) { $0 + $1.0 * $1.1 } / frames.reduce(0, +)
                    measures["all senones + phone loop: worst word margin"] = margins.min()
                }
            }
            var dictationSeconds: Double?
            if job.hearsDictation {
                if dictation == nil {
                    dictation = try SpeechRecognizer(configuration)
                    try dictation!.useDictation()
                }
                dictation!.forgetChannel()
                began = clock.now
                let free = try dictation!.recognize(samples)
                dictationSeconds = seconds(clock.now - began)
                if !spoken.isEmpty {
                    let heard = Set(
                        free.spokenWords.map { $0.word.split(separator: "(").first.map(String.init) ?? "" })
                    let said = spoken.map { $0.word.split(separator: "(").first.map(String.init) ?? "" }
                    measures["dictation agreement"] =
                        Double(said.filter(heard.contains).count) / Double(max(said.count, 1))
                }
            }
            let outcome = Outcome(
                job: job, transcript: result.text, audioSeconds: Double(samples.count) / 16_000,
                grammarSeconds: grammarSeconds, loopSeconds: loopSeconds,
                allSenonesSeconds: normalisedSeconds, dictationSeconds: dictationSeconds,
                measures: measures)
            let done = outcomes.withLock {
                $0.append(outcome)
                return $0.count
            }
            if done % 100 == 0 {
                FileHandle.standardError.write(Data("\(done) of \(jobsToRun.count) clips\n".utf8))
            }
        }
    } catch {
        failure.withLock { $0 = "\(error)" }
    }
}
if let message = failure.withLock({ $0 }) {
    print("error: \(message)")
    exit(1)
}
let heard = outcomes.withLock { $0 }
print("decoded \(heard.count) clips in \(format(seconds(clock.now - started), 0)) s")

// MARK: Figures

/// False accepts and false rejects of `measure` at `threshold` among `clips` (a clip with no
/// words, or without the measure, is rejected).
func rates(_ clips: [Outcome], _ measure: String, _ threshold: Double) -> (
    fa: Double, fr: Double, commands: Int, others: Int
) {
    let commands = clips.filter(\.job.isCommand)
    let others = clips.filter { !$0.job.isCommand }
    func accepted(_ clip: Outcome) -> Bool { (clip.measures[measure] ?? -.infinity) >= threshold }
    return (
        Double(others.filter(accepted).count) / Double(max(others.count, 1)),
        Double(commands.filter { !accepted($0) }.count) / Double(max(commands.count, 1)), commands.count,
        others.count
    )
}

/// The highest threshold that rejects at most `allowed` of the commands with words among `clips`.
func threshold(_ clips: [Outcome], _ measure: String, allowed: Double = 0.02) -> Double {
    let values = clips.filter(\.job.isCommand).compactMap { $0.measures[measure] }.sorted()
    guard !values.isEmpty else { return -.infinity }
    return values[Int((Double(values.count) * allowed).rounded(.down))]
}

/// The chance that a command with words scores higher than another clip with words.
func areaUnderCurve(_ clips: [Outcome], _ measure: String) -> Double {
    let commands = clips.filter(\.job.isCommand).compactMap { $0.measures[measure] }
    let others = clips.filter { !$0.job.isCommand }.compactMap { $0.measures[measure] }
    guard !commands.isEmpty, !others.isEmpty else { return .nan }
    var wins = 0.0
    for command in commands {
        for other in others { wins += command > other ? 1 : command == other ? 0.5 : 0 }
    }
    return wins / Double(commands.count * others.count)
}

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
let allSenonesRTF = heard.reduce(0) { $0 + $1.allSenonesSeconds } / audio
if allSenonesRTF > 0 {
    print("grammar decode with all senones (-compallsen yes): real-time factor \(format(allSenonesRTF))\n")
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
// Per-app recorded negatives, and the spread of the measure, for setting the confidence's scale.
for isCommand in [true, false] {
    let values = heard.filter { $0.job.isCommand == isCommand }.compactMap { $0.measures[best] }.sorted()
    guard !values.isEmpty else { continue }
    let quantiles = [0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99].map {
        values[Int(Double(values.count - 1) * $0)]
    }
    print(
        "\(isCommand ? "commands" : "others"): \(best) at 1/5/25/50/75/95/99%: \(quantiles.map { format($0, 0) }.joined(separator: " "))"
    )
}

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
