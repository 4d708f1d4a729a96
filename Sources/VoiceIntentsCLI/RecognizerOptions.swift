import ArgumentParser
import Foundation
import Logging
import Synchronization
import VoiceAudio
import VoiceRecognition
import VoiceUnderstanding

/// The recognizer's models and end-of-speech window, for every command that listens.
struct RecognizerOptions: ParsableArguments {
    @Option(help: "Seconds of silence that end what was said (default: the models' manifest, 0.5).")
    var silence: Double?

    @Option(
        help: ArgumentHelp(
            "The longest silence that does not end a command that is not whole yet, or that may go on (default: the models' manifest, 1.0; 0: every --silence pause ends it).",
            valueName: "seconds"))
    var maxSilence: Double?

    @Flag(
        help: ArgumentHelp(
            "Let one utterance hold several commands joined by \"and\", \"and then\" or \"then\", each run in order (off: the grammar that allows it hears single commands worse; typed sentences always may)."
        ))
    var joinedCommands = false

    @Flag(
        help: ArgumentHelp(
            "Hear a String parameter's free text as a loop of common words (Models/<locale>/free-text.txt), beside its suggestions; a value that is none of them is read back before the intent runs (\"Add toothpaste to your shopping list?\").",
            discussion:
                "Off by default: the loop takes the decoder past real time and adds about 120 MB for each slot that ends differently (Benchmarks/Recognition/README.md, \"Free text in the grammar\")."
        ))
    var freeText = false

    @Flag(
        inversion: .prefixedNo,
        help: ArgumentHelp(
            "Whether a pause after a whole command that may go on with words that could change it (\"turn on the lights\" … \"in the kitchen\"; not an optional \"right now\" or the app's name) waits up to --max-silence for the rest (default: the models' manifest, on)."
        ))
    var waitForContinuation: Bool?

    @Option(
        help: ArgumentHelp(
            "A garbage path beside the app's commands: off, commands, or values (default: the one the app's calibration was made with, else the models' manifest's).",
            discussion:
                "commands: a sound that fits no command better than a loop of any phones is heard as garbage and ignored. values: also a name the app does not know, inside a command, is heard as garbage, and the value is asked for (\"how busy is the Louvre\" → \"Which landmark?\"). An app with no calibration listens with the manifest's (commands): on people's recordings it took the other speech acted on from 31% to 19% for one command in eighty (Benchmarks/Calibration/people/README.md)."
        ))
    var garbage: GarbagePath?

    @Option(
        help: ArgumentHelp(
            "How much worse per frame than the rest of its sentence a value's words may fit the sound before the value is asked for instead of taken (default: -30; off takes every value heard).",
            discussion:
                "A name the grammar does not know is heard as the nearest one it does (\"turn off the garage light\" as \"the office lights\"), and its words then fit the sound far worse than the words around them (Benchmarks/Calibration/people/README.md, A name that does not fit).",
            valueName: "score|off"))
    var valueMargin: ValueMargin?

    /// `--value-margin`: a score per frame, or off.
    enum ValueMargin: ExpressibleByArgument {
        case margin(Double)
        case off

        init?(argument: String) {
            if argument == "off" {
                self = .off
            } else if let value = Double(argument), value <= 0 {
                self = .margin(value)
            } else {
                return nil
            }
        }
    }

    /// The free-text words in force for `locale` (`--free-text`, the installed list); `nil` when
    /// off, or when the models have none (said once, as a warning).
    func freeTextWords(locale: String) throws -> FreeTextWords? {
        guard freeText else { return nil }
        guard let words = try FreeTextWords.installed(locale: locale) else {
            Self.warnOnce(
                "no free-text words for \(locale) (Models/\(locale)/free-text.txt): phrases whose free text has no suggestions are left out of the grammar"
            )
            return nil
        }
        return words
    }

    /// The margin in force: `--value-margin`, else the standard one; `nil` when off.
    var valueMarginInForce: Double? {
        switch valueMargin {
        case .none: RecognitionResult.valueMisfitMargin
        case .margin(let value): value
        case .off: nil
        }
    }

    @Flag(
        help: ArgumentHelp(
            "Hear each command again with frequent words the app does not know beside its first word and names.",
            discussion:
                "A decoy that fits the first word better (\"sell four tickets\" when the app can only find them) makes the sentence no command; one that fits a name better (\"how busy is the Louvre\") makes the runner ask for the value. The words are Models/<locale>/decoys.txt. Off by default: it about doubles the time spent hearing, over the issue's budget (Benchmarks/Recognition/README.md, Decoys)."
        ))
    var decoys = false

    /// The garbage path in force for `context`: `--garbage`, else the one the app's calibration
    /// was made with, else the models' default for an app with no calibration.
    func garbagePath(for context: AppContext, locale: String) throws -> GarbagePath {
        if let garbage { return garbage }
        return try garbagePath(
            calibration: Calibration.installed(app: context.executableName, locale: locale),
            models: configuration())
    }

    /// The same, from the app's calibration (`nil`: none) and the models' configuration already
    /// read.
    func garbagePath(calibration: Calibration?, models: SpeechRecognizer.Configuration) -> GarbagePath {
        garbage
            ?? VoiceLoop.Configuration.Defaults(calibration: calibration, recognizer: models, decoys: decoys)
            .garbage
    }

    @Option(
        help: ArgumentHelp(
            "The audio front end before the recognizer: on (the models' manifest's: RNNoise and a high-pass filter; the default), standard (a high-pass filter and SpeexDSP's noise suppression), off, or its parts, e.g. highpass=80,denoise=-15,gain; rnnoise or deepfilternet puts that learned noise suppressor first; webrtc or speexdsp is the standard one, denoised by that library.",
            discussion:
                "rnnoise alone is RNNoise and the manifest's high-pass filter; with parts (rnnoise,highpass=80,denoise=-6) it is stacked before them. It takes away no more than 10 dB; rnnoise=-20 sets that floor. It costs about 0.02 of real time on a 2-core x86_64 machine, twenty times the standard front end (Benchmarks/Evaluation/README.md). Scripts/bootstrap.sh installs it (VOICE_INTENTS_RNNOISE names another librnnoise.so); where it is missing, the manifest's front end gives way to the standard one with a warning, and --front-end rnnoise stops with an error. deepfilternet (DeepFilterNet 3, floor -10 dB too) hears more of people under other people's talk and costs about 0.07 of real time, five times RNNoise; Scripts/bootstrap.sh installs it as well (VOICE_INTENTS_DEEPFILTERNET names another folder).",
            valueName: "setting"))
    var frontEnd: String?

    @Option(
        help: ArgumentHelp(
            "What ends an utterance: webrtc (WebRTC's detector, which learns the noise floor; every frame of the utterance decoded) or pocketsphinx (its own detector, which drops the frames it calls silence); default: the models' manifest (webrtc).",
            discussion:
                "In a noisy room, pocketsphinx runs commands together and webrtc keeps them apart (Benchmarks/Recognition/README.md, In a stream with the room under it).",
            valueName: "detector"))
    var voiceActivity: VoiceActivityChoice?

    /// The end-of-speech detectors `--voice-activity` names.
    enum VoiceActivityChoice: String, ExpressibleByArgument, CaseIterable {
        case pocketsphinx, webrtc
    }

    /// `--front-end` read: `nil` for the manifest's, `.some(nil)` for off.
    func frontEndSettings(default manifest: AudioFrontEnd.Settings?) throws -> AudioFrontEnd.Settings? {
        guard let frontEnd else { return manifest }
        switch frontEnd {
        case "off": return nil
        case "on": return manifest ?? .standard
        case "standard": return .standard
        default:
            let parts = frontEnd.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            var settings = AudioFrontEnd.Settings(highPass: nil, noiseSuppression: nil, automaticGain: false)
            if parts.count == 1, let engine = AudioFrontEnd.Engine(rawValue: parts[0]) {
                // The library alone: the standard front end, denoised by that library.
                settings = .standard
                settings.engine = engine
                return settings
            }
            for part in parts {
                let pieces = part.split(separator: "=", maxSplits: 1).map(String.init)
                switch (pieces.first, pieces.count == 2 ? Double(pieces[1]) : nil) {
                case ("highpass", let hz?) where hz > 0 && hz < 1_000: settings.highPass = hz
                case ("denoise", let db?) where db <= 0 && db >= -60: settings.noiseSuppression = Int(db)
                case (let name?, let db?)
                where db <= 0 && db >= -60 && AudioFrontEnd.NeuralSuppressor(rawValue: name) != nil:
                    settings.neural = AudioFrontEnd.NeuralSuppressor(rawValue: name)
                    settings.neuralFloor = Int(db)
                case ("gain", nil) where pieces.count == 1: settings.automaticGain = true
                case (let name?, nil) where pieces.count == 1 && AudioFrontEnd.Engine(rawValue: name) != nil:
                    settings.engine = AudioFrontEnd.Engine(rawValue: name)!
                case (let name?, nil)
                where pieces.count == 1 && AudioFrontEnd.NeuralSuppressor(rawValue: name) != nil:
                    settings.neural = AudioFrontEnd.NeuralSuppressor(rawValue: name)!
                    settings.neuralFloor = AudioFrontEnd.Settings.neuralFloor(
                        settings.neuralFloor, for: settings.neural)
                default:
                    throw ValidationError(
                        "--front-end takes on, standard, off, rnnoise, deepfilternet, webrtc, speexdsp, or highpass=HZ,denoise=-DB,gain with rnnoise[=-DB] or deepfilternet[=-DB], webrtc or speexdsp (e.g. rnnoise=-20,highpass=80); not \"\(part)\""
                    )
                }
            }
            if parts.count == 1, settings.neural != nil {
                // The learned suppressor alone takes the classic one's place; the high-pass stays.
                settings.highPass = (manifest ?? .standard).highPass
            }
            return settings
        }
    }

    /// The notices already shown by this process.
    private static let warned = Mutex(Set<String>())

    private static func warnOnce(_ notice: String) {
        let isNew = warned.withLock { $0.insert(notice).inserted }
        guard isNew else { return }
        LoggingSetup.bootstrap()
        Logger(label: "voice-intents").warning("\(notice)")
    }

    func validate() throws {
        _ = try frontEndSettings(default: nil)
        if let silence, !(0.05...5).contains(silence) {
            throw ValidationError("--silence takes 0.05 to 5 seconds")
        }
        if let maxSilence, !(0...10).contains(maxSilence) {
            throw ValidationError("--max-silence takes 0 to 10 seconds")
        }
    }

    @Option(
        help: ArgumentHelp(
            "The adapted acoustic model to hear with: a folder `adapt` wrote, or none for Debian's model as it is (default: the app's own, Models/<locale>/<app>.adaptation, else the models' manifest's).",
            valueName: "folder|none"))
    var adaptation: String?

    /// The installed models (Models/<locale>/manifest.yaml), with `--silence` and `--decoys`
    /// applied, and the acoustic model `--adaptation` names, else `app`'s own adaptation when it
    /// has one (`voice-intents adapt --save`), else the manifest's.
    func configuration(app: String? = nil) throws -> SpeechRecognizer.Configuration {
        var configuration = try SpeechRecognizer.Configuration.installed()
        switch adaptation {
        case "none": configuration.adaptation = nil
        case let folder?:
            configuration.adaptation = try AcousticAdaptation(folder: URL(fileURLWithPath: folder))
        case nil:
            if let app, let own = try AcousticAdaptation.installed(app: app) {
                configuration.adaptation = own
            }
        }
        if let silence { configuration.trailingSilence = silence }
        if let maxSilence { configuration.maximumSilence = maxSilence > 0 ? maxSilence : nil }
        if let waitForContinuation { configuration.waitsForContinuation = waitForContinuation }
        if frontEnd == nil {
            // The manifest's front end gave way to another on this machine: say so once.
            for notice in configuration.notices { RecognizerOptions.warnOnce(notice) }
        }
        configuration.notices = []
        configuration.frontEnd = try frontEndSettings(default: configuration.frontEnd)
        switch voiceActivity {
        case .pocketsphinx: configuration.voiceActivity = nil
        case .webrtc: configuration.voiceActivity = configuration.voiceActivity ?? .standard
        case nil: break
        }
        if decoys {
            guard let list = configuration.decoys else {
                throw SpeechError(
                    .missingModel, "the models' manifest names no decoy list (decoys: decoys.txt)")
            }
            configuration.decoyCheck = try DecoyCheck(contentsOf: URL(fileURLWithPath: list))
        }
        return configuration
    }
}

extension GarbagePath: ExpressibleByArgument {}
