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
// Options: --commands N (commands per app, default 60), --voices a,b, --dictation N (clips also
// heard by dictation, default 60), --jobs N, --limit N (an even spread of N clips), --all-senones yes
// (also decode with -compallsen yes, which measured no better and costs an extra RTF of 0.08),
// --garbage "p/q[/v][/lattice];…" (garbage path settings, each one more decode of every clip
// under the grammar with a `GarbageModel`: whole-utterance entry p, phone q, value-slot entry v;
// "lattice" searches it with PocketSphinx's lattice best path instead of the Viterbi path; "none"
// for no garbage decodes), --phone-loop no (skip the phone loop), --only recorded (Debian's real
// recordings alone, no eSpeak NG clips).
//
// What a clip is and the near misses are in Clips.swift; what a clip gave and the rates and
// thresholds computed from many, in Figures.swift. The decoding and the reports stay here, as
// top-level code on the options above.

import BenchmarkSupport
import Dispatch
import Foundation
import Library
import PhraseMatching
import Speech
import SpeechEvaluation
import Synchronization
import TravelTracking
import VoiceIntents

let options = BenchmarkOptions(
    takes: [
        ("commands", "N"), ("voices", "a,b"), ("dictation", "N"), ("jobs", "N"), ("limit", "N"),
        ("all-senones", "yes|no"), ("garbage", "\"p/q[/v][/lattice];…\"|none"), ("phone-loop", "yes|no"),
        ("only", "recorded"),
    ], usage: "rejection-benchmark [options]")
let commandsPerApp = options.int("commands", default: 60)
let voices = (options["voices"] ?? "en-us,en-us+f2").split(separator: ",").map(String.init)
let dictationClips = options.int("dictation", default: 60)
let jobs = options.int("jobs", default: ProcessInfo.processInfo.activeProcessorCount)
let hearsPhoneLoop = options.choice("phone-loop", of: ["yes", "no"], default: "yes") == "yes"

let garbageSpecification =
    options["garbage"]
    ?? "0/1e-3;1e-2/1e-3;1e-2/3e-3;1e-2/0.01;1e-2/0.03;loop/0.01;1e-2/1e-3/1e-4;1e-2/3e-3/1e-3"
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
            label: (loopOnly ? "garbage loop alone q=\(fields[1])" : "garbage p=\(fields[0]) q=\(fields[1])")
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
    let commands = cases.filter { $0.expectation != .noMatch && !misses.contains($0.sentence) }.sorted {
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
            isCommand: isCommand, group: isNearMiss ? "eSpeak NG near miss" : "eSpeak NG, \(item.condition)",
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
    "asterisk": prompts.all, "librivox": recordings.filter { $0.name.hasPrefix("librivox") }.map(\.words),
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
                    label: "\(recording.name) under \(app) (\(group))", grammar: app, isCommand: false,
                    group: group, isTuning: isTuning(recording.name), hearsDictation: false,
                    audio: { samples },
                    expectation: .noMatch))
        }
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
        hearsDictation: true, audio: job.audio, canSay: job.canSay, words: job.words,
        expectation: job.expectation)
}
let allGrammars = grammars
let allGarbageGrammars = garbageGrammars
let measuresAllSenones = options.choice("all-senones", of: ["yes", "no"], default: "no") == "yes"
// --only recorded: Debian's real recordings alone (no eSpeak NG clips).
if let only = options["only"] {
    jobList = jobList.filter { $0.group.hasPrefix(only) }
}
// --limit N: an even spread of N clips, for a quick look.
let limit = options.int("limit", default: jobList.count)
if limit < jobList.count {
    let every = Double(jobList.count) / Double(limit)
    jobList = (0..<limit).map { jobList[Int(Double($0) * every)] }
}

// MARK: Decoding

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
            if measuresAllSenones { try allSenones.useGrammar(grammar) }
        }
        for (key, grammar) in allGarbageGrammars.sorted(by: { $0.key < $1.key }) {
            recognizer.garbageUsesViterbiPath = garbageSettings[Int(key.split(separator: "#").last!)!].viterbi
            try recognizer.useGrammar(grammar)
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
                measures["words' acoustic score per frame (the confidence)"] =
                    RecognitionConfidence(words: result.words).scorePerFrame
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
            var hearings: [GarbageHearing] = []
            for index in garbageSettings.indices {
                try recognizer.useGrammar(allGarbageGrammars["\(job.grammar)#\(index)"]!)
                recognizer.forgetChannel()
                began = clock.now
                let heard = try recognizer.recognize(samples)
                let seconds = seconds(clock.now - began)
                let wordFrames = heard.words.filter { !$0.isFiller }.reduce(0) {
                    $0 + $1.endFrame - $1.startFrame + 1
                }
                let garbageFrames = heard.words.filter(\.isGarbage).reduce(0) {
                    $0 + $1.endFrame - $1.startFrame + 1
                }
                hearings.append(
                    GarbageHearing(
                        transcript: heard.text, kind: heard.garbage, words: heard.spokenWords.map(\.word),
                        seconds: seconds, garbageShare: Double(garbageFrames) / Double(max(wordFrames, 1)),
                        score: heard.score))
            }
            // The garbage loop alone as a reference: how much worse the commands' Viterbi path
            // (the first setting without loops, or else the plain grammar's) scores per frame.
            if !spoken.isEmpty {
                let viterbi = garbageSettings.indices.first {
                    !garbageSettings[$0].loopOnly && garbageSettings[$0].model.utterance == 0
                        && garbageSettings[$0].model.value == nil
                }
                let commandScore = Double(viterbi.map { hearings[$0].score } ?? result.score)
                for (index, setting) in garbageSettings.enumerated() where setting.loopOnly {
                    measures["\(setting.label): margin per frame"] =
                        (commandScore - Double(hearings[index].score)) / frames
                }
            }
            var outcome = Outcome(
                job: job, transcript: result.text, audioSeconds: Double(samples.count) / 16_000,
                grammarSeconds: grammarSeconds, loopSeconds: loopSeconds,
                allSenonesSeconds: normalisedSeconds, dictationSeconds: dictationSeconds,
                measures: measures)
            outcome.garbage = hearings
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
    costs["\(setting.label): margin per frame"] = heard.reduce(0) { $0 + $1.garbage[index].seconds } / audio
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
// Real recordings alone: a threshold chosen on eSpeak NG clips is chosen on voices that fit the
// acoustic model worse than people do, so choose one on the recordings' own tuning half too.
for group in ["recorded", "recorded, pink 10 dB"] {
    let recorded = heard.filter { $0.job.group == group }
    guard recorded.contains(where: \.job.isCommand), recorded.contains(where: { !$0.job.isCommand }) else {
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
        recorded, "words' acoustic score per frame (the confidence)", as: "the confidence's score per frame")
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

// MARK: Garbage paths

if !garbageSettings.isEmpty {
    func share(_ count: Int, _ total: Int) -> String { "\(count)/\(total)" }
    print(
        """

        garbage paths (each a decode under the grammar with a GarbageModel; accepted: words, none of \
        them garbage). Near misses count among the clips that are not commands; "not in the grammar": \
        leaving out what the grammar says word for word (negative phrases, "never mind": the matcher's \
        to turn down); "heard right": commands the plain grammar heard word for word.
        | setting | false accepts (held out) | FA, not in the grammar | of them near misses | false rejects (held out) | FR, commands heard right | commands' words changed | commands on garbage: utterance / value | near misses on value garbage | false accepts (tuning) | false rejects (tuning) | extra RTF |
        |---|---|---|---|---|---|---|---|---|---|---|---|
        """)
    for (index, setting) in garbageSettings.enumerated() where !setting.loopOnly {
        let held = garbageRates(heldOut, index)
        let tuned = garbageRates(tuning, index)
        let commands = heldOut.filter(\.job.isCommand)
        let heardRight = commands.filter { !$0.job.words.isEmpty && $0.transcript == $0.job.words }
        let unsayable = heldOut.filter { !$0.job.isCommand && !$0.job.canSay }
        let misses = heldOut.filter { $0.job.group.hasSuffix("near miss") }
        let changed = commands.filter {
            garbageAccepts($0, index) && $0.garbage[index].transcript != $0.transcript
        }.count
        let onUtterance = commands.filter { $0.garbage[index].kind == .utterance }.count
        let onValue = commands.filter { $0.garbage[index].kind == .value }.count
        let rtf = heard.reduce(0) { $0 + $1.garbage[index].seconds } / audio - grammarRTF
        print(
            "| \(setting.label) | \(percent(held.fa)) of \(held.others) | \(share(unsayable.filter { garbageAccepts($0, index) }.count, unsayable.count)) | \(share(misses.filter { garbageAccepts($0, index) }.count, misses.count)) | \(percent(held.fr)) of \(held.commands) | \(share(heardRight.filter { !garbageAccepts($0, index) }.count, heardRight.count)) | \(share(changed, commands.count)) | \(onUtterance) / \(onValue) | \(share(misses.filter { $0.garbage[index].kind == .value }.count, misses.count)) | \(percent(tuned.fa)) | \(percent(tuned.fr)) | \(format(rtf)) |"
        )
    }
    // Combined with a continuous measure: the garbage path's verdict, then the measure's
    // threshold (chosen on the tuning half so the two together reject at most 2% of its commands).
    let combinable =
        ["path score per frame"] + loops.map { "\($0.name): words' margin" }
        + garbageSettings.filter(\.loopOnly).map { "\($0.label): margin per frame" }
    print(
        """

        garbage path and a measure (threshold on the tuning half: the combination rejects at most 2% of its commands)
        | setting | measure | threshold | false accepts (held out) | false rejects (held out) |
        |---|---|---|---|---|
        """)
    for (index, setting) in garbageSettings.enumerated() where !setting.loopOnly {
        for measure in combinable {
            let chosen = combinedThreshold(tuning, index, measure)
            let held = garbageRates(heldOut, index, measure: measure, threshold: chosen)
            print(
                "| \(setting.label) | \(measure) | \(format(chosen, 1)) | \(percent(held.fa)) of \(held.others) | \(percent(held.fr)) of \(held.commands) |"
            )
        }
    }
    print("\ngarbage paths held out by group (false accepts / false rejects):")
    let groups = Set(heard.map(\.job.group)).sorted()
    print("| setting | " + groups.joined(separator: " | ") + " |")
    print("|---|" + groups.map { _ in "---|" }.joined())
    for (index, setting) in garbageSettings.enumerated() where !setting.loopOnly {
        let cells = groups.map { group -> String in
            let figures = garbageRates(heldOut.filter { $0.job.group == group }, index)
            return
                "\(percent(figures.fa)) of \(figures.others) / \(percent(figures.fr)) of \(figures.commands)"
        }
        print("| \(setting.label) | " + cells.joined(separator: " | ") + " |")
    }
    if ProcessInfo.processInfo.environment["VERBOSE"] != nil {
        for (index, setting) in garbageSettings.enumerated() where !setting.loopOnly {
            print("\n\(setting.label), every clip heard differently from the plain grammar or wrongly:")
            for clip in heard.sorted(by: { $0.job.label < $1.job.label }) {
                let hearing = clip.garbage[index]
                let accepted = garbageAccepts(clip, index)
                guard accepted != clip.job.isCommand || hearing.transcript != clip.transcript else {
                    continue
                }
                print(
                    "  \(clip.job.isCommand ? "command" : "other") \(clip.job.isTuning ? "(tuning)" : "(held out)") \(clip.job.label): \"\(clip.transcript)\" → \"\(hearing.transcript)\"\(hearing.kind.map { " [\($0)]" } ?? "")"
                )
            }
        }
    }
}

// MARK: End to end

/// What the matcher makes of each transcript, by grammar and transcript.
var matched: [String: PhraseTestSuite.Expectation] = [:]
for clip in heard {
    guard let matcher = matchers[clip.job.grammar] else { continue }
    for transcript in [clip.transcript] + clip.garbage.map(\.transcript)
    where matched["\(clip.job.grammar)|\(transcript)"] == nil {
        matched["\(clip.job.grammar)|\(transcript)"] =
            transcript.isEmpty ? .noMatch : await matcher.outcome(of: transcript).0
    }
}

let matchedTranscripts = matched

/// What the app would do with a clip: act rightly, act wrongly, or not act (`setting`: a garbage
/// setting's index; `nil`: the plain grammar).
enum Action { case right, wrong, none }
func action(_ clip: Outcome, _ setting: Int?) -> Action {
    let transcript = setting.map { clip.garbage[$0].transcript } ?? clip.transcript
    let accepted = setting.map { garbageAccepts(clip, $0) } ?? !transcript.isEmpty
    guard accepted else { return .none }
    guard let expectation = clip.job.expectation else {
        return transcript == clip.job.words ? .right : .wrong
    }
    let got = matchedTranscripts["\(clip.job.grammar)|\(transcript)"] ?? .noMatch
    if got == .noMatch { return .none }
    return expectation.isMet(by: got) ? .right : .wrong
}

let endToEnd: [(label: String, index: Int?)] =
    [("plain grammar (no garbage path)", nil)]
    + garbageSettings.enumerated().filter { !$0.element.loopOnly }.map { ($0.element.label, $0.offset) }
print(
    """

    end to end, held out: the recognizer, then the app's matcher (recordings under grammars of their own \
    transcripts: right when heard word for word). A near miss or other non-command acted on is a false accept.
    | setting | commands acted on rightly | commands acted on wrongly | commands not acted on | non-commands acted on | of them near misses |
    |---|---|---|---|---|---|
    """)
for (label, index) in endToEnd {
    let commands = heldOut.filter(\.job.isCommand)
    let others = heldOut.filter { !$0.job.isCommand }
    let misses = others.filter { $0.job.group.hasSuffix("near miss") }
    let actions = commands.map { action($0, index) }
    print(
        "| \(label) | \(actions.filter { $0 == .right }.count)/\(commands.count) | \(actions.filter { $0 == .wrong }.count)/\(commands.count) | \(actions.filter { $0 == .none }.count)/\(commands.count) | \(others.filter { action($0, index) != .none }.count)/\(others.count) | \(misses.filter { action($0, index) != .none }.count)/\(misses.count) |"
    )
}
