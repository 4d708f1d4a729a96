import Logging
import PhraseMatching
import VoiceRecognition

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
    public struct Preparation: Sendable {
        public let matcher: PhraseMatcher
        /// The grammar the loop hears commands with.
        public let commands: SpeechGrammar
        let soundAlikes: [SoundAlikes.SensitivePair]

        /// Checks the app's declaration (warnings are logged), compiles its phrases and grammar as
        /// `configuration` says, and checks which intents sound like sensitive ones with a
        /// recognizer of its own (logging each pair).
        public init(app: AppContext, configuration: Configuration, logger: Logger) async throws {
            try app.validate(logger: logger)
            matcher = try await app.matcher(configuration.phrases)
            commands = app.grammar(
                of: matcher, wakePhrase: configuration.wakePhrase, garbage: configuration.garbage)
            soundAlikes = try SoundAlikes.sensitivePairs(app, matcher: matcher)
            for pair in soundAlikes { logger.info("\(pair.warning)") }
        }
    }
}
