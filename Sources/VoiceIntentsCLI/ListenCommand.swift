import ArgumentParser
import Foundation
import Logging
import Speech
import Synchronization
import VoiceIntents

/// `listen`: the voice loop. Hears commands from the microphone (or a recording, or typed
/// lines), talks them through, runs them and answers out loud, until stopped.
struct ListenCommand<Apps: AppSet>: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "listen",
            abstract: "Hear commands from the microphone, run them, and answer out loud.",
            discussion: """
                listen                                   the default microphone and speaker
                listen --device alsa:hw:1,0 --wake-phrase "hey travel tracking"
                listen --input commands.wav --output replies.wav
                arecord -f S16_LE -r 16000 -c 1 | listen --input -
                listen --text                            typed commands, spoken answers
                A recording may hold several commands and the answers to the questions they raise, \
                each after a pause. While it speaks, the microphone is not listened to. Ctrl-C or \
                SIGTERM ends the loop after the current turn.
                """)
    }

    @OptionGroup var selection: AppSelection<Apps>
    @OptionGroup var options: AppOptions
    @OptionGroup var phraseOptions: PhraseOptions
    @OptionGroup var contextOptions: ContextOptions

    @Option(
        help:
            "Hear a WAV file (any common rate and bit depth), or - for raw 16 kHz 16-bit mono PCM on standard input, instead of the microphone."
    )
    var input: String?

    @Flag(help: "Read typed commands and answers instead of listening; replies are printed and spoken.")
    var text = false

    @Option(help: "The microphone (default, pulse, pulse:<source>, alsa:<pcm>).")
    var device: String?

    @Option(help: "Where to play what it says (default, pulse:<sink>, alsa:<pcm>).")
    var speaker: String?

    @Option(name: .shortAndLong, help: "Write what it says to this WAV file instead of playing it.")
    var output: String?

    @Flag(help: "Print the replies but do not say them.")
    var mute = false

    @Flag(help: "Answer as with no screen: the full dialog, no snippets.")
    var voiceOnly = false

    @Flag(
        help:
            "Answer as with a screen (snippets printed, the supporting dialog spoken) even when standard output is not a terminal."
    )
    var screen = false

    @Option(
        help:
            "Words to say before each command (\"hey travel tracking\"); said alone, it waits for the command."
    )
    var wakePhrase: String?

    @Flag(help: "Stop after one command.")
    var once = false

    @Flag(
        help:
            "Listen while speaking: \"stop\", \"cancel\" or \"never mind\" cut a reply short (best with a headset; a loudspeaker's echo is heard too)."
    )
    var bargeIn = false

    @Option(
        help: ArgumentHelp(
            "The lowest confidence (0 to 1) acted on.",
            discussion:
                "Below it, a command is ignored, or answered \"Sorry, I didn't catch that\" after the wake phrase, and an answer is asked for again. Default: the threshold `calibrate --save` chose for the app (Models/<locale>/<app>.calibration.json), or when there is none the models' default (minimumConfidence in Models/<locale>/manifest.yaml). 0 acts on anything the grammar fits."
        ))
    var minConfidence: Double?

    @Option(
        help:
            "The lowest confidence taken as an answer to a confirmation, or to a question whose answer cannot be undone (default: halfway from --min-confidence to 1)."
    )
    var confirmationConfidence: Double?

    @Option(
        help: ArgumentHelp(
            "Seconds of sound an answer may have around its words, beyond the silence that ends it; off for no limit.",
            discussion:
                "An answer is short; a longer sentence heard as one (the television saying \"… please do …\") has seconds of it taken for silence. Raise it if you pause inside your answers. (default: 0.7 for a yes or no to a confirmation, 1.0 for other answers; a value given sets both)",
            valueName: "seconds"))
    var answerSlack: String?

    @OptionGroup var recognizerOptions: RecognizerOptions

    func validate() throws {
        if voiceOnly, screen { throw ValidationError("give --voice-only or --screen, not both") }
        if input != nil, text { throw ValidationError("give --input or --text, not both") }
        if device != nil, input != nil || text {
            throw ValidationError("--device chooses the microphone: leave it out with --input or --text")
        }
        if output != nil, speaker != nil { throw ValidationError("give --output or --speaker, not both") }
        if mute, output != nil || speaker != nil {
            throw ValidationError("--mute says nothing: leave out --output and --speaker")
        }
        if text, wakePhrase != nil { throw ValidationError("--wake-phrase is for listening, not --text") }
        if bargeIn, input != nil || text || output != nil || mute {
            throw ValidationError(
                "--barge-in needs the microphone and a speaker: leave out --input, --text, --output and --mute"
            )
        }
        for option in [device, speaker].compactMap({ $0 }) { _ = try AudioDevice(parsingOption: option) }
        for (name, value) in [
            ("--min-confidence", minConfidence), ("--confirmation-confidence", confirmationConfidence),
        ] {
            if let value, !(0...1).contains(value) {
                throw ValidationError("\(name) takes 0 to 1, not \(value)")
            }
        }
        if let minimum = minConfidence, let confirmation = confirmationConfidence, confirmation < minimum {
            throw ValidationError("--confirmation-confidence must be at least --min-confidence")
        }
        if let answerSlack, answerSlack != "off",
            !(Double(answerSlack).map { (0...10).contains($0) } ?? false)
        {
            throw ValidationError("--answer-slack takes 0 to 10 seconds, or off; not \(answerSlack)")
        }
        if text, minConfidence != nil || confirmationConfidence != nil {
            throw ValidationError("typed commands have no confidence: leave out --min-confidence with --text")
        }
        if text, answerSlack != nil {
            throw ValidationError(
                "typed answers have no sound around them: leave out --answer-slack with --text")
        }
    }

    /// How sure the loop must be before it acts: the options, or else the app's calibration, or
    /// else the models' default bar; the start-up log says which and where it came from.
    func policy(context: AppContext, logger: Logger) throws -> ConfidencePolicy {
        let configuration = try recognizerOptions.configuration()
        let bar = try ConfidenceBar.resolve(
            minConfidence: minConfidence, context: context, locale: phraseOptions.locale,
            recognizerOptions: recognizerOptions, modelsDefault: configuration.minimumConfidence)
        bar.log(to: logger)
        let minimum = bar.value
        var policy =
            minimum != nil || confirmationConfidence != nil
            ? ConfidencePolicy(minimum: minimum ?? 0, confirmation: confirmationConfidence) : .off
        policy.trailingSilence = configuration.trailingSilence
        if let answerSlack {
            policy.confirmationSlack = Double(answerSlack)
            policy.answerSlack = Double(answerSlack)
        }
        return policy
    }

    func run() async throws {
        try await reportingFailures {
            let context = try selection.context()
            let logger = options.logger(for: context)
            // The input first: a file that cannot be read, or no microphone, is reported before
            // anything else starts.
            let source = text ? nil : try openInput(context: context, logger: logger)
            try context.validate(logger: logger)
            // A screen is a terminal on standard output; a service or a pipe is voice only.
            let hasScreen = !voiceOnly && (screen || isatty(STDOUT_FILENO) != 0)
            let mouth = try openMouth(context: context, logger: logger)
            let transcript = TextSink.standardOutput
            let shutdown = ShutdownSignals(logger: logger)

            if text {
                shutdown.onSignal { Foundation.exit(0) }
                let read: @Sendable () -> String? = { Swift.readLine() }
                let speak: @Sendable (String) -> Void = { text in
                    do { try mouth.say(text) } catch { logger.warning("could not say \"\(text)\": \(error)") }
                }
                let conversation = TerminalConversation(output: transcript, readLine: read, speak: speak)
                let session = TextSession(
                    description: context.description,
                    matcher: try await context.matcher(phraseOptions.location),
                    runner: IntentRunner(
                        conversation: conversation, dependencies: context.dependencies, hasScreen: hasScreen),
                    output: transcript, readLine: read, voiceOnly: !hasScreen, logger: logger,
                    speak: speak, context: contextOptions.values)
                _ = await session.run()
                try mouth.finish()
                return
            }

            guard let source else { return }
            shutdown.onSignal { source.stop() }
            let recognizer = try SpeechRecognizer(recognizerOptions.configuration())
            let policy = try self.policy(context: context, logger: logger)
            let commands = try await context.grammar(
                phraseOptions.location, wakePhrase: wakePhrase, garbage: recognizerOptions.garbage.model)
            let matcher = try await context.matcher(phraseOptions.location)
            // A voice is nobody known: sensitive intents, and those that sound like them, ask
            // first. Checked with the loop's own recognizer, which then hears the commands.
            try recognizer.useGrammar(commands)
            let soundAlikes = try SoundAlikes.sensitivePairs(
                context, matcher: matcher, recognizer: recognizer)
            for pair in soundAlikes { logger.info("\(pair.warning)") }
            try recognizer.useGrammar(commands)
            let channel = VoiceChannel(
                recognizer: recognizer, timeout: SpeechRecognizer.utteranceTimeout, read: source.read,
                mouth: mouth,
                capture: source.capture, bargeIn: bargeIn)
            let session = VoiceSession(
                description: context.description, matcher: matcher,
                commands: commands, channel: channel, transcript: transcript, voiceOnly: !hasScreen,
                once: once, logger: logger, policy: policy, context: contextOptions.values)
            let runner = IntentRunner(
                conversation: VoiceConversation(
                    channel: channel, transcript: transcript, policy: policy, logger: logger),
                dependencies: context.dependencies, hasScreen: hasScreen, isAuthenticated: false,
                confirmedIntents: Set(soundAlikes.map(\.soundAlike)))
            if source.capture != nil {
                let wake = wakePhrase.map { "; say \"\($0)\" before a command" } ?? ""
                logger.info("listening to \(source.name)\(wake)")
            }
            _ = try await session.run(runner)
            if let failure = source.capture?.failure { throw failure }
            try mouth.finish()
            if let signal = shutdown.received { logger.info("stopped by \(signal)") }
        }
    }

    /// Where replies are said. With no speaker named and none to be found, the replies are
    /// printed only, with a warning: typed commands and recordings need no loudspeaker.
    private func openMouth(context: AppContext, logger: Logger) throws -> Mouth {
        func mouth(muted: Bool) throws -> Mouth {
            try Mouth(
                mute: muted, output: output,
                speaker: speaker.map { try AudioDevice(parsingOption: $0) } ?? .automatic,
                applicationName: context.executableName, logger: logger)
        }
        do {
            return try mouth(muted: mute)
        } catch let error as SpeechError where speaker == nil && !bargeIn {
            logger.warning("\(error.message) Replies are printed only; --output writes them to a WAV file.")
            return try mouth(muted: true)
        }
    }

    /// The recording, or the microphone being recorded.
    private func openInput(context: AppContext, logger: Logger) throws -> VoiceInput {
        if let input { return try VoiceInput(recording: input) }
        let device = try AudioDevice(parsingOption: device ?? "default")
        do {
            return try VoiceInput(microphone: device, logger: logger)
        } catch {
            // Named as the user started it: Scripts/run.sh sets this.
            let app =
                ProcessInfo.processInfo.environment["VOICE_INTENTS_INVOCATION"] ?? context.executableName
            throw CommandFailure(
                """
                no microphone: \(error.message)
                To try the voice loop without one:
                  \(app) listen --input commands.wav    (a recording; - for raw 16 kHz PCM on standard input)
                  \(app) listen --text                  (typed commands, spoken answers)
                """)
        }
    }
}

/// Where the loop hears from: a recording read to its end, or a microphone recorded on its own
/// thread until stopped.
final class VoiceInput: @unchecked Sendable {  // `stopped` is atomic; the rest is immutable
    let name: String
    /// The microphone's recorder, `nil` for a recording.
    let capture: ContinuousCapture?
    private let next: () throws(SpeechError) -> [Int16]?
    private let stopped = Atomic(false)

    /// A WAV file, or `-` for raw 16 kHz PCM on standard input, read in 100 ms chunks.
    init(recording path: String) throws {
        capture = nil
        if path == "-" {
            name = "standard input"
            var pcm = RawPCMReader()
            next = { () throws(SpeechError) -> [Int16]? in
                do {
                    return try pcm.next()
                } catch {
                    throw SpeechError(.invalidInput, "\(error)")
                }
            }
        } else {
            name = path
            let stream = SampleStream(try WAVFile.read(from: URL(fileURLWithPath: path)).forRecognizer)
            next = { stream.read() }
        }
    }

    /// `device`, reopened whenever it goes away (a USB microphone pulled out, the sound server
    /// restarted), for as long as the loop runs.
    init(microphone device: AudioDevice, logger: Logger) throws(SpeechError) {
        let source = try ReopeningSource(device: device) { event in
            switch event {
            case .lost: logger.warning("\(event)")
            case .reopened: logger.notice("\(event)")
            }
        }
        let capture = ContinuousCapture(source: source)
        capture.start()
        self.capture = capture
        self.name = source.name
        next = { capture.read() }
    }

    /// The next chunk of 16 kHz samples; `nil` at the end of a recording or once stopped.
    func read() throws(SpeechError) -> [Int16]? {
        if stopped.load(ordering: .relaxed) { return nil }
        return try next()
    }

    /// Ends the input: the loop finishes its turn and stops.
    func stop() {
        stopped.store(true, ordering: .relaxed)
        capture?.stop()
    }
}

/// Says the loop's replies: on a speaker (waiting until each has been heard), into a WAV file,
/// or nowhere. A speaker that goes away is opened again for the next reply; a reply that cannot
/// be played is logged and skipped, so the loop goes on.
final class Mouth: Sendable {
    private let sink: Mutex<(any AudioSink)?>
    private let open: (@Sendable () throws(SpeechError) -> any AudioSink)?
    private let tape: ReplyTape?
    private let output: String?
    private let synthesizer = SpeechSynthesizer()
    private let logger: Logger

    init(mute: Bool, output: String?, speaker: AudioDevice, applicationName: String, logger: Logger) throws {
        self.output = mute ? nil : output
        self.logger = logger
        tape = !mute && output != nil ? ReplyTape() : nil
        if mute || output != nil {
            open = nil
            sink = Mutex(nil)
        } else {
            let rate = try SpeechSynthesizer.sampleRate()
            let open: @Sendable () throws(SpeechError) -> any AudioSink = { () throws(SpeechError) in
                try speaker.openSink(sampleRate: rate, applicationName: applicationName)
            }
            self.open = open
            sink = Mutex(try open())
        }
    }

    /// Whether anything is said at all.
    var isMute: Bool { tape == nil && open == nil }

    /// Whether replies are played on a device (and so can be heard by the microphone).
    var playsAloud: Bool { open != nil }

    /// Says `text`, returning once it has been played (or recorded); `started` is called when
    /// the speech is ready and starts to sound. Played speech stops early, within 100 ms or so,
    /// once `interrupted` returns `true`.
    ///
    /// - Returns: Whether it was interrupted.
    @discardableResult
    func say(
        _ text: String, started: () -> Void = {}, interrupted: @Sendable () -> Bool = { false }
    ) throws -> Bool {
        guard !isMute else { return false }
        let speech = try synthesizer.speak(text)
        let audio = AudioBuffer(int16: speech.samples, sampleRate: speech.sampleRate)
        started()
        if let tape {
            tape.append(audio)
            return false
        }
        guard let open else { return false }
        return sink.withLock { sink in
            for attempt in 1...2 {
                do throws(SpeechError) {
                    if sink == nil { sink = try open() }
                    guard let device = sink else { return false }
                    // In 100 ms pieces (at the device's rate, so none is resampled alone), to
                    // stop soon after an interruption.
                    let piece = max(1, audio.sampleRate / 10)
                    var start = 0
                    while start < audio.samples.count {
                        if interrupted() { return true }
                        let end = min(start + piece, audio.samples.count)
                        try device.play(
                            AudioBuffer(
                                samples: Array(audio.samples[start..<end]), sampleRate: audio.sampleRate))
                        start = end
                    }
                    try device.drain()
                    return false
                } catch {
                    sink = nil  // closes the device; the next attempt opens it again
                    if attempt == 2 { logger.error("could not say \"\(text)\": \(error.message)") }
                }
            }
            return false
        }
    }

    /// Writes the replies' file, if one was asked for.
    func finish() throws {
        guard let tape, let output else { return }
        try WAVFile.write(tape.audio, to: URL(fileURLWithPath: output))
        FileHandle.standardError.write(
            Data("wrote \(output): \(String(format: "%.2f", tape.audio.duration)) s\n".utf8))
    }
}

/// What the loop said, one reply after another with a short pause between, for `--output`.
final class ReplyTape: Sendable {
    private let buffer = Mutex(AudioBuffer(samples: [], sampleRate: 22_050))

    func append(_ speech: AudioBuffer) {
        buffer.withLock { tape in
            let audio = speech.resampled(to: tape.sampleRate)
            if !tape.samples.isEmpty {
                tape.samples += [Float](repeating: 0, count: tape.sampleRate * 7 / 10)
            }
            tape.samples += audio.samples
        }
    }

    var audio: AudioBuffer { buffer.withLock { $0 } }
}

/// SIGINT and SIGTERM end the loop cleanly: the first asks it to stop after the current turn, a
/// second one exits at once.
final class ShutdownSignals: @unchecked Sendable {  // `sources` is set up by one caller, then only kept
    private var sources: [any DispatchSourceSignal] = []
    private let name = Mutex<String?>(nil)
    private let logger: Logger

    init(logger: Logger) {
        self.logger = logger
    }

    /// The signal that arrived, if one did ("SIGTERM").
    var received: String? { name.withLock { $0 } }

    /// Calls `handler` on the first SIGINT or SIGTERM; exits on the second.
    func onSignal(_ handler: @escaping @Sendable () -> Void) {
        for (number, label) in [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in
                let first = name.withLock { name in
                    defer { name = name ?? label }
                    return name == nil
                }
                guard first else { Foundation.exit(130) }
                logger.info("\(label): stopping after this turn")
                handler()
            }
            source.resume()
            sources.append(source)
        }
    }
}
