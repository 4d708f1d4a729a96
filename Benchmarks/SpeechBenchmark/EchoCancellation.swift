import BenchmarkCommand
import BenchmarkSupport
import Foundation
import PhraseMatching
import Synchronization
import VoiceAudio
import VoiceEvaluation
import VoiceIntents
import VoiceLoop
import VoiceRecognition
import VoiceUnderstanding

/// Barge-in over a loudspeaker: people's recorded commands to the two houses said over a reply
/// that eSpeak NG plays into a simulated room (``EchoPath``: 60 ms late, a living room's
/// reverberation), heard with no echo canceller and with each engine, at several levels of the
/// echo against the person's speech. Commands heard right over the reply are compared with the
/// same commands without it, run in the same process; and the ones the loop would act on over its
/// reply: taken for a person's rather than its reply's echo (`BargeIn.isPerson`), and a
/// cancel word, or a command at the loop's bar over a reply (its confirmation bar, higher than
/// the app's; a cancel word needs none), or at the app's bar and heard the same again from where
/// the reply was turned down. With a wake word, as a smart speaker is addressed over
/// its own reply: a person's "hey mycroft" and a command after it (one take), said over each
/// reply. Also: how far each engine pushes the echo down where nobody speaks (ERLE), what it
/// costs per second of audio, and how often replies alone (no one speaking) would be acted on,
/// as commands, by the loop listening over its reply for its commands and the cancel words, or
/// by the wake word.
///
/// Each canceller has heard six seconds of other replies in the same room first, as the loop's
/// has by its second reply; the person starts 1.5 s into the reply. "Ducked" turns the reply
/// down 0.4 s after the person starts, as far as the loop does once it hears speech over its
/// reply (`BargeIn.duckedVolume`; the reference the canceller is given is turned down with
/// it), and about as soon (measured on the loudspeaker test's rig).
enum EchoCancellation {
    /// What the loop might say while a person speaks over it.
    static let replies = [
        "The kitchen light is on.",
        "It is twenty one degrees in the living room, and the heating will come on again at six.",
        "Your shopping list has eggs, milk, bread, flour and two kinds of cheese on it.",
        "The timer for the pasta has four minutes and thirty seconds left.",
        "I turned off every light on the ground floor and locked the front door.",
        "Tomorrow it will be cloudy in the morning, with rain in the afternoon and a high of twelve.",
        "The garage door is closed, and the garden lights will go on at sunset.",
        "Playing the news in the bedroom. Say stop when you have heard enough.",
        "The dishwasher finished twenty minutes ago, and the washing machine is still running.",
        "Your next alarm is at seven fifteen, tomorrow morning.",
    ]

    /// The canceller a run hears through (`nil` for none), and whether the reply is ducked.
    struct Setup: Sendable, CustomStringConvertible {
        let settings: EchoCanceller.Settings?
        var ducked = false

        var description: String {
            guard let settings else { return "no echo canceller" }
            let engine =
                switch settings.engine {
                case .webRTC: "WebRTC, suppression \(["low", "moderate", "high"][settings.suppression])"
                case .speexDSP: "SpeexDSP, \(Int(settings.filterLength * 1_000)) ms filter"
                case .speexDSPThenWebRTC:
                    "SpeexDSP (\(Int(settings.filterLength * 1_000)) ms filter), then WebRTC, suppression \(["low", "moderate", "high"][settings.suppression])"
                }
            return engine + (ducked ? ", ducked" : "")
        }
    }

    static let setups = [
        Setup(settings: nil), Setup(settings: .init(engine: .webRTC, suppression: 0)),
        Setup(settings: .init(engine: .webRTC, suppression: 1)),
        Setup(settings: .init(engine: .speexDSP, filterLength: 0.2)),
        Setup(settings: .init(engine: .speexDSPThenWebRTC)),
        Setup(settings: .init(engine: .webRTC, suppression: 0), ducked: true),
        Setup(settings: .init(engine: .speexDSP, filterLength: 0.2), ducked: true),
        Setup(settings: .init(engine: .speexDSPThenWebRTC), ducked: true),
    ]

    /// Seconds of the reply before the person starts.
    static let speechStart = 1.5
    /// Seconds from the person's start to the reply turned down, and by how much (dB).
    static let duckDelay = 0.4
    static let duckDepth = -20 * log10(Double(BargeIn.duckedVolume))
    /// Seconds of replies each canceller hears before the clip.
    static let warmUp = 6.0
    /// The room.
    static let path = EchoPath(delay: 0.06)

    /// The ten rooms replies are heard alone in (and, with `--rooms`, commands over them): the
    /// delay 20 to 200 ms, the reverberation 0.2 to 0.56 s.
    static func room(_ index: Int) -> EchoPath {
        EchoPath(
            delay: 0.02 + 0.02 * Double(index), reverberation: 0.2 + 0.04 * Double(index), seed: UInt64(index)
        )
    }

    /// What the echo figures of one run add up to, from every worker.
    final class Tally: Sendable {
        struct Sums {
            var echoIn = 0.0
            var echoOut = 0.0
            var seconds = 0.0
            var working = 0.0
        }
        let sums = Mutex(Sums())
    }

    static func run(phrases: URL, repliesAloneOnly: Bool = false, inRooms: Bool = false) async throws {
        let configuration = try SpeechRecognizer.Configuration.installed()
        print(
            "barge-in over a loudspeaker: people's commands over eSpeak NG's replies in a simulated room (\(ProcessInfo.processInfo.activeProcessorCount) cores)"
        )
        let cache = try SpeechCache(folder: SpeechCache.defaultFolder)
        let played = try replies.map { try cache.speech($0, voice: "en-us", rate: 175) }
        // A person's "hey mycroft, turn on the living room lamp", where that wake word is installed.
        let wakeWord = WakeWordDetector.installedModels().first { $0.name == "hey_mycroft" }.map {
            (
                model: $0, command: "turn on the living room lamp",
                take: PeoplesRecordings.folder("rhasspy-test-en").appendingPathComponent(
                    "wake/precise_turn_on_the_living_room_lamp.wav")
            )
        }
        for (name, grammar, cases, matcher) in try await Houses.commandsAndMatchers(phrases: phrases) {
            let recorded = cases.filter { $0.audio != nil }
            let bar = try Calibration.installed(app: name)?.threshold ?? configuration.minimumConfidence
            // The loop's bar for a command said over its reply (a cancel word needs none).
            let overReplyBar = ConfidencePolicy(minimumConfidence: bar).overReply.minimumConfidence
            /// Commands acted on (heard right, at the app's bar), and the ones the loop would act on
            /// over a reply: heard right, taken for a person's (as `gate` holds), and a cancel word,
            /// a command at the loop's bar over a reply, or one at the app's bar heard the same
            /// again from the turn-down (`VoiceChannel.HeardCommand.runs`); and the clips acted on
            /// at the app's bar as another command than said (`wrongAtBar`: with no reply, what the
            /// wrong commands run over one compare with).
            func accepted(
                _ cases: [PhraseTestSuite.Case], gate: Gate? = nil,
                _ microphone: (@Sendable (SpokenEvaluation.Item, [Int16]) throws(SpeechError) -> [Int16])?
            ) async throws -> (acted: Int, taken: Int, heardAgain: HeardAgain, wrongAtBar: Int) {
                var evaluation = SpokenEvaluation(configuration: configuration)
                evaluation.microphone = microphone
                let heard = try evaluation.hear(evaluation.items(for: cases), grammar: grammar)
                let report = await EvaluationReport(app: name, heard: heard, matcher: matcher).acting(at: bar)
                let isPerson = gate?.isPerson.withLock { $0 } ?? [:]
                let heardAgain = gate?.heardAgain.withLock { $0 } ?? [:]
                let cancelHeardAgain = heardAgain.filter { SpeechGrammar.isCancel(heard: $0.value) }
                // Over a question, where the words came after the turn-down, a cancel word heard
                // again stops it instead of the command the first hearing would run (these
                // replies are not questions: counted only).
                let stoppedInstead = Set(cancelHeardAgain.keys).intersection(
                    gate?.wordsAfter.withLock { $0 } ?? [])
                // A person's commands between the app's bar and the one over a reply, heard the
                // same again.
                var heardTwice = Set<String>()
                for clip in report.clips
                where clip.gotIntent != nil && isPerson[clip.source] ?? true
                    && (bar..<overReplyBar).contains(clip.confidence ?? 0)
                    && !SpeechGrammar.isCancel(heard: clip.heard)
                {
                    guard let again = heardAgain[clip.source], !SpeechGrammar.isCancel(heard: again),
                        let first = await matcher.match(clip.heard).best
                    else { continue }
                    let second = await matcher.match(again).best
                    let clears = VoiceChannel.HeardCommand.Clears.appBar
                    if VoiceChannel.HeardCommand.runs(
                        .init(match: first, clears: clears),
                        again: second.map { .init(match: $0, clears: clears) })
                    {
                        heardTwice.insert(clip.source)
                    }
                }
                // Commands the loop would run over its reply.
                let run = report.clips.filter {
                    $0.gotIntent != nil && isPerson[$0.source] ?? true
                        && !SpeechGrammar.isCancel(heard: $0.heard)
                        && (($0.confidence ?? 0) >= overReplyBar || heardTwice.contains($0.source))
                }
                let wrong = run.filter { !($0.isCommand && $0.isRight) }
                let ran = Set(run.map(\.source))
                let stopped = report.clips.filter {
                    cancelHeardAgain[$0.source] != nil && !ran.contains($0.source)
                        && !SpeechGrammar.isCancel(heard: $0.heard)
                }
                let saidCancel = stopped.count { SpeechGrammar.isCancel(heard: $0.sentence) }
                let twice = run.filter { heardTwice.contains($0.source) }
                return (
                    report.clips.count(where: \.isAccepted),
                    report.clips.count {
                        $0.isCommand && $0.isRight && $0.gotIntent != nil && isPerson[$0.source] ?? true
                            && (ran.contains($0.source) || SpeechGrammar.isCancel(heard: $0.heard))
                    },
                    HeardAgain(
                        heard: heardAgain.count,
                        right: run.count {
                            $0.isCommand && $0.isRight && cancelHeardAgain[$0.source] != nil
                        },
                        wrong: wrong.count, wrongStopped: wrong.count { cancelHeardAgain[$0.source] != nil },
                        rightStoppedInstead: run.count {
                            $0.isCommand && $0.isRight && stoppedInstead.contains($0.source)
                        },
                        wrongStoppedInstead: wrong.count { stoppedInstead.contains($0.source) },
                        stoppedCancels: saidCancel, stoppedOthers: stopped.count - saidCancel,
                        twiceRight: twice.count { $0.isCommand && $0.isRight },
                        twiceWrong: twice.count { !($0.isCommand && $0.isRight) }),
                    report.clips.count { $0.isActedOn && !($0.isCommand && $0.isRight) }
                )
            }
            let baseline = try await accepted(recorded, nil)
            let alone = baseline.acted
            let secondHearing = SecondHearing(
                grammar: SpeechGrammar.commandsOrCancel(matcher.spokenForms, name: "\(name)_over_reply"),
                configuration: configuration)
            print(
                "  \(name): \(alone) of \(recorded.count) commands heard right with no reply playing (the baseline), acting at \(format(bar, 2)), and \(baseline.wrongAtBar) acted on as another command"
            )
            /// Each clip said over a reply as the microphone records it through `setup`, with the
            /// gate's verdict kept in `gate`.
            func saidOverReply(
                level: Double, setup: Setup, gate: Gate, tally: Tally, path: EchoPath = Self.path
            )
                -> @Sendable (SpokenEvaluation.Item, [Int16]) throws(SpeechError) -> [Int16]
            {
                { item, clip throws(SpeechError) in
                    let reply = reply(
                        from: played, covering: Double(clip.count) / 16_000 + speechStart + 1,
                        first: Int((UInt64(SpeechCache.hash(item.testCase.sentence), radix: 16) ?? 0) % 10))
                    let (out, isPerson) = try overReply(
                        clip, reply: reply, warmUp: played, level: level, setup: setup, tally: tally,
                        gate: gate,
                        source: "\(item.testCase.source)", path: path)
                    gate.isPerson.withLock { $0["\(item.testCase.source)"] = isPerson }
                    return out
                }
            }
            if inRooms {
                print(
                    "    echo as loud as the speech, in each of ten rooms (delay 20 to 200 ms, reverberation 0.2 to 0.56 s), turned down:"
                )
                for setup in setups where setup.ducked {
                    var acted: [Int] = []
                    var wrong = 0
                    for index in 0..<10 {
                        let gate = Gate(secondHearing: secondHearing)
                        let (_, taken, heardAgain, _) = try await accepted(
                            recorded, gate: gate,
                            saidOverReply(
                                level: 0, setup: setup, gate: gate, tally: Tally(), path: room(index)))
                        acted.append(taken)
                        wrong += heardAgain.wrong
                    }
                    let share = Double(acted.reduce(0, +)) / Double(10 * max(alone, 1))
                    print(
                        "      \(setup): the loop would act on \(acted.map(String.init).joined(separator: " / ")) over its reply (\(format(share, 2))× the baseline over all ten), and run \(wrong) wrong commands (with no reply, \(10 * baseline.wrongAtBar) in ten passes)"
                    )
                }
                continue
            }
            /// One person's wake word and a command after it, said over each reply (`nil`: alone):
            /// how often the wake word was heard, and the command run.
            func wakeTrials(
                _ wake: (model: WakeWordDetector.Model, command: String, take: URL),
                _ command: PhraseTestSuite.Case, level: Double?
            ) async throws -> (woke: Int, run: Int) {
                let woke = Mutex(0)
                let cases = replies.indices.map {
                    PhraseTestSuite.Case(
                        sentence: command.sentence, expectation: command.expectation,
                        source: .init(file: "wake word", line: $0, column: 0), audio: wake.take)
                }
                let run = try await accepted(level == nil ? [cases[0]] : cases) {
                    item, take throws(SpeechError) in
                    let reply = level.map { _ in
                        Self.reply(
                            from: played, covering: Double(take.count) / 16_000 + speechStart + 1,
                            first: item.testCase.source.line)
                    }
                    let after = try afterWakeWord(
                        take, reply: reply, warmUp: played, level: level ?? 0, model: wake.model)
                    if after != nil { woke.withLock { $0 += 1 } }
                    return after ?? [Int16](repeating: 0, count: 16_000)
                }.acted
                return (woke.withLock { $0 }, run)
            }
            let wakeCommand = wakeWord.flatMap { wake in recorded.first { $0.sentence == wake.command } }
            var wakeAlone: (woke: Int, run: Int)?
            if let wakeWord, let wakeCommand, !repliesAloneOnly {
                wakeAlone = try await wakeTrials(wakeWord, wakeCommand, level: nil)
            }
            for level in repliesAloneOnly ? [] : [-6.0, 0, 6] {
                print("    echo \(level >= 0 ? "+" : "")\(Int(level)) dB against the speech:")
                for setup in setups {
                    let tally = Tally()
                    let gate = Gate(secondHearing: setup.ducked ? secondHearing : nil)
                    let (right, taken, heardAgain, _) = try await accepted(
                        recorded, gate: setup.settings == nil ? nil : gate,
                        saidOverReply(level: level, setup: setup, gate: gate, tally: tally))
                    let figures = tally.sums.withLock { $0 }
                    var line =
                        "      \(setup): \(right) (\(format(Double(right) / Double(max(alone, 1)), 2))× the baseline)"
                    if setup.settings != nil {
                        line +=
                            "; the loop would act on \(taken) over its reply (\(format(Double(taken) / Double(max(alone, 1)), 2))×: heard right, a person's, and a cancel word, at \(format(overReplyBar, 2)), or heard the same twice)"
                        if setup.ducked {
                            line +=
                                "; heard again from the turn-down (\(heardAgain.heard) clips), a cancel word in \(heardAgain.right) of the right commands it would run and \(heardAgain.wrongStopped) of the \(heardAgain.wrong) wrong ones (with the words after the turn-down, which over a question would stop it instead: \(heardAgain.rightStoppedInstead) right and \(heardAgain.wrongStoppedInstead) wrong); of the words it would not act on, heard as a cancel word (stopping the reply) in \(heardAgain.stoppedCancels) said as one and \(heardAgain.stoppedOthers) not; run because heard the same again (at \(format(bar, 2)), under \(format(overReplyBar, 2))): \(heardAgain.twiceRight) right commands and \(heardAgain.twiceWrong) wrong ones"
                        }
                        line +=
                            ", echo where nobody speaks down \(format(10 * log10(figures.echoIn / figures.echoOut), 1)) dB, canceller \(format(figures.working / figures.seconds)) of real time"
                    }
                    print(line)
                }
                if let wake = wakeWord, let command = wakeCommand, let wakeAlone {
                    let (woke, run) = try await wakeTrials(wake, command, level: level)
                    print(
                        "      \"\(wake.model.name)\" and \"\(command.sentence)\" said over it (one person's take, 10 replies; the loop's canceller, \(EchoCanceller.Settings().engine.rawValue), turned down as above, stopped at the wake word): the wake word heard over \(woke) of 10, the command after it run \(run) (the take alone: \(wakeAlone.woke == 1 ? "heard" : "not heard"), \(wakeAlone.run == 1 ? "run" : "not run"))"
                    )
                }
            }
            print("    replies alone, 100 of them (10 replies × 10 rooms):")
            for setup in setups where !setup.ducked {
                let (commands, cancels, wakes) = try await repliesAlone(
                    played: played, cache: cache, setup: setup, grammar: grammar, matcher: matcher,
                    name: name, configuration: configuration, bar: bar, wakeWord: wakeWord?.model)
                print(
                    "      \(setup): \(commands) acted on as commands at \(format(bar, 2)); \(cancels) would stop the loop's reply"
                        + (wakeWord.map { " (\(wakes) would wake it with \"\($0.model.name)\")" } ?? "")
                )
            }
        }
    }

    /// Replies strung together from `played`, from the one numbered `first`, until `seconds` long.
    static func reply(from played: [[Float]], covering seconds: Double, first: Int) -> [Float] {
        var index = first
        var reply: [Float] = []
        let pause = [Float](repeating: 0, count: 16_000 * 3 / 10)
        while Double(reply.count) / 16_000 < seconds {
            reply += played[index % played.count] + pause
            index += 1
        }
        return reply
    }

    static func int16(_ samples: [Float]) -> [Int16] {
        samples.map { Int16(max(-32_768, min(32_767, $0.rounded()))) }
    }

    /// What the loop's second hearing of a person's words over a reply, from the turn-down, did
    /// to the commands it would run over its reply: of how many clips it heard again, in how
    /// many of the right commands and of the wrong ones it heard a cancel word.
    struct HeardAgain {
        var heard = 0
        var right = 0
        var wrong = 0
        var wrongStopped = 0
        /// Of those, the ones whose words came after the turn-down, where over a question the
        /// cancel word would stop it instead of the command running.
        var rightStoppedInstead = 0
        var wrongStoppedInstead = 0
        /// Of the words it would not act on (first heard as no command it would run, nor a cancel
        /// word), how many it heard a cancel word in, which stops the reply: said as a cancel
        /// word, and not.
        var stoppedCancels = 0
        var stoppedOthers = 0
        /// Of the commands it would run, how many only because heard the same again (at the
        /// app's bar, under the one over a reply): right and wrong.
        var twiceRight = 0
        var twiceWrong = 0
    }

    /// Whether the loop would take each clip's speech for a person's, by the clip's source; and
    /// where it would hear it again from the turn-down (``SecondHearing``), what it heard there.
    final class Gate: Sendable {
        let isPerson = Mutex([String: Bool]())
        let heardAgain = Mutex([String: String]())
        /// The clips whose words came after the turn-down (`BargeIn.wordsCameAfter`).
        let wordsAfter = Mutex(Set<String>())
        let secondHearing: SecondHearing?

        init(secondHearing: SecondHearing? = nil) {
            self.secondHearing = secondHearing
        }
    }

    /// The loop's second hearing of a person's words over a reply, from where the reply was heard
    /// turned down, under its grammar over a reply (the app's commands and the cancel words): what
    /// it hears. Recognizers are kept for the workers to share.
    final class SecondHearing: @unchecked Sendable {  // `idle` behind `lock`
        let grammar: SpeechGrammar
        let configuration: SpeechRecognizer.Configuration
        private let lock = NSLock()
        private var idle: [SpeechRecognizer] = []

        init(grammar: SpeechGrammar, configuration: SpeechRecognizer.Configuration) {
            self.grammar = grammar
            self.configuration = configuration
        }

        func hears(_ samples: [Int16]) throws(SpeechError) -> String {
            var recognizer = lock.withLock { idle.popLast() }
            if recognizer == nil {
                let fresh = try SpeechRecognizer(configuration)
                try fresh.useGrammar(grammar)
                recognizer = fresh
            }
            guard let recognizer else { return "" }
            defer { lock.withLock { idle.append(recognizer) } }
            return try recognizer.recognize(samples).text
        }
    }

    /// The stretch of `clip` the loop's gate measures: from 100 ms before its speech (its first
    /// 10 ms frame within 35 dB of its loudest) to 500 ms after its last (the silence that ends
    /// the utterance).
    static func spoken(_ clip: [Int16]) -> Range<Int> {
        let sound = sound(clip)
        return max(
            0, sound.lowerBound - 1_600)..<(sound.upperBound + Int(BargeIn.endingSilence * 16_000))
    }

    /// From the first to the end of the last 10 ms frame of `clip` within 35 dB of its loudest.
    static func sound(_ clip: [Int16]) -> Range<Int> {
        let energies = stride(from: 0, to: clip.count, by: 160).map {
            ContinuousCapture.energy(clip[$0..<min($0 + 160, clip.count)])
        }
        let loud = (energies.max() ?? 0) * pow(10, -3.5)
        let first = energies.firstIndex { $0 > loud } ?? 0
        let last = energies.lastIndex { $0 > loud } ?? 0
        return first * 160..<(last + 1) * 160
    }

    /// What the loop's recognizer hears after the wake word in `take`, a person's wake word and
    /// command said ``speechStart`` seconds into `reply` with its echo `level` dB over the
    /// speech, through the loop's own canceller (`EchoCanceller.Settings()`): the reply turned
    /// down ``duckDelay`` after the person starts, as for the commands, and stopped once the wake
    /// word is heard (``BargeIn/turnDownDelay`` chunks after it, as a turn-down). `nil` where
    /// the detector did not hear the wake word, or the loop's gate took it for the reply's echo.
    /// With no `reply`, the take as recorded.
    static func afterWakeWord(
        _ take: [Int16], reply: [Float]?, warmUp replies: [[Float]], level: Double,
        model: WakeWordDetector.Model
    ) throws(SpeechError) -> [Int16]? {
        /// The chunk the detector hears the wake word in, and where in it.
        func wakeWord(in audio: [Int16]) throws(SpeechError) -> (chunk: Int, at: Int)? {
            let detector = try WakeWordDetector(model: model)
            for (index, start) in stride(from: 0, to: audio.count, by: 1_600).enumerated() {
                if let at = detector.process(Array(audio[start..<min(start + 1_600, audio.count)])) {
                    return (index, at)
                }
            }
            return nil
        }
        guard let reply else {
            return try wakeWord(in: take).map { Array(take[($0.chunk * 1_600 + $0.at)...]) }
        }
        // The loop's own canceller.
        let settings = EchoCanceller.Settings()
        let room = Room(take, reply: reply, level: level)
        let turnedDown = Int(speechStart * 16_000) + sound(take).lowerBound + Int(duckDelay * 16_000)
        // The reply goes on until the wake word is heard in what the canceller lets through...
        let (heard, reference) = room.microphone(turnedDownAt: turnedDown)
        let out = try room.cancelled(heard, reference: reference, warmUp: replies, settings: settings).out
        guard let (chunk, at) = try wakeWord(in: out) else { return nil }
        // ...where the loop's gate takes the second up to it for a person's.
        let energies = chunkEnergies(heard, out).prefix(chunk + 1)
        let verdict = BargeIn.wakeWordIsAPersons(
            Array(energies), window: max(0, energies.count - 10)..<energies.count,
            turnDown: turnedDown < chunk * 1_600 ? turnDown(at: turnedDown, reference: reference) : nil)
        guard verdict.isPerson else { return nil }
        // Then the reply stops; the recognizer hears what follows the wake word.
        let stopped = (chunk + 1 + BargeIn.turnDownDelay) * 1_600
        let (after, played) = room.microphone(turnedDownAt: turnedDown, stoppedAt: stopped)
        let rest = try room.cancelled(after, reference: played, warmUp: replies, settings: settings).out
        return Array(rest[(chunk * 1_600 + at)...])
    }

    /// The microphone's recording of `clip` said ``speechStart`` seconds into `reply` (on the
    /// 16-bit scale), with the reply's echo `level` dB over the speech, through the setup's
    /// canceller after it has heard ``warmUp`` seconds of the other replies; and whether the
    /// loop would take what was recorded while the clip was spoken (``spoken(_:)``) for a
    /// person's rather than its reply's echo (`BargeIn.isPerson`; always, without a
    /// canceller).
    static func overReply(
        _ clip: [Int16], reply: [Float], warmUp replies: [[Float]], level: Double, setup: Setup, tally: Tally,
        gate: Gate? = nil, source: String = "", path: EchoPath = Self.path
    ) throws(SpeechError) -> (out: [Int16], isPerson: Bool) {
        let offset = Int(speechStart * 16_000)
        let turnedDown = Int((speechStart + duckDelay) * 16_000)
        let room = Room(clip, reply: reply, level: level, path: path)
        let (heard, reference) = room.microphone(turnedDownAt: setup.ducked ? turnedDown : nil)
        guard let settings = setup.settings else { return (heard, true) }
        let (out, working) = try room.cancelled(
            heard, reference: reference, warmUp: replies, settings: settings)
        // Where nobody speaks and the reply is not turned down: the reply before the person starts,
        // and, unducked, what follows the command.
        let speechEnd = offset + clip.count
        let quiet = Array(0..<offset) + (setup.ducked ? [] : Array(speechEnd..<out.count))
        tally.sums.withLock { tally in
            tally.echoIn += quiet.reduce(0.0) { $0 + Double(heard[$1]) * Double(heard[$1]) }
            tally.echoOut += quiet.reduce(0.0) { $0 + Double(out[$1]) * Double(out[$1]) }
            tally.seconds += Double(heard.count) / 16_000
            tally.working += working
        }
        // As the loop measures it: in 100 ms chunks, the reply turned down by a decision 150 ms
        // before it went down (``BargeIn/TurnDown``).
        let chunks = chunkEnergies(heard, out)
        let spoken = spoken(clip)
        let end = min(chunks.count, (offset + spoken.upperBound) / 1_600)
        let window = min(end, (offset + spoken.lowerBound) / 1_600)..<end
        let down = setup.ducked ? turnDown(at: turnedDown, reference: reference) : nil
        let spokenUntil = end - Int(BargeIn.endingSilence * 10)
        let verdict = BargeIn.isPerson(chunks, window: window, speechEnd: spokenUntil, turnDown: down)
        // Heard again from the turn-down, as the loop does for words it would not act on.
        if let down, verdict.isPerson, let secondHearing = gate?.secondHearing,
            let first = BargeIn.heardAgainFrom(
                turnDown: down, start: window.lowerBound, speechEnd: spokenUntil)
        {
            let text = try secondHearing.hears(Array(out[(first * 1_600)..<(end * 1_600)]))
            gate?.heardAgain.withLock { $0[source] = text }
            if BargeIn.wordsCameAfter(
                turnDown: down, chunks, start: window.lowerBound, speechEnd: spokenUntil)
            {
                gate?.wordsAfter.withLock { _ = $0.insert(source) }
            }
        }
        return (out, verdict.isPerson)
    }

    /// Where the loop decided to turn its reply down, for a reply that went down at `sample`: a
    /// decision 150 ms before; and where it was heard turned down, as the loop finds it in what was
    /// played (`reference`; ``BargeIn/turnDownHeard(played:decided:)``).
    static func turnDown(at sample: Int, reference: [Int16]) -> BargeIn.TurnDown {
        let decided = (sample - 2_400) / 1_600
        return .init(
            decided: decided,
            heardFrom: BargeIn.turnDownHeard(played: chunkEnergies(reference), decided: decided)
                ?? decided + BargeIn.turnDownDelay + 1)
    }

    /// Each 100 ms chunk's energy as recorded and as the canceller let it through, as the loop
    /// measures them.
    static func chunkEnergies(_ heard: [Int16], _ out: [Int16]) -> [(recorded: Double, heard: Double)] {
        zip(chunkEnergies(heard), chunkEnergies(out)).map { (recorded: $0, heard: $1) }
    }

    /// Each whole 100 ms chunk's energy.
    static func chunkEnergies(_ samples: [Int16]) -> [Double] {
        stride(from: 0, to: samples.count - 1_599, by: 1_600).map {
            ContinuousCapture.energy(samples[$0..<($0 + 1_600)])
        }
    }

    /// A person's `clip` said ``speechStart`` seconds into `reply`, in a room (``path`` unless
    /// another is given), with the reply's echo `level` dB over the speech (set on the reply as it
    /// would sound undisturbed).
    struct Room {
        let speech: [Float]
        let reply: [Float]
        let gain: Float
        let path: EchoPath

        init(_ clip: [Int16], reply: [Float], level: Double, path: EchoPath = EchoCancellation.path) {
            self.path = path
            speech = clip.map(Float.init)
            self.reply = reply.map { $0 * 16_384 }
            gain =
                NoiseMixer.activeLevel(speech) * Float(pow(10, level / 20))
                / NoiseMixer.activeLevel(path.echo(of: self.reply))
        }

        /// What the microphone records (the reply turned down by ``duckDepth`` from the sample
        /// `turnedDownAt`, and stopped from `stoppedAt`), and what the loop plays: the
        /// canceller's reference.
        func microphone(turnedDownAt: Int?, stoppedAt: Int? = nil) -> (heard: [Int16], reference: [Int16]) {
            var reply = self.reply
            if let turnedDownAt {
                let down = Float(pow(10, -duckDepth / 20))
                for index in min(turnedDownAt, reply.count)..<reply.count { reply[index] *= down }
            }
            if let stoppedAt, stoppedAt < reply.count {
                reply.replaceSubrange(stoppedAt..., with: repeatElement(0, count: reply.count - stoppedAt))
            }
            let echo = path.echo(of: reply)
            let offset = Int(speechStart * 16_000)
            var mixed = [Float](repeating: 0, count: max(echo.count, offset + speech.count))
            for index in echo.indices { mixed[index] = echo[index] * gain }
            for index in speech.indices { mixed[offset + index] += speech[index] }
            let peak = mixed.reduce(Float(0)) { max($0, abs($1)) }
            if peak > 32_767 { mixed = mixed.map { $0 * 32_767 / peak } }
            return (int16(mixed), int16(reply))
        }

        /// `heard` through a canceller of `settings` that has first heard earlier replies in the
        /// same room, at the same level (as long as `heard`), and the seconds it took over `heard`.
        func cancelled(
            _ heard: [Int16], reference: [Int16], warmUp replies: [[Float]], settings: EchoCanceller.Settings
        ) throws(SpeechError) -> (out: [Int16], working: Double) {
            try EchoCancellation.cancelled(
                heard, reference: reference, settings: settings, warmUp: replies, first: 3, path: path,
                gain: gain)
        }
    }

    /// `heard` (with `reference` played) through a canceller of `settings` that has first heard
    /// ``warmUp`` seconds of `replies`, from the one numbered `first`, through `path` at `gain`;
    /// as long as `heard`, and the seconds it took over `heard`.
    static func cancelled(
        _ heard: [Int16], reference: [Int16], settings: EchoCanceller.Settings, warmUp replies: [[Float]],
        first: Int, path: EchoPath, gain: Float
    ) throws(SpeechError) -> (out: [Int16], working: Double) {
        let canceller = try EchoCanceller(settings)
        var earlier = reply(from: replies, covering: warmUp, first: first).map { $0 * 16_384 }
        earlier = Array(earlier.prefix(earlier.count / 160 * 160))
        _ = canceller.process(
            captured: int16(path.echo(of: earlier).prefix(earlier.count).map { $0 * gain }),
            played: int16(earlier))
        let clock = ContinuousClock()
        let started = clock.now
        var out: [Int16] = []
        for start in stride(from: 0, to: heard.count, by: 1_600) {
            let end = min(start + 1_600, heard.count)
            let played = (start..<end).map { $0 < reference.count ? reference[$0] : 0 }
            out += canceller.process(captured: Array(heard[start..<end]), played: played)
        }
        return (out + [Int16](repeating: 0, count: heard.count - out.count), (clock.now - started).inSeconds)
    }

    /// 100 replies heard alone through the setup (each of the ten replies in ten rooms: the
    /// delay 20 to 200 ms, the reverberation 0.2 to 0.56 s), with a quiet room's noise 30 dB
    /// under them: how many the app would act on as commands, how many the loop, listening
    /// while it speaks, would be stopped by (a cancel word, or a command it would run), and how
    /// many `wakeWord` would be heard in.
    static func repliesAlone(
        played: [[Float]], cache: SpeechCache, setup: Setup, grammar: SpeechGrammar, matcher: PhraseMatcher,
        name: String, configuration: SpeechRecognizer.Configuration, bar: Double,
        wakeWord: WakeWordDetector.Model?
    ) async throws -> (commands: Int, cancels: Int, wakes: Int) {
        /// The microphone's recording of the reply alone, and what the canceller made of it.
        @Sendable func heard(reply: Int, room: Int) throws(SpeechError) -> (microphone: [Int16], out: [Int16])
        {
            let path = Self.room(room)
            let lead = [Float](repeating: 0, count: 8_000)
            let padded = lead + played[reply].map { $0 * 16_384 } + lead
            var echo = path.echo(of: padded)
            let floor = NoiseMixer().noise(.pink, count: echo.count, seed: UInt64(room))
            let gain = NoiseMixer.activeLevel(echo) / Float(pow(10, 30.0 / 20))
            for index in echo.indices { echo[index] += floor[index] * gain }
            let microphone = int16(echo)
            guard let settings = setup.settings else { return (microphone, microphone) }
            let out = try cancelled(
                microphone, reference: int16(padded), settings: settings, warmUp: played, first: reply + 1,
                path: path, gain: 1
            ).out
            return (microphone, out)
        }
        var cases: [PhraseTestSuite.Case] = []
        for room in 0..<10 {
            for reply in replies.indices {
                cases.append(
                    PhraseTestSuite.Case(
                        sentence: "\(replies[reply]) #\(room)", expectation: .noMatch,
                        source: .init(file: "replies", line: reply, column: room)))
            }
        }
        var evaluation = SpokenEvaluation(voices: ["en-us"], configuration: configuration)
        evaluation.cache = cache
        evaluation.microphone = { item, _ throws(SpeechError) in
            try heard(reply: item.testCase.source.line, room: item.testCase.source.column).out
        }
        let asCommands = try evaluation.hear(evaluation.items(for: cases), grammar: grammar)
        let report = await EvaluationReport(app: name, heard: asCommands, matcher: matcher).acting(at: bar)
        // The loop's own listening while it speaks, one reply at a time: with a canceller, the
        // app's commands and the cancel words (`SpeechGrammar.commandsOrCancel`), a cancel word
        // or a command the app would act on taken only where the canceller let enough of the sound
        // through (BargeIn.echoOnly); without, the reply's own words and the cancel words.
        // A command at the app's bar, not only at the loop's bar over a reply: one heard the same
        // again from a turn-down runs at it (a reply alone is not turned down here, so this counts
        // every one the second hearing might let through).
        let recognizer = try SpeechRecognizer(configuration)
        let overReply = SpeechGrammar.commandsOrCancel(matcher.spokenForms, name: "\(name)_over_reply")
        var cancels = 0
        var wakes = 0
        for reply in replies.indices {
            try recognizer.useGrammar(
                setup.settings != nil
                    ? overReply : SpeechGrammar(answers: [.echo(of: [replies[reply]])], name: "barge_in"))
            for room in 0..<10 {
                let (microphone, clip) = try heard(reply: reply, room: room)
                if let wakeWord {
                    let detector = try WakeWordDetector(model: wakeWord)
                    if stride(from: 0, to: clip.count, by: 1_600).contains(where: {
                        detector.process(Array(clip[$0..<min($0 + 1_600, clip.count)])) != nil
                    }) {
                        wakes += 1
                    }
                }
                // While the reply plays, as the loop listens: an utterance its end cuts off is not
                // taken.
                var offset = 8_000
                let end = min(clip.count, 8_000 + played[reply].count)
                var cut = false
                recognizer.forgetChannel()
                while offset < end, !cut {
                    let result = try recognizer.listen(timeout: 600) { () -> [Int16]? in
                        guard offset < end else {
                            cut = true
                            return nil
                        }
                        defer { offset = min(offset + 1_600, end) }
                        return Array(clip[offset..<min(offset + 1_600, end)])
                    }
                    guard !cut, let result else { continue }
                    let said = SpeechGrammar.withoutHesitation(result.text)
                    var stops = SpokenAnswer.isCancel(said)
                    if !stops, setup.settings != nil, !said.isEmpty,
                        (result.confidence?.value ?? 1) >= bar
                    {
                        stops = await matcher.match(result.commandText).best != nil
                    }
                    guard stops else { continue }
                    if setup.settings != nil {
                        let span = Int((Double(result.frames) / 100 + 0.5) * 16_000)
                        let range = max(0, offset - span)..<offset
                        let before = range.reduce(0.0) {
                            $0 + Double(microphone[$1]) * Double(microphone[$1])
                        }
                        let after = range.reduce(0.0) { $0 + Double(clip[$1]) * Double(clip[$1]) }
                        if before > 0,
                            BargeIn.passed(recorded: before, heard: after) <= BargeIn.echoOnly
                        {
                            continue
                        }
                    }
                    cancels += 1
                    break
                }
            }
        }
        return (report.clips.count(where: \.isFalseAccept), cancels, wakes)
    }
}
