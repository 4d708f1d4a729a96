// Speech benchmark: model load time, real-time factor in grammar and dictation mode, synthesis
// speed, and resident memory while listening.
//
//     VOICE_INTENTS_BENCHMARKS=1 swift run -c release speech-benchmark
//
// Audio is TravelTracking commands spoken by eSpeak NG (three voices) and Debian's real recording
// goforward.raw. The real-time factor is decoding time over audio time (lower is better); the
// dictation figures are the baseline, run in the same process, that grammar mode is compared with.
// It prints figures only; it asserts nothing.

import BenchmarkCommand
import BenchmarkSupport
import Foundation
import Library
import PhraseMatching
import TravelTracking
import VoiceEvaluation
import VoiceIntents
import VoiceRecognition
import VoiceSynthesis
import VoiceUnderstanding

func format(_ value: Double, _ digits: Int = 3) -> String { String(format: "%.\(digits)f", value) }

@main
struct SpeechBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "speech-benchmark",
        abstract:
            "Model load time, real-time factor in grammar and dictation mode, synthesis speed, and memory while listening.",
        discussion: """
            Audio is TravelTracking commands spoken by eSpeak NG (three voices) and Debian's real \
            recording goforward.raw; dictation is the baseline grammar mode is compared with. It \
            prints figures only; it asserts nothing.
            """)

    @Flag(help: "Also the round trip of every phrase-test sentence both sample apps' grammars can say.")
    var suites = false

    @Flag(help: "Only what each audio front end costs per second of audio (RNNoise among them).")
    var frontEnds = false

    @Flag(help: "Only how many of the houses' commands may go on, and so wait longer for the end of speech.")
    var continuations = false

    @Flag(
        help:
            "Only what learning a new channel costs: people's commands, the default against decoding each twice."
    )
    var learning = false

    @Flag(
        help:
            "Only the trained wake words: false wakes on speech and noise with none in them, wake words heard, and their cost."
    )
    var wakeWords = false

    @Flag(
        help:
            "Only false wakes over hours of audio with no wake word (Scripts/false-wake-audio.sh gathers it), as the cutoff moves, with and without the recognizer's check, and what each setting misses."
    )
    var falseWakes = false

    @Flag(
        help:
            "Only the wake-word check's margin chosen for each person from a dozen of their takes (calibrate --wake-word), on the near-miss contributors (Scripts/false-wake-audio.sh gathers them)."
    )
    var personalWakeWord = false

    @Option(help: "With --false-wakes: a folder to write the plot (false-wakes.svg) in.")
    var plots: String?

    @Flag(
        help:
            "Only barge-in over a loudspeaker: people's commands over a reply's echo, with and without each echo canceller."
    )
    var echo = false

    @Flag(help: "With --echo, only the replies heard alone.")
    var repliesAlone = false

    @Flag(
        help:
            "With --echo, only people's commands over a reply as loud as them, turned down, in each of the ten rooms the replies alone are heard in."
    )
    var rooms = false

    @Flag(
        help:
            "Only what scoring the acoustic model costs: the library's own against the project's, on people's commands."
    )
    var scoring = false

    @Flag(
        help: "Only what an adapted acoustic model costs and brings against Debian's, on people's recordings."
    )
    var acousticModels = false

    @Option(help: "With --acoustic-models: the adapted model's folder (default: the manifest's).")
    var acousticModel: String?

    @OptionGroup var decoder: DecoderArguments

    func run() async throws {
        if frontEnds { return try FrontEndCost.run() }
        if acousticModels {
            return try await AcousticModels.run(phrases: packagePhrases, folder: acousticModel)
        }
        if continuations { return try await Continuations.run(phrases: packagePhrases) }
        if learning { return try await ChannelLearning.run(phrases: packagePhrases) }
        if scoring { return try await GaussianScoring.run(phrases: packagePhrases) }
        if wakeWords { return try await WakeWords.run(phrases: packagePhrases) }
        if personalWakeWord { return try await PersonalWakeWord.run() }
        if falseWakes { return try await FalseWakes.run(output: plots.map { URL(fileURLWithPath: $0) }) }
        if echo {
            return try await EchoCancellation.run(
                phrases: packagePhrases, repliesAloneOnly: repliesAlone, inRooms: rooms)
        }
        let clock = ContinuousClock()

        print("speech benchmark (\(ProcessInfo.processInfo.activeProcessorCount) cores)")
        let startMemory = ProcessMemory.current.resident

        var configuration = try SpeechRecognizer.Configuration.installed()
        if !decoder.settings.isEmpty { configuration.arguments = decoder.settings }
        print("decoder arguments: \(configuration.arguments.joined(separator: " "))")

        // Model load.
        var start = clock.now
        let recognizer = try SpeechRecognizer(configuration)
        let load = clock.now - start
        print(
            "model load: \(format(load.inSeconds)) s (target ≤ 1 s), resident \(format(ProcessMemory.current.resident, 1)) MiB"
        )

        // Grammar of the TravelTracking sample.
        let matcher = try await SampleApp.all[0].matcher()
        start = clock.now
        let grammar = SpeechGrammar(matcher.spokenForms, name: "travel-tracking")
        try recognizer.useGrammar(grammar)
        print(
            "grammar: \(grammar.words.count) words, \(recognizer.guessedWords.count) pronunciations guessed, \(grammar.graphSize.states) states and \(grammar.graphSize.arcs) arcs, set in \(format((clock.now - start).inSeconds)) s"
        )

        // Commands spoken by eSpeak NG.
        let commands = [
            "navigate to the map in travel tracking",
            "find two tickets for machu picchu with travel tracking",
            "how busy is uluru in travel tracking", "what is the closest landmark in travel tracking",
            "add the eiffel tower to my favorites in travel tracking", "delete waterfalls in travel tracking",
        ]
        var audio: [[Int16]] = []
        var synthesisTime = 0.0
        var spokenTime = 0.0
        for voice in ["en-us", "en-us+f2", "en+m7"] {
            for sentence in commands {
                start = clock.now
                let speech = try SpeechSynthesizer(voice: voice, rate: 170).speak(sentence)
                synthesisTime += (clock.now - start).inSeconds
                spokenTime += speech.duration
                // Quiet around the speech and a faint noise floor under it, as a microphone gives.
                audio.append(RoundTrip().heard(speech, seed: UInt64(audio.count)))
            }
        }
        print(
            "synthesis: \(format(spokenTime, 1)) s of speech in \(format(synthesisTime, 2)) s (real-time factor \(format(synthesisTime / spokenTime)))"
        )

        func decode(_ clips: [[Int16]]) throws -> (rtf: Double, heard: [String]) {
            var decodeTime = 0.0
            var audioTime = 0.0
            var heard: [String] = []
            for clip in clips {
                let began = clock.now
                heard.append(try recognizer.recognize(clip).text)
                decodeTime += (clock.now - began).inSeconds
                audioTime += Double(clip.count) / 16_000
            }
            return (decodeTime / audioTime, heard)
        }

        let grammarRun = try decode(audio)
        let right = zip(grammarRun.heard, commands + commands + commands).filter { $0.0 == $0.1 }.count
        let listening = ProcessMemory.current
        print(
            "grammar mode: real-time factor \(format(grammarRun.rtf)) (target ≤ 0.05), \(right) of \(audio.count) word for word"
        )

        // The graph as it was before names became one word each (CompoundWord): every name word by word.
        let wordByWord = SpeechGrammar(
            matcher.spokenForms, name: "travel-tracking-words", namesAsOneWord: false)
        try recognizer.useGrammar(wordByWord)
        let wordsRun = try decode(audio)
        let wordsRight = zip(wordsRun.heard, commands + commands + commands).filter { $0.0 == $0.1 }.count
        print(
            "graph with names word by word (\(wordByWord.graphSize.states) states): real-time factor \(format(wordsRun.rtf)), \(wordsRight) of \(audio.count) word for word; ratio names as one word / word by word: \(format(grammarRun.rtf / max(wordsRun.rtf, 0.0001), 2))"
        )

        // The graph without the hesitations a command may begin with ("uh", "um"): what they cost.
        let unhesitating = SpeechGrammar(matcher.spokenForms, name: "travel-tracking-plain", hesitations: [])
        try recognizer.useGrammar(unhesitating)
        let plainRun = try decode(audio)
        let plainRight = zip(plainRun.heard, commands + commands + commands).filter { $0.0 == $0.1 }.count
        print(
            "graph without hesitations (\(unhesitating.graphSize.states) states against \(grammar.graphSize.states)): real-time factor \(format(plainRun.rtf)), \(plainRight) of \(audio.count) word for word; ratio with / without: \(format(grammarRun.rtf / max(plainRun.rtf, 0.0001), 2))"
        )

        // The baseline: the same grammar as JSGF, compiled by PocketSphinx itself.
        try recognizer.useGrammar(
            SpeechGrammar(matcher.spokenForms, name: "travel-tracking-jsgf"), form: .jsgf)
        let jsgfRun = try decode(audio)
        let jsgfRight = zip(jsgfRun.heard, commands + commands + commands).filter { $0.0 == $0.1 }.count
        print(
            "grammar as JSGF (baseline): real-time factor \(format(jsgfRun.rtf)), \(jsgfRight) of \(audio.count) word for word; ratio minimal graph / JSGF: \(format(grammarRun.rtf / max(jsgfRun.rtf, 0.0001), 2))"
        )

        // Dictation: the baseline.
        let recording = try Data(
            contentsOf: URL(fileURLWithPath: "/usr/share/pocketsphinx/test/data/goforward.raw"))
        let real = recording.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        try recognizer.useDictation()
        let dictationRun = try decode(audio + [real])
        print(
            "dictation: real-time factor \(format(dictationRun.rtf)); goforward.raw heard as \"\(dictationRun.heard.last ?? "")\""
        )
        print("ratio dictation / grammar: \(format(dictationRun.rtf / max(grammarRun.rtf, 0.0001), 1))")
        print(
            "resident while listening: \(format(listening.resident, 1)) MiB (target ≤ 60 MB; \(format(listening.resident - startMemory, 1)) MiB above start), peak \(format(ProcessMemory.current.peak, 1)) MiB"
        )

        // The round trip over the phrase suites: every sentence the grammar can say, in three voices and
        // two rates, on every core.
        if suites {
            for app in SampleApp.all {
                // Names as one word each (the graph the recognizer uses), then word by word as before.
                for namesAsOneWord in [true, false] {
                    let name = app.name
                    let matcher = try await app.matcher()
                    let grammar = SpeechGrammar(
                        matcher.spokenForms, name: name, namesAsOneWord: namesAsOneWord)
                    let cases = try app.testCases()
                    let sayable = cases.filter { $0.expectation != .noMatch && grammar.canSay($0.sentence) }
                    let roundTrip = RoundTrip(configuration: configuration)
                    let began = clock.now
                    let report = try roundTrip.run(sayable.map(\.sentence), grammar: grammar)
                    let elapsed = (clock.now - began).inSeconds
                    // Understood: what was heard reaches the intent and values the suite expects.
                    let expectations = Dictionary(
                        sayable.map { ($0.sentence, $0) }, uniquingKeysWith: { first, _ in first })
                    var understood = 0
                    var misunderstood: [String] = []
                    for clip in report.clips {
                        let expected = expectations[clip.sentence]!
                        let result = await matcher.run(
                            PhraseTestSuite.Case(
                                sentence: clip.heard, expectation: expected.expectation,
                                source: expected.source))
                        if result.passed {
                            understood += 1
                        } else {
                            misunderstood.append("\(clip): \(result.got)")
                        }
                    }
                    print(
                        """
                        round trip \(name)\(namesAsOneWord ? "" : ", names word by word"): \(sayable.count) of \(cases.count) suite sentences in the grammar, \
                        \(report.clips.count) clips; heard word for word \(report.heard) (\(format(report.heardRate * 100, 1))%), \
                        understood \(understood) (\(format(Double(understood) / Double(max(report.clips.count, 1)) * 100, 1))%), \
                        real-time factor \(format(report.realTimeFactor)), \(format(elapsed, 1)) s
                        """)
                    for miss in report.misses { print("  misheard: \(miss)") }
                    for miss in misunderstood { print("  misunderstood: \(miss)") }
                }
            }
        }
    }
}
