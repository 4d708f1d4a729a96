// Voice-loop benchmark: how long the voice loop keeps someone waiting, and whether its memory
// stays flat over many turns.
//
//     export VOICE_INTENTS_BENCHMARKS=1; for product in travel-tracking library voice-loop-benchmark; do
//         swift build -c release --product $product
//     done
//     .build/release/voice-loop-benchmark [--clips N] [--turns N] [--silence S] [--plot loop.svg]
//
// (`--help` says what each option does.)
//
// Latency, end of speech → first sample of the reply, in two measured parts:
//   1. end of speech → recognized: in process, every suite sentence that asks nothing, spoken by
//      eSpeak NG with a faint noise floor (`RoundTrip.heard`), is fed to `SpeechRecognizer.listen`
//      in 100 ms chunks at a microphone's pace; the time runs from handing over the chunk with the
//      last speech sample to `listen` returning. It includes the endpointer's silence window
//      (`trailingSilence`, 0.5 s, `--silence`), and the figures are also given beyond it.
//   2. recognized → intent done and → first reply sample: the real `travel-tracking listen` (and
//      `library listen`) as a subprocess, hearing the same clips as one recording on standard
//      input (`--input - --output <tmp>.wav --verbose`), its `turn` lines parsed (`done=`,
//      `reply=`: the reply's audio synthesised and ready to play). A clip the loop turns into a
//      question (misheard, or a value it does not take) is left out of both parts, and named.
// The total is (1) + (2) reply, clip by clip, against the target of 150 ms beyond the window; it
// is given again counted from when the last speech sample was spoken, adding the 0–100 ms it
// waited for its chunk to fill, as on a microphone. "End of speech" is the last sample louder
// than −40 dBFS. The first reply sample is when the reply's audio is ready to play: a loudspeaker
// adds its own buffer's latency on top.
//
// Memory: `travel-tracking listen --input - --mute` hears a handful of commands over and over,
// fed as fast as the pipe takes them; its VmRSS is read from /proc after turn 10 and after turn
// 1,000 (`--turns`), counting the `> ` lines it prints.
//
// `--clips N` takes N sentences of each suite (spread over it) instead of all; `--plot` writes the
// latency distributions and the memory over turns as SVG. The executables are looked for next to
// this one (the same build folder). `VERBOSE=1` lists every clip's time to recognition and what
// was misheard, and the loop's other output. It prints figures only; it asserts nothing.

import BenchmarkCommand
import BenchmarkSupport
import Foundation
import Library
import Synchronization
import TravelTracking
import VoiceEvaluation
import VoiceIntents
import VoiceRecognition

@main
struct VoiceLoopBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "voice-loop-benchmark",
        abstract:
            "How long the voice loop keeps someone waiting, and whether its memory stays flat over many turns.",
        discussion: """
            Latency from the end of speech to the first sample of the reply, over the sample apps' \
            phrase-test sentences spoken by eSpeak NG, and travel-tracking listen's memory over many \
            turns. Build travel-tracking and library first: they are looked for next to this \
            executable. VERBOSE=1 lists every clip. It prints figures only; it asserts nothing.
            """)

    @Option(help: "Take N sentences of each suite, spread over it, instead of all.")
    var clips: Int?

    @Option(help: "Turns heard for the memory figures; 0 for none.")
    var turns = 1_000

    @Option(
        help: ArgumentHelp(
            "The silence window that ends an utterance, 0.05 to 5 (default: the models' own).",
            valueName: "seconds"))
    var silence: Double?

    @Option(
        help: ArgumentHelp(
            "Write the latency distributions and the memory over turns as SVG.", valueName: "file.svg"))
    var plot: String?

    func validate() throws {
        if let silence, !(0.05...5).contains(silence) {
            throw ValidationError("--silence takes 0.05 to 5 seconds")
        }
        if let clips, clips < 1 { throw ValidationError("--clips takes a whole number above 0") }
        if turns < 0 { throw ValidationError("--turns takes 0 or more") }
    }

    func run() async throws {
        let clipLimit = clips ?? 0
        let turnCount = turns
        let plotPath = plot
        let verbose = ProcessInfo.processInfo.environment["VERBOSE"] != nil
        signal(SIGPIPE, SIG_IGN)  // a loop that dies early fails the write instead of killing the benchmark
        let buildFolder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent()
        var configuration = try SpeechRecognizer.Configuration.installed()
        if let silence { configuration.trailingSilence = silence }
        let window = configuration.trailingSilence
        let target = 0.150
        let silenceArguments = silence.map { ["--silence", "\($0)"] } ?? []
        /// Quiet before and after each command: more than the window, so every command ends on its own.
        let padding = max(0.8, window + 0.3)
        /// Two seconds of quiet before the first command, as a microphone hears the room before anyone
        /// speaks.
        let warmUp = quiet(count: 32_000, seed: 1)

        print("voice-loop benchmark (\(ProcessInfo.processInfo.activeProcessorCount) cores)")
        print(
            "silence window \(ms(window)); target: end of speech → first reply sample ≤ window + \(ms(target)) = \(ms(window + target))"
        )

        // MARK: Latency

        var figures: [AppFigures] = []
        var memoryClips: [Clip] = []

        for (appIndex, sample) in SampleApp.all.enumerated() {
            let name = sample.name
            let executable = buildFolder.appendingPathComponent(name)
            guard FileManager.default.isExecutableFile(atPath: executable.path) else {
                print(
                    "\n\(name): no executable at \(executable.path); build it: swift build -c release --product \(name)"
                )
                continue
            }
            let app = try await App.load(sample)
            let sayable = try app.suiteSentences()
            var sentences = await app.oneShot(sayable)
            let asking = sayable.count - sentences.count
            if clipLimit > 0, sentences.count > clipLimit {
                sentences = (0..<clipLimit).map { sentences[$0 * sentences.count / clipLimit] }
                sentences = await app.oneShot(sentences)
            }
            let allClips = try Clip.make(sentences, padding: padding, seedBase: UInt64(appIndex) * 10_000)
            let audio = allClips.reduce(0) { $0 + $1.samples.count }
            print(
                """

                == \(name): \(sayable.count) suite sentences the grammar can say, \(asking) of them ask a question; \
                \(allClips.count) clips (\(Clip.voices.joined(separator: ", ")), 170 words a minute), \
                \(format(Double(audio) / 16_000, 1)) s of audio
                """)

            // (2) The loop itself, hearing the clips as one recording. A clip it hears otherwise
            // than written, or whose value it does not take (eSpeak NG's "world map"), becomes a
            // question that takes the next clip for its answer, and the turns after it would be
            // timed against the wrong clips. So the clips heard as written that asked a question
            // are left out, or where none did, the first clip not heard as written, and the loop
            // hears the rest again, up to five times. Both parts are timed on the clips kept.
            let replies = FileManager.default.temporaryDirectory.appendingPathComponent(
                "voice-loop-benchmark-\(ProcessInfo.processInfo.processIdentifier)-\(name).wav")
            defer { try? FileManager.default.removeItem(at: replies) }
            let loop = ListenProcess(
                executable: executable,
                arguments: ["listen", "--input", "-", "--output", replies.path, "--verbose"]
                    + silenceArguments)
            var clips = allClips
            var loopRun = try loop.hear(warmUp + clips.flatMap(\.samples))
            for _ in 0..<5 {
                let pairs = loopRun.pairs(with: clips)
                let asking = Set(pairs.filter(\.turn.asked).map(\.clip))
                let paired = Set(pairs.map(\.clip))
                // The clips after a question were taken for its answers: heard again without it.
                let left =
                    asking.isEmpty
                    ? Set(clips.indices.first { !paired.contains($0) }.map { [$0] } ?? []) : asking
                guard !left.isEmpty, left.count < clips.count else { break }
                for index in left.sorted() {
                    let why = asking.contains(index) ? "asked a question" : "heard otherwise"
                    print("left out (\(why) in the loop): \(clips[index].voice) \"\(clips[index].words)\"")
                }
                clips = clips.indices.filter { !left.contains($0) }.map { clips[$0] }
                loopRun = try loop.hear(warmUp + clips.flatMap(\.samples))
            }
            let turns = loopRun.turns
            let transcript = loopRun.transcript
            let loopTime = loopRun.seconds
            if loopRun.status != 0 {
                print("  \(name) listen exited with status \(loopRun.status):")
                for line in transcript.other.prefix(20) { print("    \(line)") }
            }

            // (1) End of speech → recognized, at a microphone's pace.
            let recognizer = try SpeechRecognizer(configuration)
            try recognizer.useGrammar(app.grammar)
            let began = clock.now
            let heard = try PacedListening(recognizer: recognizer, warmUp: warmUp, tail: window + 1.5).run(
                clips)
            let pacedTime = (clock.now - began).inSeconds

            let pairs = loopRun.pairs(with: clips, heard: heard.map(\.text))

            var result = AppFigures(name: name)
            result.recognized = heard.compactMap(\.latency)
            result.chunkWaits = heard.filter { $0.latency != nil }.map(\.chunkWait)
            let oneShot = turns.filter { !$0.asked && $0.intent != "none" }
            result.done = oneShot.compactMap(\.done)
            result.reply = oneShot.compactMap(\.reply)
            let replied = pairs.compactMap { pair -> (heard: PacedListening.Heard, reply: Double)? in
                guard !pair.turn.asked, let reply = pair.turn.reply, heard[pair.clip].latency != nil else {
                    return nil
                }
                return (heard[pair.clip], reply)
            }
            result.total = replied.map { $0.heard.latency! + $0.reply }
            result.spoken = replied.map { $0.heard.chunkWait + $0.heard.latency! + $0.reply }
            figures.append(result)

            let rightInProcess = zip(heard, clips).filter { $0.0.text == $0.1.words }.count
            let rightInLoop = pairs.filter { $0.turn.transcript == clips[$0.clip].words }.count
            print(
                """
                heard as written: \(rightInProcess) of \(clips.count) in process, \(rightInLoop) in the loop \
                (\(turns.count) turns, \(turns.filter(\.asked).count) with a question, \
                \(turns.filter { $0.intent == "none" }.count) not understood); \
                loop run \(format(loopTime, 1)) s, paced run \(format(pacedTime, 1)) s
                """)
            if verbose {
                for (clip, said) in zip(clips, heard) {
                    let latency = said.latency.map(ms) ?? "-"
                    let misheard = said.text == clip.words ? "" : ", heard as \"\(said.text)\""
                    print(
                        "  in process, \(latency) after the chunk: \(clip.voice) \"\(clip.words)\"\(misheard)"
                    )
                }
                let paired = Set(pairs.map(\.turn.transcript))
                for turn in turns where !paired.contains(turn.transcript) {
                    print("  loop turn left unpaired: \"\(turn.transcript)\"")
                }
                for line in transcript.other { print("  loop: \(line)") }
            }
            if let spread = Spread(result.recognized) {
                print("(1) end of speech → recognized:      \(spread.line())")
                print("    beyond the silence window:        \(spread.line(minus: window))")
            }
            if let spread = Spread(result.chunkWaits) {
                print(
                    "    (before that, the last speech sample waits for its 100 ms chunk: \(spread.line()))")
            }
            for (clip, said) in zip(clips, heard) where said.latency == nil {
                print(
                    "    never recognized (no words by \(format(window + 1.5, 1)) s after the speech): \(clip.voice) \"\(clip.words)\""
                )
            }
            if let spread = Spread(result.done) {
                print("(2) recognized → intent done:        \(spread.line())")
            }
            if let spread = Spread(oneShot.compactMap(\.match)) {
                print("    of which matching:                \(spread.line())")
            }
            if let spread = Spread(result.reply) {
                print("    recognized → first reply sample:  \(spread.line())")
            }
            if let spread = Spread(result.total) {
                print("(3) end of speech → first reply sample: \(spread.line())")
                print("    beyond the silence window:        \(spread.line(minus: window))")
                let within = result.total.filter { $0 - window <= target }.count
                print(
                    "    target ≤ \(ms(target)) beyond the window: met by \(within) of \(result.total.count) turns; "
                        + "p90 / target \(format((spread.p90 - window) / target, 2))")
            }
            if let spread = Spread(result.spoken) {
                print("    counted from when the last speech sample was spoken (its chunk's wait added):")
                print("                                      \(spread.line(minus: window)) beyond the window")
                let within = result.spoken.filter { $0 - window <= target }.count
                print("    target met by \(within) of \(result.spoken.count) turns")
            }

            if memoryClips.isEmpty, name == "travel-tracking" {
                // A handful of commands the loop heard right and answered without a question, each
                // reaching another intent.
                var intents = Set<String>()
                memoryClips = pairs.filter {
                    !$0.turn.asked && $0.turn.transcript == clips[$0.clip].words
                        && intents.insert($0.turn.intent).inserted
                }.prefix(5).map { clips[$0.clip] }
            }
        }

        // MARK: Memory

        var memorySamples: [MemorySample] = []
        let memoryExecutable = buildFolder.appendingPathComponent("travel-tracking")
        if turnCount > 0, !memoryClips.isEmpty {
            print(
                "\n== memory: travel-tracking listen --input - --mute, \(turnCount) turns of \(memoryClips.count) commands"
            )
            for clip in memoryClips { print("  \"\(clip.words)\"") }
            let loop = ListenProcess(
                executable: memoryExecutable,
                arguments: ["listen", "--input", "-", "--mute", "--verbose"] + silenceArguments
            )
            let transcript = Transcript()
            let samples = Mutex<[MemorySample]>([])
            let finished = Atomic(false)
            let total = turnCount
            let recordings = memoryClips.map { pcm($0.samples) }
            let began = clock.now
            let status = try loop.run(
                feed: { handle in
                    // Commands until the loop has heard `total` (a command it misses is made up for),
                    // and standard input open until then: at its end the loop exits, and its /proc
                    // entry with it. The pipe holds about two seconds of audio, so the writer is never
                    // more than a command or two ahead.
                    try handle.write(contentsOf: pcm(warmUp))
                    var turn = 0
                    while !finished.load(ordering: .relaxed), turn < 2 * total {
                        try handle.write(contentsOf: recordings[turn % recordings.count])
                        turn += 1
                    }
                },
                line: { line, pid in
                    transcript.take(line)
                    guard TurnLine(line) != nil, !finished.load(ordering: .relaxed) else { return }
                    let heard = transcript.heard
                    if let resident = ProcessMemory.of(pid: pid)?.resident {
                        samples.withLock { $0.append(MemorySample(turn: heard, resident: resident)) }
                    }
                    if heard >= total { finished.store(true, ordering: .relaxed) }
                })
            let elapsed = (clock.now - began).inSeconds
            memorySamples = samples.withLock { $0 }
            let turns = transcript.turns
            print(
                "  \(transcript.heard) heard, \(turns.count) turns (\(turns.filter(\.asked).count) with a question, \(turns.filter { $0.intent == "none" }.count) not understood) in \(format(elapsed, 1)) s; exit status \(status)"
            )
            if let early = memorySamples.first(where: { $0.turn >= 10 }), let last = memorySamples.last {
                let growth = last.resident - early.resident
                print("  resident after turn \(early.turn): \(format(early.resident, 1)) MiB")
                print("  resident after turn \(last.turn): \(format(last.resident, 1)) MiB")
                print(
                    "  difference: \(format(growth, 1)) MiB (\(format(growth * 1024 / Double(max(last.turn - early.turn, 1)), 2)) KiB a turn); peak over the run \(format(memorySamples.map(\.resident).max() ?? 0, 1)) MiB"
                )
            }
        } else if turnCount > 0 {
            print("\n== memory: left out (no travel-tracking executable, or no command it heard right)")
        }

        // MARK: Summary

        print("\n== summary (milliseconds; median / p90 / max)")
        func row(_ values: [Double], minus offset: Double = 0) -> String {
            guard let spread = Spread(values) else { return "-" }
            return [spread.median, spread.p90, spread.max].map {
                String(format: "%.0f", ($0 - offset) * 1_000)
            }
            .joined(separator: " / ")
        }
        for app in figures {
            print(
                """
                  \(app.name): end of speech → recognized \(row(app.recognized)); recognized → done \(row(app.done)), \
                → first reply sample \(row(app.reply)); end of speech → first reply sample \(row(app.total)), \
                beyond the \(ms(window)) window \(row(app.total, minus: window)) (target ≤ \(ms(target))); \
                from the last sample spoken, beyond the window \(row(app.spoken, minus: window))
                """)
        }

        // MARK: Plot

        if let plotPath {
            let svg = Plot.svg(
                latencies: figures.map { ($0.name, $0.recognized, $0.total) }, window: window, target: target,
                memory: memorySamples.map { ($0.turn, $0.resident) })
            try svg.write(toFile: plotPath, atomically: true, encoding: .utf8)
            print("\nwrote \(plotPath)")
        }
    }
}

struct AppFigures {
    let name: String
    var recognized: [Double] = []
    var chunkWaits: [Double] = []
    var done: [Double] = []
    var reply: [Double] = []
    var total: [Double] = []
    /// The total counted from when the last speech sample was spoken, not from when its chunk
    /// was handed over: what a person at a microphone waits.
    var spoken: [Double] = []
}

struct MemorySample {
    let turn: Int
    let resident: Double
}
