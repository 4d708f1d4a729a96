// The rejection benchmark's decoding: every clip under its grammar, by the phone loops, with
// every senone, by dictation and under each garbage path, with every candidate measure.

import BenchmarkCommand
import Dispatch
import Foundation
import Synchronization
import VoiceIntents
import VoiceRecognition

/// Decodes `jobsToRun` on `jobs` threads, each with recognizers of its own, and returns what each
/// clip gave; throws the first error any thread met.
func decodeClips(
    _ jobsToRun: [Job], workers jobs: Int, configuration: SpeechRecognizer.Configuration,
    grammars allGrammars: [String: SpeechGrammar],
    garbageGrammars allGarbageGrammars: [String: SpeechGrammar],
    garbageSettings: [GarbageSetting], loops: [(name: String, loop: PhoneLoop)], measuresAllSenones: Bool
) throws -> [Outcome] {
    let clock = ContinuousClock()
    let outcomes = Mutex<[Outcome]>([])
    let failure = Mutex<String?>(nil)
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
                recognizer.garbageUsesViterbiPath =
                    garbageSettings[Int(key.split(separator: "#").last!)!].viterbi
                try recognizer.useGrammar(grammar)
            }
            for index in Swift.stride(from: worker, to: jobsToRun.count, by: jobs) {
                let job = jobsToRun[index]
                let samples = try job.audio()
                try recognizer.useGrammar(allGrammars[job.grammar]!)
                recognizer.forgetChannel()
                var began = clock.now
                let result = try recognizer.recognize(samples)
                let grammarSeconds = (clock.now - began).inSeconds
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
                    loopSeconds.append((clock.now - began).inSeconds)
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
                    normalisedSeconds = (clock.now - began).inSeconds
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
                    dictationSeconds = (clock.now - began).inSeconds
                    if !spoken.isEmpty {
                        let heard = Set(
                            free.spokenWords.map {
                                $0.word.split(separator: "(").first.map(String.init) ?? ""
                            })
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
                    let took = (clock.now - began).inSeconds
                    let wordFrames = heard.words.filter { !$0.isFiller }.reduce(0) {
                        $0 + $1.endFrame - $1.startFrame + 1
                    }
                    let garbageFrames = heard.words.filter(\.isGarbage).reduce(0) {
                        $0 + $1.endFrame - $1.startFrame + 1
                    }
                    hearings.append(
                        GarbageHearing(
                            transcript: heard.text, kind: heard.garbage, words: heard.spokenWords.map(\.word),
                            seconds: took, garbageShare: Double(garbageFrames) / Double(max(wordFrames, 1)),
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
    if let message = failure.withLock({ $0 }) { throw BenchmarkFailure(message) }
    return outcomes.withLock { $0 }
}
