import Foundation
import VoiceAudio
import VoiceModels
import Yams

extension SpeechRecognizer.Configuration {
    /// The manifest's `frontEnd`: `{ neural: rnnoise, highPass: 80, noiseSuppression: -15,
    /// automaticGain: false, engine: speexdsp }`, or `off: true`.
    private struct FrontEnd: Decodable {
        var off: Bool?
        var neural: String?
        var neuralFloor: Int?
        var highPass: Double?
        var noiseSuppression: Int?
        var automaticGain: Bool?
        var engine: String?
    }

    /// The manifest's `voiceActivity`: `{ detector: webrtc, aggressiveness: 2 }`, or
    /// `{ detector: pocketsphinx }`.
    private struct VoiceActivity: Decodable {
        var detector: String
        var aggressiveness: Int?
        var floorMargin: Double?
        var speakerMargin: Double?
        var startPeak: Double?
        var learningStartPeak: Double?
        var startWindow: Double?
        var startShare: Double?
        var endShare: Double?
        var foregroundRise: Double?
        var foregroundAfter: Double?
    }

    /// What `Models/<locale>/manifest.yaml` says.
    private struct Manifest: Decodable {
        var locale: String
        var package: String
        var acousticModel: String
        var adaptation: String?
        var dictionary: String
        var languageModel: String
        var lexicon: String?
        var decoder: [String]?
        var trailingSilence: Double?
        var minimumConfidence: Double?
        var garbage: String?
        var maximumSilence: Double?
        var waitForContinuation: Bool?
        var frontEnd: FrontEnd?
        var voiceActivity: VoiceActivity?
        var decoys: String?
    }

    /// The models a locale's manifest names (`Models/en/manifest.yaml`): acoustic model (and the
    /// adapted files that replace some of its own, ``AcousticAdaptation``), dictionary, language
    /// model, the lexicon of hand-checked pronunciations, the decoder settings, and the decoy list
    /// (``DecoyCheck``). Relative paths are relative to the manifest's folder.
    ///
    /// ```yaml
    /// locale: en
    /// package: pocketsphinx-en-us
    /// acousticModel: /usr/share/pocketsphinx/model/en-us/en-us
    /// dictionary: /usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict
    /// languageModel: /usr/share/pocketsphinx/model/en-us/en-us.lm.bin
    /// lexicon: lexicon.dict
    /// decoder: ["-beam", "1e-80"]
    /// ```
    ///
    /// - Throws: ``SpeechError`` naming the file and what is wrong in it.
    package init(manifest url: URL) throws(SpeechError) {
        let text = try readModelText(at: url, describing: "model manifest")
        let manifest: Manifest
        do {
            manifest = try YAMLDecoder().decode(Manifest.self, from: text)
        } catch let error as DecodingError {
            throw SpeechError(.invalidInput, "\(url.path): \(error.summary)")
        } catch {
            throw SpeechError(.invalidInput, "\(url.path): \(error)")
        }
        let folder = url.deletingLastPathComponent()
        func resolved(_ path: String) -> String {
            path.hasPrefix("/") ? path : folder.appendingPathComponent(path).standardizedFileURL.path
        }
        self.init(
            acousticModel: resolved(manifest.acousticModel), dictionary: resolved(manifest.dictionary),
            languageModel: resolved(manifest.languageModel), arguments: manifest.decoder ?? [])
        package = manifest.package
        adaptation = try manifest.adaptation.map { name throws(SpeechError) in
            try AcousticAdaptation(folder: URL(fileURLWithPath: resolved(name)))
        }
        lexicon = manifest.lexicon.map(resolved)
        if let silence = manifest.trailingSilence { trailingSilence = silence }
        if let maximum = manifest.maximumSilence { maximumSilence = maximum }
        if let waits = manifest.waitForContinuation { waitsForContinuation = waits }
        if let spec = manifest.frontEnd {
            let engine = spec.engine.flatMap(AudioFrontEnd.Engine.init(rawValue:))
            if let name = spec.engine, engine == nil {
                throw SpeechError(
                    .invalidInput,
                    "\(url.path): frontEnd's engine must be speexdsp or webrtc, not \"\(name)\"")
            }
            let neural = spec.neural.flatMap(AudioFrontEnd.NeuralSuppressor.init(rawValue:))
            if let name = spec.neural, neural == nil {
                throw SpeechError(
                    .invalidInput,
                    "\(url.path): frontEnd's neural must be rnnoise or deepfilternet, not \"\(name)\"")
            }
            frontEnd =
                spec.off == true
                ? nil
                : AudioFrontEnd.Settings(
                    neural: neural,
                    neuralFloor: AudioFrontEnd.Settings.neuralFloor(spec.neuralFloor, for: neural),
                    highPass: spec.highPass,
                    noiseSuppression: spec.noiseSuppression,
                    automaticGain: spec.automaticGain ?? false, engine: engine ?? .speexDSP)
            // A default must not stop the program: without RNNoise, the standard front end.
            if let named = frontEnd {
                let (runnable, notice) = named.runnableHere()
                frontEnd = runnable
                if let notice { notices.append("\(url.path): frontEnd: \(notice)") }
            }
        }
        if let spec = manifest.voiceActivity {
            switch spec.detector {
            case "pocketsphinx": voiceActivity = nil
            case "webrtc":
                let standard = VoiceActivityDetector.Settings.standard
                let settings = VoiceActivityDetector.Settings(
                    aggressiveness: spec.aggressiveness ?? standard.aggressiveness,
                    floorMargin: spec.floorMargin ?? standard.floorMargin,
                    speakerMargin: spec.speakerMargin ?? standard.speakerMargin,
                    startPeak: spec.startPeak ?? standard.startPeak,
                    learningStartPeak: spec.learningStartPeak ?? standard.learningStartPeak,
                    startWindow: spec.startWindow ?? standard.startWindow,
                    startShare: spec.startShare ?? standard.startShare,
                    endShare: spec.endShare ?? standard.endShare,
                    // 0 turns it off.
                    foregroundRise: spec.foregroundRise.map { $0 > 0 ? $0 : nil } ?? standard.foregroundRise,
                    foregroundAfter: spec.foregroundAfter ?? standard.foregroundAfter)
                guard (0...3).contains(settings.aggressiveness) else {
                    throw SpeechError(
                        .invalidInput,
                        "\(url.path): voiceActivity's aggressiveness must be from 0 to 3, not \(settings.aggressiveness)"
                    )
                }
                voiceActivity = settings
            default:
                throw SpeechError(
                    .invalidInput,
                    "\(url.path): voiceActivity's detector must be webrtc or pocketsphinx, not \"\(spec.detector)\""
                )
            }
        }
        if let name = manifest.garbage {
            guard let path = GarbagePath(rawValue: name) else {
                throw SpeechError(
                    .invalidInput, "\(url.path): garbage must be off, commands or values, not \"\(name)\"")
            }
            garbagePath = path
        }
        if let bar = manifest.minimumConfidence {
            guard (0...1).contains(bar) else {
                throw SpeechError(
                    .invalidInput, "\(url.path): minimumConfidence must be from 0 to 1, not \(bar)")
            }
            minimumConfidence = bar
        }
        decoys = manifest.decoys.map(resolved)
    }

    /// The models of `locale`: from `Models/<locale>/manifest.yaml` in the first of
    /// ``modelFolders()`` that has one.
    ///
    /// - Throws: ``SpeechError`` when no folder has the manifest (saying where it looked, and
    ///   that `VOICE_INTENTS_MODELS` names the folder), when `VOICE_INTENTS_MODELS` names a folder
    ///   without it, or when the manifest is malformed.
    public static func installed(locale: String = "en") throws(SpeechError) -> Self {
        let manifestPath = "\(locale)/manifest.yaml"
        if let named = ProcessInfo.processInfo.environment["VOICE_INTENTS_MODELS"] {
            let manifest = URL(fileURLWithPath: named).appendingPathComponent(manifestPath)
            guard FileManager.default.fileExists(atPath: manifest.path) else {
                throw SpeechError(
                    .missingModel,
                    "VOICE_INTENTS_MODELS is \(named), which has no \(manifestPath): point it at a copy of the repository's Models folder"
                )
            }
        }
        guard let manifest = installedManifest(locale: locale) else {
            let places = modelFolders().map(\.path).joined(separator: ", ")
            throw SpeechError(
                .missingModel,
                "no speech models for \"\(locale)\": no \(manifestPath) in \(places); copy the VoiceIntents_VoiceModels.resources folder of the build beside the executable, set VOICE_INTENTS_MODELS to a copy of the package's Models folder, or install it with Scripts/install-models.sh"
            )
        }
        return try Self(manifest: manifest)
    }

    /// Where the models are looked for, in order: the folder `VOICE_INTENTS_MODELS` names,
    /// `Models` in the current folder, in each folder above the executable (this package's
    /// checkout, run with `swift run`), the models the package ships beside the executable
    /// (``PackagedModels``: an app that depends on the package), and where
    /// `Scripts/install-models.sh` puts them, `/usr/local/share/voice-intents/Models` and
    /// `/usr/share/voice-intents/Models`.
    package static func modelFolders() -> [URL] {
        var folders: [URL] = []
        if let named = ProcessInfo.processInfo.environment["VOICE_INTENTS_MODELS"] {
            folders.append(URL(fileURLWithPath: named))
        }
        folders.append(
            URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("Models"))
        var above = URL(fileURLWithPath: CommandLine.arguments.first ?? "/").resolvingSymlinksInPath()
            .deletingLastPathComponent()
        while above.path != "/" {
            folders.append(above.appendingPathComponent("Models"))
            above.deleteLastPathComponent()
        }
        if let packaged = PackagedModels.folder { folders.append(packaged) }
        folders += ["/usr/local/share", "/usr/share"].map {
            URL(fileURLWithPath: $0).appendingPathComponent("voice-intents/Models")
        }
        var seen: Set<String> = []
        return folders.filter { seen.insert($0.standardizedFileURL.path).inserted }
    }

    /// The manifest ``installed(locale:)`` reads, `Models/<locale>/manifest.yaml` in the first of
    /// ``modelFolders()`` that has one; `nil` when there is none. Files made for the models (an
    /// app's calibration) go next to it.
    package static func installedManifest(locale: String = "en") -> URL? {
        modelFolders().lazy.map { $0.appendingPathComponent(locale).appendingPathComponent("manifest.yaml") }
            .first { FileManager.default.fileExists(atPath: $0.path) }
    }
}
