import Foundation
import Logging
import PhraseMatching
import ServiceLifecycle
import Synchronization
import VoiceAudio
import VoiceIntents
import VoiceRecognition
import VoiceUnderstanding

/// The voice loop of an app, to embed in a program of your own: it hears commands from a
/// microphone, a recording or any stream of 16 kHz samples, matches them against the app's
/// phrases, runs the intents (asking out loud when a value is missing, ambiguous or needs
/// confirmation) and says the answers, until the input ends or it is told to stop.
///
/// It is a swift-service-lifecycle `Service`: run it in a `ServiceGroup`, which tells it to
/// stop. Graceful shutdown finishes the turn under way (its questions are still asked and
/// heard) and then stops listening; cancellation stops listening at once, so a turn under way
/// gets no more answers and ends.
///
/// ```swift
/// import Logging
/// import VoiceLoop
///
/// let logger = Logger(label: "travel-tracking")
/// let app = AppContext(TravelTrackingApp.self)
/// let loop = VoiceLoop(
///     app: app,
///     input: try VoiceInput(microphone: .automatic, logger: logger),
///     mouth: try Mouth(applicationName: app.executableName, logger: logger),
///     configuration: try VoiceLoop.Configuration(for: app),
///     logger: logger)
/// let group = ServiceGroup(
///     services: [loop], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
/// try await group.run()
/// ```
///
/// ``listen()`` runs it outside a service group, until the input ends or its task is cancelled,
/// and says how many utterances were not understood. The loop stops no process and handles no
/// signals: that is the program's to decide. The `listen` command of every app executable is
/// this loop with options in front of it.
public struct VoiceLoop: Sendable, Service {
    /// How the loop hears and when it acts.
    public struct Configuration: Sendable {
        /// The recognizer's models and settings.
        public var recognizer: SpeechRecognizer.Configuration
        /// Where the app's phrase catalog is.
        public var phrases: PhraseLocation
        /// How sure the loop must be before it acts on a command or takes an answer. Its
        /// `trailingSilence` is taken from ``recognizer`` when the loop runs.
        public var policy: ConfidencePolicy
        /// Words said before each command ("hey travel tracking"); said alone, the loop waits
        /// for the command. `nil` listens to everything (and ignores what is not for the app).
        public var wakePhrase: String?
        /// A trained wake word (``WakeWordDetector``: `okay_nabu`, `hey_jarvis`, `alexa`,
        /// `hey_mycroft`) heard before each command: nothing is recognized until it is. The
        /// command may follow in the same breath, or within the timeout. `nil` for none.
        public var wakeWord: String?
        /// The sliding mean of the wake word's model above which it is heard, in place of the
        /// model's own cutoff: one chosen for the person (``WakeWordCalibration/cutoff``). `nil`
        /// for the model's own.
        public var wakeWordCutoff: Double?
        /// Whether the recognizer hears the wake word again before the loop wakes
        /// (``WakeWordCheck``): most of what the model takes for its word when people say other
        /// words is turned away, and some people's own wake words too, so it is off unless set.
        public var checksWakeWord = false
        /// The margin the check asks for (``WakeWordCheck/minimumMargin``).
        public var wakeWordMargin = WakeWordCheck.standardMargin
        /// Told the wake word's model name each time it is heard, before the command is
        /// listened for (a satellite shows it, or plays a sound).
        public var onWakeWord: (@Sendable (String) -> Void)?
        /// A garbage path beside the commands in the grammar, `nil` for none. It changes what
        /// the confidence measures: ``init(for:locale:)`` sets the one its bar was chosen with
        /// (``Defaults``), so changing it wants another bar (`calibrate --save --garbage …`, or
        /// ``policy`` set yourself).
        public var garbage: GarbageModel?
        /// Whether one utterance may hold several commands joined by "and", "and then" or "then"
        /// ("turn off the kitchen light and lock the front door"), each run in order. Off by
        /// default: the grammar that lets them be said hears single commands worse on people's
        /// recordings (`Benchmarks/Recognition/README.md`, "Two commands in one breath"). A typed
        /// sentence may always join commands.
        public var joinsCommands = false
        /// The words free-text slots are heard as (``FreeTextWords``, `Models/<locale>/free-text.txt`):
        /// a phrase whose `String` parameter has no suggestions is in the grammar, its slot a loop
        /// of them, and one with suggestions hears other words beside them. A value heard so that
        /// is not a suggestion is read back before the intent runs ("Add toothpaste to your
        /// shopping list?"). `nil` (the default) hears suggestions only and leaves the rest out.
        package var freeText: FreeTextWords?
        /// Whether "stop", "cancel" or "never mind" said over a reply cut it short; the
        /// microphone is heard while the loop speaks (best with a headset).
        public var bargeIn = false
        /// Whether a screen shows the replies: each outcome is handed to the loop's `display`
        /// and the supporting dialog spoken; without one the full dialog is spoken.
        public var hasScreen = false
        /// Stop after one command.
        public var once = false
        /// What the device knows without being told ("area": the room it is in), for phrases
        /// that take a value from it.
        public var context: [String: String] = [:]
        /// The device the loop hears, for the timers its commands start (``VoiceTimers/device``):
        /// a satellite's connection names its own; `nil` is the process's own loop.
        public var device: String?
        /// Whether the loop says so, between turns, when a timer of its device runs out (the
        /// app's ``VoiceTimers`` dependency). A Wyoming server leaves it to the satellite, which it
        /// sends the timer's events.
        public var announcesTimers = true

        /// What `listen` does with no options for `app`: the installed models
        /// (`Models/<locale>/manifest.yaml`), the phrases found from the current directory
        /// (``PhraseLocation/find(explicit:locale:)``), and the app's calibrated confidence bar
        /// and garbage path (`Models/<locale>/<app>.calibration.json`), or the models' when it
        /// has none (``Defaults``).
        public init(for app: AppContext, locale: String = "en") throws(SpeechError) {
            let recognizer = try SpeechRecognizer.Configuration.installed()
            let defaults = try Defaults(for: app, locale: locale, recognizer: recognizer)
            self.init(
                recognizer: recognizer, phrases: .find(explicit: nil, locale: locale),
                policy: ConfidencePolicy(minimumConfidence: defaults.minimumConfidence))
            garbage = defaults.garbage.model
        }

        /// The confidence bar and garbage path an app listens with when nothing overrides them:
        /// the ones its calibration was made with, or, for an app with none (or one made with the
        /// decoy check), the models' (``SpeechRecognizer/Configuration/minimumConfidence`` and
        /// ``SpeechRecognizer/Configuration/garbagePath``).
        public struct Defaults: Sendable {
            public var minimumConfidence: Double
            public var garbage: GarbagePath
            /// The calibration they came from; `nil` for the models' defaults.
            public var calibration: Calibration?

            /// - Parameter decoys: Whether the decoy check is on; a calibration counts only when it
            ///   was made the same way.
            public init(
                for app: AppContext, locale: String = "en", recognizer: SpeechRecognizer.Configuration,
                decoys: Bool = false
            ) throws(SpeechError) {
                self.init(
                    calibration: try Calibration.installed(app: app.executableName, locale: locale),
                    recognizer: recognizer, decoys: decoys)
            }

            /// The same, from a calibration already read (`nil`: the app has none).
            public init(
                calibration installed: Calibration?, recognizer: SpeechRecognizer.Configuration,
                decoys: Bool = false
            ) {
                if let calibration = installed, let garbage = calibration.garbagePath(decoys: decoys) {
                    self.minimumConfidence = calibration.threshold
                    self.garbage = garbage
                    self.calibration = calibration
                } else {
                    minimumConfidence = recognizer.minimumConfidence
                    garbage = recognizer.garbagePath
                    calibration = nil
                }
            }
        }

        public init(
            recognizer: SpeechRecognizer.Configuration, phrases: PhraseLocation, policy: ConfidencePolicy
        ) {
            self.recognizer = recognizer
            self.phrases = phrases
            self.policy = policy
        }
    }

    public let app: AppContext
    public let input: VoiceInput
    public let mouth: Mouth
    public let configuration: Configuration
    /// Where the conversation is written as it goes ("> heard", "< said"); nowhere by default.
    public let transcript: TextSink
    public let logger: Logger
    /// Shows an intent's outcome (its snippet, and whether it brought the app forward) when
    /// ``Configuration/hasScreen`` says there is a screen: called for each intent a command
    /// runs, before its dialog is said.
    public let display: @Sendable (IntentOutcome) -> Void
    /// Told of every command heard when its turn ends: what ran, and what was said.
    public let onTurn: @Sendable (VoiceTurn) -> Void
    /// The matcher, grammar and sound-alikes made beforehand, if they were; ``run()`` makes
    /// them otherwise, and makes them again when the app's names change.
    public let preparation: Preparation?

    /// - Parameters:
    ///   - preparation: What the loop would build from the app before listening, made once for
    ///     many loops (``Preparation``; run its ``Preparation/followUpdates()`` for them to hear
    ///     names that change); `nil`: the loop builds it, and follows the app's names itself.
    ///   - display: Shows an outcome on the screen, with ``Configuration/hasScreen``.
    public init(
        app: AppContext, input: VoiceInput, mouth: Mouth, configuration: Configuration,
        transcript: TextSink = .discard, logger: Logger, preparation: Preparation? = nil,
        onTurn: @escaping @Sendable (VoiceTurn) -> Void = { _ in },
        display: @escaping @Sendable (IntentOutcome) -> Void = { _ in }
    ) {
        self.app = app
        self.input = input
        self.mouth = mouth
        self.configuration = configuration
        self.transcript = transcript
        self.logger = logger
        self.preparation = preparation
        self.display = display
        self.onTurn = onTurn
    }

    /// Runs the loop as a service: until the input ends, after one command with
    /// ``Configuration/once``, at graceful shutdown once the turn under way is over, or at once
    /// when its task is cancelled; writes the replies' file, if the mouth records one.
    ///
    /// - Throws: When the app's declaration, phrases or models cannot be used, or the
    ///   microphone failed for good.
    public func run() async throws {
        let stop = LoopStop(input: input)
        try await withGracefulShutdownHandler {
            _ = try await listen(stop)
        } onGracefulShutdown: {
            stop.afterTurn()
        }
    }

    /// Runs the loop until the input ends, after one command with ``Configuration/once``, or
    /// until its task is cancelled; writes the replies' file, if the mouth records one.
    ///
    /// - Returns: How many utterances were not understood.
    /// - Throws: When the app's declaration, phrases or models cannot be used, or the
    ///   microphone failed for good.
    @discardableResult
    public func listen() async throws -> Int {
        try await listen(LoopStop(input: input))
    }

    private func listen(_ stop: LoopStop) async throws -> Int {
        if preparation == nil { try app.validate(logger: logger) }
        for notice in configuration.recognizer.notices { logger.warning("\(notice)") }
        let matcher: PhraseMatcher
        if let preparation {
            matcher = preparation.matcher
        } else {
            matcher = try await app.matcher(configuration.phrases)
        }
        for warning in matcher.catalogWarnings { logger.warning("\(warning)") }
        let commands =
            preparation?.commands
            ?? app.grammar(
                of: matcher, wakePhrase: configuration.wakePhrase, garbage: configuration.garbage,
                joinsCommands: configuration.joinsCommands, freeText: configuration.freeText)
        // Loading the models and compiling the grammar take a second or so of one core: on a
        // thread of their own, as the listening that follows is.
        let (channel, soundAlikes) = try await onThreadOfItsOwn {
            [app, configuration, input, mouth, preparation] in
            let recognizer = try SpeechRecognizer(configuration.recognizer)
            // A voice is nobody known: sensitive intents, and those that sound like
            // them, ask first. Checked with the loop's own recognizer, which then
            // hears the commands, unless the preparation checked them.
            try recognizer.useGrammar(commands)
            var soundAlikes = preparation?.soundAlikes
            if soundAlikes == nil {
                soundAlikes = try SoundAlikes.sensitivePairs(
                    app, matcher: matcher, recognizer: recognizer)
                try recognizer.useGrammar(commands)
            }
            let wakeWord = try configuration.wakeWord.map { name throws(SpeechError) in
                try WakeWordDetector(name, cutoff: configuration.wakeWordCutoff)
            }
            let channel = VoiceChannel(
                recognizer: recognizer, timeout: SpeechRecognizer.utteranceTimeout, input: input,
                mouth: mouth, bargeIn: configuration.bargeIn,
                wakeWord: wakeWord,
                wakeWordCheck: configuration.checksWakeWord
                    ? wakeWord.map {
                        WakeWordCheck(phrase: $0.model.phrase, minimumMargin: configuration.wakeWordMargin)
                    } : nil, logger: logger)
            return (channel, soundAlikes ?? [])
        }
        if preparation == nil { for pair in soundAlikes { logger.info("\(pair.warning)") } }
        // A loop that made its own follows the app's names while it runs; a shared preparation is
        // followed by whoever made it.
        let prepared =
            preparation
            ?? Preparation(
                app: app, configuration: configuration, logger: logger, matcher: matcher, commands: commands,
                soundAlikes: soundAlikes)
        let following = preparation == nil ? Task { await prepared.followUpdates() } : nil
        defer { following?.cancel() }
        // An answer's slack is counted beyond the silence that ends it.
        var policy = configuration.policy
        policy.trailingSilence = configuration.recognizer.trailingSilence
        let session = VoiceSession(
            description: app.description, preparation: prepared, channel: channel,
            transcript: transcript, voiceOnly: !configuration.hasScreen, once: configuration.once,
            logger: logger, policy: policy, context: configuration.context, stop: stop, display: display,
            onTurn: onTurn, onWakeWord: configuration.onWakeWord ?? { _ in })
        let runner = IntentRunner(
            conversation: VoiceConversation(
                channel: channel, transcript: transcript, policy: policy, logger: logger,
                freeText: configuration.freeText),
            dependencies: app.dependencies, hasScreen: configuration.hasScreen, isAuthenticated: false,
            confirmedIntents: Set(soundAlikes.map(\.soundAlike)))
        if input.capture != nil {
            let wake =
                channel.wakeWord.map { "; say \"\($0.model.phrase)\" before a command" }
                ?? configuration.wakePhrase.map { "; say \"\($0)\" before a command" } ?? ""
            logger.info("listening to \(input.name)\(wake)")
        }
        if configuration.bargeIn, mouth.cancelsEcho {
            // Over a reply, the app's commands too: one that would run (at the bar over a reply,
            // or at the app's own when heard the same twice) cuts the reply short.
            channel.commandsOverReply = (
                grammar: { prepared.commandsOrCancel },
                read: { [description = app.description, context = configuration.context, policy] heard in
                    // One plan at the app's bar; the bar over a reply differs from it only in the
                    // confidence it asks for (`policy.overReply`).
                    let (plan, understanding) = await TurnPipeline(
                        description: description, matcher: prepared.matcher, policy: policy, context: context
                    ).plan(heard: heard, addressed: false)
                    guard case .run(let match) = plan else {
                        return understanding.match.best.map { .init(match: $0, clears: .neither) }
                    }
                    let sure = understanding.confidence >= policy.overReply.minimumConfidence
                    return .init(match: match, clears: sure ? .barOverReply : .appBar)
                }
            )
        }
        let announcing = announceTimers(on: channel)
        defer { announcing?.cancel() }
        let misunderstood = try await withTaskCancellationHandler {
            try await VoiceTimers.$device.withValue(configuration.device) {
                try await session.run(runner)
            }
        } onCancel: {
            input.stop()
        }
        // Stopped after a turn: the microphone is let go.
        input.stop()
        if let failure = input.capture?.failure { throw failure }
        try mouth.finish()
        return misunderstood
    }
}

extension VoiceLoop {
    /// Has `channel` say so when a timer of the loop's device runs out, until cancelled; `nil`
    /// when the app keeps no timers or the loop does not announce them.
    private func announceTimers(on channel: VoiceChannel) -> Task<Void, Never>? {
        guard configuration.announcesTimers, let timers = app.dependencies.resolve(VoiceTimers.self) else {
            return nil
        }
        let events = timers.events()
        let device = configuration.device
        return Task { [logger] in
            for await case .finished(let timer) in events where timer.device == device {
                logger.info(
                    "a timer ran out", metadata: ["timer": "\(timer.id)", "length": "\(timer.spokenLength)"])
                channel.announce(Self.announcement(of: timer))
            }
        }
    }

    /// What is said when `timer` runs out: "The 5 minute timer is done."
    static func announcement(of timer: VoiceTimers.Timer) -> String {
        let name = timer.spokenName
        return name.prefix(1).uppercased() + name.dropFirst() + " is done."
    }
}

/// A failure that stops the loop before it starts, with a message that says what is wrong.
public struct VoiceLoopError: Error, CustomStringConvertible, Sendable {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}

/// How a running loop is told to stop: after the turn under way, or, when none is, at once.
final class LoopStop: Sendable {
    private let state = Mutex((inTurn: false, stopping: false))
    private let input: VoiceInput

    init(input: VoiceInput) {
        self.input = input
    }

    /// Whether the loop has been told to stop after its turn.
    var isStopping: Bool { state.withLock { $0.stopping } }

    /// Stops the loop once the turn under way is over; a loop waiting for a command stops
    /// listening now.
    func afterTurn() {
        let idle = state.withLock { state in
            state.stopping = true
            return !state.inTurn
        }
        if idle { input.stop() }
    }

    /// A command was heard: its turn is under way until ``endTurn()``.
    func beginTurn() { state.withLock { $0.inTurn = true } }

    /// The turn is over; `false` when the loop is to stop.
    func endTurn() -> Bool {
        state.withLock { state in
            state.inTurn = false
            return !state.stopping
        }
    }
}

extension VoiceLoop: CustomStringConvertible {
    /// Names the loop by its app, so that the logs of a service group (which name each service at
    /// debug level) stay one line.
    public var description: String { "VoiceLoop(\(app.executableName))" }
}
