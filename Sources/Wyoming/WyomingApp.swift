import Foundation
import Logging
import PhraseMatching
import VoiceAudio
import VoiceIntents
import VoiceLoop
import VoiceRecognition

/// What one app offers over Wyoming, shared by every connection: its matcher, its grammar, the
/// recognizer settings and confidence bar `listen` would use, and eSpeak NG's voice.
public struct WyomingApp: Sendable {
    public let app: AppContext
    /// The matcher, grammar and sound-alikes every connection and satellite shares.
    public let preparation: VoiceLoop.Preparation
    public var matcher: PhraseMatcher { preparation.matcher }
    public var grammar: SpeechGrammar { preparation.commands }
    /// How the app hears and acts, what `listen` would do: transcripts and satellites' conversations.
    public private(set) var configuration: VoiceLoop.Configuration
    public var recognizer: SpeechRecognizer.Configuration { configuration.recognizer }
    public var policy: ConfidencePolicy { configuration.policy }
    /// eSpeak NG's voice for `synthesize` when the event names none.
    public var voice = "en-us"
    public let locale: String
    /// The trained wake words installed here (``WakeWordDetector``), read once: `info` lists
    /// them and `detect` and satellites' pipelines may name them.
    public let wakeWords: [WakeWordDetector.Model]
    /// How particular wake words are heard, by model name, in place of ``configuration``'s
    /// cutoff and check for them: `serve` sets those of the app's calibrations
    /// (`calibrate --wake-word okay_nabu --save`). A word not here is heard as the configuration
    /// says (``wakeWordSetting(for:)``).
    public var wakeWordSettings: [String: WakeWordSetting] = [:]

    /// The cutoff and check a trained wake word is heard with.
    public struct WakeWordSetting: Sendable, Hashable {
        /// The sliding mean of the model above which the word is heard; `nil` for the model's own.
        public var cutoff: Double?
        /// The margin the recognizer's check behind the model asks for
        /// (``WakeWordCheck/minimumMargin``); `nil` for no check.
        public var checkMargin: Double?

        public init(cutoff: Double? = nil, checkMargin: Double? = nil) {
            self.cutoff = cutoff
            self.checkMargin = checkMargin
        }
    }

    /// How the wake word `model` is heard: its entry in ``wakeWordSettings``, else the
    /// configuration's cutoff, and its check when ``VoiceLoop/Configuration/checksWakeWord``.
    public func wakeWordSetting(for model: String) -> WakeWordSetting {
        wakeWordSettings[model]
            ?? WakeWordSetting(
                cutoff: configuration.wakeWordCutoff,
                checkMargin: configuration.checksWakeWord ? configuration.wakeWordMargin : nil)
    }

    /// The app as `listen` would hear it with `configuration`; warnings about its declaration and
    /// the intents that sound like sensitive ones go to `logger`.
    public init(
        _ app: AppContext, configuration: VoiceLoop.Configuration, locale: String = "en",
        logger: Logger = Logger(label: "wyoming")
    ) async throws {
        self.app = app
        self.locale = locale
        preparation = try await VoiceLoop.Preparation(app: app, configuration: configuration, logger: logger)
        self.configuration = configuration
        wakeWords = WakeWordDetector.installedModels()
    }

    /// The same app for the voice assistant of one room: commands that name no room are `area`'s.
    /// It shares this one's matcher and grammar (and their updates).
    /// Its `info` names the room ("voice-intents (Kitchen)"), which Home Assistant shows.
    public func inArea(_ area: String) -> WyomingApp {
        var copy = self
        copy.configuration.context["area"] = area
        copy.room = area
        return copy
    }

    /// The room this app serves on its own (``inArea(_:)``), else `nil`.
    public private(set) var room: String?

    /// The `info` event: the app as a speech-to-text service (its grammar as the model), as an
    /// intent recognizer and handler (its phrases and intents), and eSpeak NG as text to speech.
    public var info: WyomingEvent {
        let languages: JSONValue = .array([.string(locale)])
        func artifact(
            _ name: String, _ description: String, by author: String, at url: String,
            _ extra: [String: JSONValue]
        ) -> JSONValue {
            var object: [String: JSONValue] = [
                "name": .string(name), "description": .string(description),
                "attribution": ["name": .string(author), "url": .string(url)], "installed": true,
                "version": .string(WyomingEvent.protocolVersion),
            ]
            object.merge(extra) { _, new in new }
            return .object(object)
        }
        /// A program with one model or voice (`kind`): the app, or eSpeak NG's voice.
        func program(
            _ name: String, _ description: String, by author: String, at url: String, kind: String,
            _ model: String, _ modelDescription: String, _ extra: [String: JSONValue] = [:]
        ) -> JSONValue {
            let inner = artifact(model, modelDescription, by: author, at: url, ["languages": languages])
            let outer = artifact(
                name, description, by: author, at: url,
                extra.merging([kind: .array([inner])]) { _, new in new })
            return .array([outer])
        }
        let app = self.app.executableName
        let title = self.app.description.name
        // The programs' names are what Home Assistant calls the service and its engines.
        let ours = room.map { "voice-intents (\($0))" } ?? "voice-intents"
        let pocketSphinx = "https://github.com/cmusphinx/pocketsphinx"
        return WyomingEvent(
            "info",
            data: [
                "asr": program(
                    ours, "PocketSphinx under the app's grammar", by: "CMU Sphinx",
                    at: pocketSphinx,
                    kind: "models", app, "the commands of \(title)",
                    [
                        "supports_transcript_streaming": true,
                        // Wyoming 1.10: the client ends the audio (audio-stop), and the server's
                        // own front end (RNNoise, a high-pass filter) wants the audio as recorded.
                        "requires_external_vad": true, "prefers_auto_gain_enabled": false,
                        "prefers_noise_reduction_enabled": false,
                    ]),
                "intent": program(
                    ours, "the app's phrase templates", by: "VoiceIntents", at: "", kind: "models",
                    app,
                    "the intents of \(title)"),
                "handle": program(
                    ours, "runs the app's intents", by: "VoiceIntents", at: "", kind: "models",
                    app,
                    "the intents of \(title), run"),
                "tts": program(
                    "espeak-ng", "eSpeak NG", by: "eSpeak NG", at: "https://github.com/espeak-ng/espeak-ng",
                    kind: "voices", voice, "eSpeak NG's \(voice)", ["supports_synthesize_streaming": true]),
                "wake": Self.wakePrograms(wakeWords, languages: languages),
            ])
    }

    /// `models` as `info`'s `wake`: one program, microWakeWord, with a model for each; none
    /// when there are none.
    static func wakePrograms(_ models: [WakeWordDetector.Model], languages: JSONValue) -> JSONValue {
        guard !models.isEmpty else { return [] }
        let attribution: JSONValue = [
            "name": "Kevin Ahrendt", "url": "https://github.com/kahrendt/microWakeWord",
        ]
        let entries: [JSONValue] = models.map { model in
            [
                "name": .string(model.name), "description": .string(model.phrase),
                "phrase": .string(model.phrase),
                "attribution": attribution, "installed": true, "version": "2.5.0", "languages": languages,
            ]
        }
        return [
            [
                "name": "microWakeWord",
                "description": "microWakeWord's trained wake words, run by TensorFlow Lite",
                "attribution": attribution, "installed": true, "version": "2.5.0", "models": .array(entries),
            ]
        ]
    }
}
