import Logging
import PhraseMatching
import Synchronization
import VoiceAudio
import VoiceIntents
import VoiceRecognition
import VoiceUnderstanding

extension VoiceLoop {
    /// What a loop builds from its app before it listens: the app's matcher, the grammar of its
    /// commands, and the intents that sound like sensitive ones (confirmed before they run).
    ///
    /// A loop builds its own when given none. A program that starts many loops for one app (a
    /// server whose satellites each hold a conversation) makes one and hands it to each, so a loop
    /// starts with only its recognizer to load:
    ///
    /// ```swift
    /// let preparation = try await VoiceLoop.Preparation(app: app, configuration: configuration, logger: logger)
    /// let loop = VoiceLoop(
    ///     app: app, input: input, mouth: mouth, configuration: configuration, logger: logger,
    ///     preparation: preparation)
    /// ```
    ///
    /// The names an app's phrases offer can change while it runs (an entity added, a favorite
    /// set). When the app says so (`updateAppShortcutParameters()`), ``followUpdates()`` makes the
    /// matcher and grammar again in the background, and every loop that shares the preparation
    /// hears with the new ones from its next command on.
    public final class Preparation: Sendable {
        private struct Made: Sendable {
            var matcher: PhraseMatcher
            var commands: SpeechGrammar
            var soundAlikes: [SoundAlikes.SensitivePair]
            /// What may be said over a reply, made when first asked for (``commandsOrCancel``).
            var commandsOrCancel: SpeechGrammar?
            var generation = 0
            /// The app's updates posted when they were made (``AppShortcutParameterUpdates``).
            var madeAt: Int
        }

        private let made: Mutex<Made>
        private let app: AppContext
        private let configuration: Configuration
        private let logger: Logger

        /// The matcher, as the app's names are now.
        public var matcher: PhraseMatcher { made.withLock { $0.matcher } }
        /// The grammar the loop hears commands with, as the app's names are now.
        public var commands: SpeechGrammar { made.withLock { $0.commands } }
        var soundAlikes: [SoundAlikes.SensitivePair] { made.withLock { $0.soundAlikes } }
        /// What may be said over a reply, as the app's names are now: its commands or a cancel
        /// word (`SpeechGrammar.commandsOrCancel`). Made when first asked for: only a loop that
        /// listens over its replies through an echo canceller needs it.
        var commandsOrCancel: SpeechGrammar {
            let (made, matcher, generation) = made.withLock {
                ($0.commandsOrCancel, $0.matcher, $0.generation)
            }
            if let made { return made }
            let grammar = SpeechGrammar.commandsOrCancel(
                matcher.spokenForms, name: "\(app.executableName)_over_reply")
            // Kept unless the names changed while it was made.
            self.made.withLock { if $0.generation == generation { $0.commandsOrCancel = grammar } }
            return grammar
        }
        /// How many times the matcher and grammar have been made again since the first time.
        package var generation: Int { made.withLock { $0.generation } }

        /// Checks the app's declaration (warnings are logged), compiles its phrases and grammar as
        /// `configuration` says, and checks which intents sound like sensitive ones with a
        /// recognizer of its own (logging each pair).
        public init(app: AppContext, configuration: Configuration, logger: Logger) async throws {
            try app.validate(logger: logger)
            let made = try await Self.make(app: app, configuration: configuration)
            for pair in made.soundAlikes { logger.info("\(pair.warning)") }
            self.made = Mutex(made)
            self.app = app
            self.configuration = configuration
            self.logger = logger
        }

        /// What a loop made for itself, to follow the app's updates with.
        init(
            app: AppContext, configuration: Configuration, logger: Logger, matcher: PhraseMatcher,
            commands: SpeechGrammar, soundAlikes: [SoundAlikes.SensitivePair]
        ) {
            made = Mutex(
                Made(
                    matcher: matcher, commands: commands, soundAlikes: soundAlikes,
                    madeAt: AppShortcutParameterUpdates.generation))
            self.app = app
            self.configuration = configuration
            self.logger = logger
        }

        private static func make(app: AppContext, configuration: Configuration) async throws -> Made {
            let madeAt = AppShortcutParameterUpdates.generation
            let matcher = try await app.matcher(configuration.phrases)
            let commands = app.grammar(
                of: matcher, wakePhrase: configuration.wakePhrase, garbage: configuration.garbage,
                joinsCommands: configuration.joinsCommands, freeText: configuration.freeText)
            let soundAlikes = try await onThreadOfItsOwn {
                try SoundAlikes.sensitivePairs(app, matcher: matcher)
            }
            return Made(matcher: matcher, commands: commands, soundAlikes: soundAlikes, madeAt: madeAt)
        }

        /// Makes the matcher and grammar again each time the app calls
        /// `updateAppShortcutParameters()`, until the task is cancelled (other apps' updates in
        /// the same process are not its own). What cannot be made is logged, and the names as
        /// they were are kept.
        public func followUpdates() async {
            var updates = AppShortcutParameterUpdates.updates().makeAsyncIterator()
            // An update posted while the names were made may have been the app's.
            var pending = AppShortcutParameterUpdates.generation != made.withLock { $0.madeAt }
            let own = app.description.shortcutsProvider
            while true {
                if pending { await remake() }
                guard let provider = await updates.next() else { return }
                pending = provider == own
            }
        }

        private func remake() async {
            let started = ContinuousClock.now
            do {
                var fresh = try await Self.make(app: app, configuration: configuration)
                let generation = made.withLock { made in
                    fresh.generation = made.generation + 1
                    made = fresh
                    return fresh.generation
                }
                logger.info(
                    "the app's names changed: grammar made again",
                    metadata: [
                        "generation": "\(generation)",
                        "took": "\(VoiceSession.milliseconds(started.duration(to: .now)))",
                    ])
            } catch {
                logger.error(
                    "the app's names changed, and its grammar could not be made again: the old one stays",
                    metadata: ["error": "\(error)"])
            }
        }
    }
}
