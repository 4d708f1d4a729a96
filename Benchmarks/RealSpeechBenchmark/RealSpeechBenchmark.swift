// Real-speech benchmark: grammar-mode accuracy on real recorded speech under several decoder
// settings, beside the same sentences spoken by eSpeak NG, and end-of-speech detection on a stream.
//
//     apt-get install pocketsphinx-testdata asterisk-core-sounds-en-g722 ffmpeg
//     VOICE_INTENTS_BENCHMARKS=1 swift run -c release real-speech-benchmark              # every setting below
//     VOICE_INTENTS_BENCHMARKS=1 swift run -c release real-speech-benchmark -beam 1e-60  # one setting of your own
//
// Recordings: Debian's `pocketsphinx-testdata` (goforward.raw, the cards WAVs, one TIDIGITS digit
// string, five LibriVox sentences) and `asterisk-core-sounds-en-g722` (one speaker, Allison:
// numbers, days, ordinals and months as single words, and short prompts), each under a grammar that
// covers its corpus, built with the package's own `SpokenForms` and `SpeechGrammar`. Each corpus
// has a synthetic twin: its transcripts spoken by eSpeak NG in three voices with 0.3 s of digital
// silence around them (as the speech benchmark and the round-trip test make them).
//
// For each setting and corpus it prints sentences heard word for word, word error rate, empty
// hypotheses, and real-time factor (decoding time over audio time; one core), three times: the
// recordings as they are, the recordings with a second of quiet noise (about -56 dBFS) either side
// as a microphone stream has them, and the eSpeak NG twin. Every corpus gets a fresh recognizer;
// within a corpus the recognizer carries its state (cepstral mean) from clip to clip as a live one
// would. Then it streams a few recordings through `listen(timeout:read:)` in 100 ms chunks, with a
// second of quiet noise either side, listening again after each result until the stream ends, and
// compares with `recognize` of the same audio. `VERBOSE=1` lists every miss. It prints figures
// only; it asserts nothing.

import BenchmarkCommand
import BenchmarkSupport
import Foundation
import PhraseMatching
import VoiceEvaluation
import VoiceRecognition

@main
struct RealSpeechBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "real-speech-benchmark",
        abstract:
            "Grammar-mode accuracy on real recorded speech under several decoder settings, and end of speech on a stream.",
        discussion: """
            Recordings from pocketsphinx-testdata and asterisk-core-sounds-en-g722, each beside \
            its transcripts spoken by eSpeak NG. VERBOSE=1 lists every miss. It prints figures \
            only; it asserts nothing.
            """)

    @OptionGroup var decoder: DecoderArguments

    func run() async throws {
        let settings =
            decoder.settings.isEmpty
            ? comparedSettings : [Setting(name: "given", arguments: decoder.settings)]
        print("real-speech benchmark (\(ProcessInfo.processInfo.activeProcessorCount) cores)")
        var real = try pocketSphinxCorpora()
        do {
            let probe = try SpeechRecognizer()
            real += try asteriskCorpora(knows: probe.knows)
        } catch {
            print("Asterisk sounds left out (\(error)); install asterisk-core-sounds-en-g722 and ffmpeg")
        }
        let voices = ["en-us", "en-us+f2", "en+m7"]
        let twins = try real.map { try synthetic($0, voices: voices) }
        for corpus in real {
            let audio = corpus.clips.reduce(0) { $0 + $1.duration }
            print(
                "corpus \(corpus.name): \(corpus.clips.count) recordings, \(format(audio, 1)) s; grammar \(corpus.grammar.words.count) words, \(corpus.grammar.graphSize.states) states"
            )
        }
        let verbose = ProcessInfo.processInfo.environment["VERBOSE"] != nil

        let quietReal = real.map(withQuiet)

        var summary: [(setting: String, real: Score, quiet: Score, synthetic: Score)] = []
        for setting in settings {
            print("\n== \(setting.name): \(setting.arguments.joined(separator: " "))")
            var realTotal = Score()
            var quietTotal = Score()
            var syntheticTotal = Score()
            for ((corpus, inQuiet), twin) in zip(zip(real, quietReal), twins) {
                let heard = try decode(corpus, setting)
                let heardInQuiet = try decode(inQuiet, setting)
                let spoken = try decode(twin, setting)
                realTotal = realTotal + heard
                quietTotal = quietTotal + heardInQuiet
                syntheticTotal = syntheticTotal + spoken
                print(
                    "  \(padded(corpus.name, 17)) real \(heard.line) | with quiet \(heardInQuiet.line) | eSpeak \(spoken.line)"
                )
                if verbose {
                    for miss in heard.misses { print("    real miss \(miss)") }
                    for miss in heardInQuiet.misses { print("    with quiet miss \(miss)") }
                    for miss in spoken.misses { print("    eSpeak miss \(miss)") }
                }
            }
            print(
                "  \(padded("all", 17)) real \(realTotal.line) | with quiet \(quietTotal.line) | eSpeak \(syntheticTotal.line)"
            )
            summary.append((setting.name, realTotal, quietTotal, syntheticTotal))
        }

        // Streaming: goforward, the cards, and the first prompts, under the current default and without
        // its VAD threshold.
        var streamed: [(clip: Clip, grammar: SpeechGrammar)] = []
        for corpus in real where ["goforward", "cards", "tidigits", "asterisk prompts"].contains(corpus.name)
        {
            for clip in corpus.clips.prefix(6) { streamed.append((clip, corpus.grammar)) }
        }
        let streamSettings =
            decoder.settings.isEmpty
            ? settings.filter {
                $0.name.hasPrefix("current") && !$0.name.contains("fsgusefiller")
                    && !$0.name.contains("dither")
            }
            : settings
        print(
            "\n== streaming: listen(timeout:read:) in 100 ms chunks, 1 s of quiet noise (-56 dBFS) either side"
        )
        for setting in streamSettings {
            let outcome = try stream(streamed, setting)
            let delays = outcome.endDelays.sorted()
            let median = delays.isEmpty ? 0 : delays[delays.count / 2]
            print(
                "  \(padded(setting.name, 30)) speech found \(outcome.found)/\(outcome.total), right \(outcome.right), same as recognize \(outcome.same), empty results \(outcome.emptySegments), last result read to \(format(median, 2)) s after the recording (median; \(format(delays.first ?? 0, 2))…\(format(delays.last ?? 0, 2)))"
            )
            for note in outcome.notes { print("    \(note)") }
        }

        print("\n== summary (all corpora)")
        for row in summary {
            print(
                "  \(padded(row.setting, 30)) real \(row.real.line) | with quiet \(row.quiet.line) | eSpeak \(row.synthetic.line)"
            )
        }
    }
}
