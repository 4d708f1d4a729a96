import ArgumentParser
import Foundation
import Logging
import ServiceLifecycle
import VoiceAudio
import VoiceIntents
import VoiceRecognition
import VoiceUnderstanding

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
                SIGTERM ends the loop after the current turn; a second one ends it at once.
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

    @Option(
        help: ArgumentHelp(
            "A trained wake word to say before each command: okay_nabu, hey_jarvis, alexa or hey_mycroft (microWakeWord's models, which Scripts/bootstrap.sh installs), or none. Nothing is recognized until it is heard; the command may follow in the same breath, and the answers to its questions need none. Default: \(Self.defaultWakeWord) from a microphone; none with --input, --text or --wake-phrase.",
            discussion:
                "A microphone hears a room, and without a wake word other people's talk that sounds like a command is acted on far more often than the wake word wakes on it (README, The voice loop). --wake-word none listens for every command.",
            valueName: "model"))
    var wakeWord: String?

    /// The wake word a microphone is heard through when none is chosen.
    static var defaultWakeWord: String { "okay_nabu" }

    /// The wake word the loop listens for: the one chosen, `nil` for none, else the default from
    /// a microphone (a recording, standard input, typed lines and a wake phrase get none).
    var listeningWakeWord: String? {
        if let wakeWord { return wakeWord == "none" ? nil : wakeWord }
        return input == nil && !text && wakePhrase == nil ? Self.defaultWakeWord : nil
    }

    @Option(
        help: ArgumentHelp(
            "The wake word's model wakes when its sliding mean goes above this (0 to 1; default: the cutoff calibrate --wake-word --save chose for your takes, else the model's own).",
            valueName: "cutoff"))
    var wakeWordCutoff: Double?

    @Flag(
        inversion: .prefixedNo,
        help: ArgumentHelp(
            "Hear the wake word again with the recognizer before waking (default: on where calibrate --wake-word --save chose a margin for your takes, else off).",
            discussion:
                "It turns away most of what the model takes for its word when people say other words (\"athena\" for \"okay nabu\"), and, at a margin not chosen for you, some people's own wake words too; see --wake-word-margin."
        ))
    var wakeWordCheck: Bool?

    // Unconditional: margins are negative, and "-30" is no option.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "How well the word must fit, against a loop of any phones, for the check to wake (per 10 ms frame; turns the check on; default: the calibrated margin, else \(String(format: "%.0f", WakeWordCheck.standardMargin)); higher turns away more near-misses and more people's own words, lower fewer of both).",
            valueName: "margin"))
    var wakeWordMargin: Double?

    @Flag(help: "Stop after one command.")
    var once = false

    @Flag(
        inversion: .prefixedNo,
        help: ArgumentHelp(
            "Listen while speaking: \"stop\", \"cancel\" or \"never mind\" cut a reply short (default: on when listening to a microphone with a speaker).",
            discussion:
                "The echo canceller (--echo-canceller) takes the loop's own replies out of what the microphone hears; it learns the room from the first two seconds the loop says, and the reply is turned down while someone speaks over it. With it, a command said over a reply stops the reply and runs. --no-barge-in mutes the microphone while the loop speaks instead."
        ))
    var bargeIn: Bool?

    @Option(
        help: ArgumentHelp(
            "With barge-in, what takes the loop's replies out of what the microphone hears: speexdsp+webrtc (the default), webrtc, speexdsp or off.",
            discussion:
                "speexdsp+webrtc runs both, one after the other: in simulated rooms it kept more of people's commands over a reply than either alone. off leaves the echo in: use it with a headset, which has none."
        ))
    var echoCanceller = EchoCancellerChoice.speexdspThenWebrtc

    @Option(
        help: ArgumentHelp(
            "The lowest confidence (0 to 1) acted on.",
            discussion:
                "Below it, a command is ignored, or answered \"Sorry, I didn't understand that\" after the wake phrase, and an answer is asked for again. Default: the threshold `calibrate --save` chose for the app (Models/<locale>/<app>.calibration.json), or when there is none the models' default (minimumConfidence in Models/<locale>/manifest.yaml). 0 acts on anything the grammar fits."
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
        if text, listeningWakeWord != nil {
            throw ValidationError("--wake-word is for listening, not --text")
        }
        if listeningWakeWord == nil {
            for (name, given) in [
                ("--wake-word-check", wakeWordCheck == true), ("--wake-word-margin", wakeWordMargin != nil),
                ("--wake-word-cutoff", wakeWordCutoff != nil),
            ] where given {
                throw ValidationError("\(name) is for a wake word: add --wake-word okay_nabu")
            }
        }
        if wakeWordMargin != nil, wakeWordCheck == false {
            throw ValidationError("--wake-word-margin is for the check: leave out --no-wake-word-check")
        }
        if let wakeWordCutoff, !(0..<1).contains(wakeWordCutoff) {
            throw ValidationError("--wake-word-cutoff takes 0 to 1 (below 1), not \(wakeWordCutoff)")
        }
        if listeningWakeWord != nil, wakePhrase != nil {
            throw ValidationError("give --wake-word or --wake-phrase, not both")
        }
        if bargeIn == true, !hearsAMicrophoneAndSpeaks {
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
    /// else the models' default bar (`bar`); the start-up log says which and where it came from.
    func policy(_ bar: ConfidenceBar, logger: Logger) -> ConfidencePolicy {
        bar.log(to: logger)
        let minimum = bar.value
        var policy =
            minimum != nil || confirmationConfidence != nil
            ? ConfidencePolicy(minimumConfidence: minimum ?? 0, confirmation: confirmationConfidence) : .off
        policy.valueMargin = recognizerOptions.valueMarginInForce
        // Its trailing silence is the recognizer's, which the loop sets when it runs.
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
            // Barge-in over the loudspeaker: one canceller hears what the mouth plays and cleans
            // what the microphone records.
            let canceller =
                listensWhileSpeaking
                ? try echoCanceller.engine.map { try EchoCanceller(.init(engine: $0)) } : nil
            let source =
                text ? nil : try openInput(context: context, echoCanceller: canceller, logger: logger)
            if text { try context.validate(logger: logger) }  // the loop checks the app itself
            // A screen is a terminal on standard output; a service or a pipe is voice only.
            let hasScreen = !voiceOnly && (screen || isatty(STDOUT_FILENO) != 0)
            let mouth = try openMouth(context: context, echoCanceller: canceller, logger: logger)
            let transcript = TextSink.standardOutput

            if text {
                // Ctrl-C ends it as it ends any program at a prompt; Ctrl-D (end of input) too.
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
            let bar = try ConfidenceBar.resolve(
                minConfidence: minConfidence, context: context, locale: phraseOptions.locale,
                recognizerOptions: recognizerOptions)
            var configuration = VoiceLoop.Configuration(
                recognizer: try recognizerOptions.configuration(app: context.executableName),
                phrases: phraseOptions.location,
                policy: policy(bar, logger: logger))
            configuration.wakePhrase = wakePhrase
            if let listeningWakeWord {
                let wake = try WakeWordSettings.resolve(
                    model: listeningWakeWord, cutoff: wakeWordCutoff, check: wakeWordCheck,
                    margin: wakeWordMargin, context: context, locale: phraseOptions.locale)
                logger.info("\(wake.origin)")
                configuration.wakeWord = wake.model
                configuration.wakeWordCutoff = wake.cutoff
                configuration.checksWakeWord = wake.checkMargin != nil
                if let margin = wake.checkMargin { configuration.wakeWordMargin = margin }
            }
            configuration.garbage = bar.garbage.model
            configuration.joinsCommands = recognizerOptions.joinedCommands
            configuration.freeText = try recognizerOptions.freeTextWords(locale: phraseOptions.locale)
            configuration.bargeIn = listensWhileSpeaking
            if listensWhileSpeaking, mouth.playsAloud {
                logger.info(
                    "barge-in: listening while speaking; \(canceller.map { "echo cancelled by \($0.settings.engine.rawValue)" } ?? "no echo canceller")\(bargeIn == nil ? " (--no-barge-in turns it off)" : "")"
                )
            }
            configuration.hasScreen = hasScreen
            configuration.once = once
            configuration.context = contextOptions.values
            let name = context.description.name
            let loop = VoiceLoop(
                app: context, input: source, mouth: mouth, configuration: configuration,
                transcript: transcript, logger: logger,
                display: { transcript.write(ScreenText.text(for: $0, appName: name)) })
            // A recording that ends ends the loop, and with it the group.
            try await runServices(
                [.init(service: loop, successTerminationBehavior: .gracefullyShutdownGroup)],
                stopping: "stopping after this turn", logger: logger)
        }
    }

    /// Whether the loop hears a microphone and says its replies aloud: where barge-in is possible.
    private var hearsAMicrophoneAndSpeaks: Bool { input == nil && !text && output == nil && !mute }

    /// Whether the loop listens while it speaks: `--barge-in`, or by default with a microphone and
    /// a speaker.
    private var listensWhileSpeaking: Bool { bargeIn ?? hearsAMicrophoneAndSpeaks }

    /// Where replies are said. With no speaker named and none to be found, the replies are
    /// printed only, with a warning: typed commands and recordings need no loudspeaker.
    private func openMouth(context: AppContext, echoCanceller: EchoCanceller?, logger: Logger) throws -> Mouth
    {
        func mouth(muted: Bool) throws -> Mouth {
            try Mouth(
                mute: muted, output: output,
                speaker: speaker.map { try AudioDevice(parsingOption: $0) } ?? .automatic,
                applicationName: context.executableName, echoCanceller: echoCanceller, logger: logger)
        }
        do {
            return try mouth(muted: mute)
        } catch let error as SpeechError where speaker == nil && bargeIn != true {
            logger.warning("\(error.message) Replies are printed only; --output writes them to a WAV file.")
            return try mouth(muted: true)
        }
    }

    /// The recording, or the microphone being recorded.
    private func openInput(context: AppContext, echoCanceller: EchoCanceller?, logger: Logger) throws
        -> VoiceInput
    {
        if input == "-" { return .standardInput() }
        if let input { return try VoiceInput(recording: input) }
        let device = try AudioDevice(parsingOption: device ?? "default")
        do {
            return try VoiceInput(microphone: device, echoCanceller: echoCanceller, logger: logger)
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

/// `--echo-canceller`: an engine, or none.
enum EchoCancellerChoice: String, ExpressibleByArgument, CaseIterable {
    case webrtc, speexdsp
    case speexdspThenWebrtc = "speexdsp+webrtc"
    case off

    var engine: EchoCanceller.Engine? {
        switch self {
        case .webrtc: .webRTC
        case .speexdsp: .speexDSP
        case .speexdspThenWebrtc: .speexDSPThenWebRTC
        case .off: nil
        }
    }
}
