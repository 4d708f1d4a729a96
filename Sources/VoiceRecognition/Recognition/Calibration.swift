import Foundation
import VoiceAudio

/// The confidence threshold chosen for one app by `calibrate`, and what it costs.
///
/// `calibrate` speaks the app's phrase tests, its near misses and the shared out-of-domain
/// sentences, scores every clip with the confidence the voice loop acts on (`Understanding`: the
/// recognizer's ``RecognitionConfidence`` times the matcher's score), splits
/// the clips in two by a hash of their sentence (`isTuning(_:)`), and chooses on the tuning half
/// the threshold with the fewest wrong accepts whose false rejects stay under a cap
/// (`recommend(_:maxFalseRejects:)`). The held-out half says what the threshold is worth; the
/// sweep is in `VoiceEvaluation`.
///
/// `calibrate --save` writes it next to the app's grammar, `Models/<locale>/<app>.calibration.json`
/// (``fileName(app:)``), for `listen` to read with ``load(from:)`` or ``installed(app:locale:)``:
///
/// ```json
/// {
///   "version": 1,
///   "app": "travel-tracking",
///   "measure": "acoustic score per frame (RecognitionConfidence) times match score",
///   "threshold": 0.62,
///   "maxFalseRejects": 0.02,
///   "tuning": { "threshold": 0.62, "clips": 900, "commands": 700, "nonCommands": 200,
///               "rightCommands": 650, "falseAccepts": 0.41, "wrongAccepts": 0.03,
///               "falseRejects": 0.018, "allFalseRejects": 0.09 },
///   "heldOut": { … the same figures on the other half … },
///   "date": "2026-11-23T00:40:00Z",
///   "command": "travel-tracking calibrate --voices en-us,en-us+f2 --snr clean,10"
/// }
/// ```
///
/// - `version`: the format, 1. A reader refuses other versions.
/// - `threshold`: a clip is accepted when it reached an intent and its confidence is at least
///   this (0 to 1).
/// - `measure`: which confidence the threshold is for: a threshold means nothing for another one.
/// - `maxFalseRejects`: the cap on ``Figures/falseRejects`` it was chosen under, 0 to 1.
/// - `tuning`, `heldOut`: ``Figures`` at the threshold on each half.
/// - `frontEnd` (optional): the audio front end the clips were heard through, as `--front-end`
///   names it: `rnnoise=-10,highpass=80`.
/// - `curve` (only in `calibrate`'s output folder, not in the saved file): ``Figures`` on both
///   halves from threshold 0 to 1, for plots.
public struct Calibration: Sendable, Codable, Equatable {
    /// What a threshold does to a set of clips.
    package struct Figures: Sendable, Codable, Equatable {
        /// The threshold they are at.
        package var threshold: Double
        /// Clips, clips of commands (the test expects an intent), and clips of anything else.
        package var clips: Int
        package var commands: Int
        package var nonCommands: Int
        /// Commands whose transcript reached exactly what the test expects, with no threshold.
        package var rightCommands: Int
        /// Non-commands accepted (any intent, confidence at least the threshold), as a share of
        /// non-commands: out-of-domain speech and near misses with a wrong verb.
        package var falseAccepts: Double
        /// Commands accepted with a wrong intent or value, as a share of commands: a near miss
        /// with an unknown value heard as a known one, or a command misheard.
        package var wrongAccepts: Double
        /// Of the ``rightCommands``, the share the threshold rejects: what the threshold costs.
        package var falseRejects: Double
        /// Commands not accepted at all (nothing heard, no intent reached, or under the
        /// threshold), as a share of commands.
        package var allFalseRejects: Double

        package init(
            threshold: Double, clips: Int, commands: Int, nonCommands: Int, rightCommands: Int,
            falseAccepts: Double, wrongAccepts: Double, falseRejects: Double, allFalseRejects: Double
        ) {
            self.threshold = threshold
            self.clips = clips
            self.commands = commands
            self.nonCommands = nonCommands
            self.rightCommands = rightCommands
            self.falseAccepts = falseAccepts
            self.wrongAccepts = wrongAccepts
            self.falseRejects = falseRejects
            self.allFalseRejects = allFalseRejects
        }
    }

    /// One point of the trade-off curve: the figures of both halves at one threshold.
    package struct CurvePoint: Sendable, Codable, Equatable {
        package var tuning: Figures
        package var heldOut: Figures

        package init(tuning: Figures, heldOut: Figures) {
            self.tuning = tuning
            self.heldOut = heldOut
        }
    }

    /// The version of the format this type reads and writes.
    package static let currentVersion = 1

    package var version: Int
    /// The app's executable name (`travel-tracking`).
    package var app: String
    /// The confidence measure the threshold is for.
    package var measure: String
    /// Accept a clip that reached an intent when its confidence is at least this.
    package var threshold: Double
    /// The cap on the tuning half's false rejects the threshold was chosen under, 0 to 1.
    package var maxFalseRejects: Double
    /// The figures at the threshold on the half it was chosen on, and on the other half.
    package var tuning: Figures
    package var heldOut: Figures
    /// When it was measured (ISO 8601).
    package var date: String
    /// The front end the clips were heard through, as `--front-end` names it
    /// (``VoiceAudio/AudioFrontEnd/Settings/argument``; `off` for none); `nil` in a file from
    /// before it was recorded. Confidence moves with the front end, so a bar holds for it alone.
    package var frontEnd: String?
    /// The command that measured it.
    package var command: String?
    /// Both halves' figures from 0 to 1, for plots; `nil` in a saved file.
    package var curve: [CurvePoint]?

    /// The name of the measure ``RecognitionConfidence`` gives.
    package static let confidenceMeasure =
        "acoustic score per frame (RecognitionConfidence) times match score"

    /// The measure of a grammar with `garbage` (``confidenceMeasure`` when it has none), heard
    /// with or without a ``DecoyCheck``: both change what is heard, so a threshold chosen without
    /// them does not hold with them.
    package static func measure(garbage: GarbageModel?, decoys: Bool = false) -> String {
        let checked = confidenceMeasure + (decoys ? ", decoy check" : "")
        guard let garbage else { return checked }
        return checked + ", garbage path p \(garbage.utterance) q \(garbage.phone)"
            + (garbage.value.map { " value \($0)" } ?? "")
    }

    /// The garbage path this calibration's measure was made with, heard with or without the
    /// decoy check; `nil` when it is none of ``GarbagePath``'s (another check, or another
    /// model's weights).
    package func garbagePath(decoys: Bool = false) -> GarbagePath? {
        GarbagePath.allCases.first { measure == Self.measure(garbage: $0.model, decoys: decoys) }
    }

    /// A calibration as measured (`VoiceEvaluation` measures it from clips).
    package init(
        app: String, measure: String, threshold: Double, maxFalseRejects: Double, tuning: Figures,
        heldOut: Figures, date: String, command: String?, curve: [CurvePoint]?
    ) {
        version = Self.currentVersion
        self.app = app
        self.measure = measure
        self.threshold = threshold
        self.maxFalseRejects = maxFalseRejects
        self.tuning = tuning
        self.heldOut = heldOut
        self.date = date
        self.command = command
        self.curve = curve
    }

    // MARK: Files

    /// `<app>.calibration.json`: the file's name in the models folder.
    package static func fileName(app: String) -> String { "\(app).calibration.json" }

    /// Where `app`'s calibration is kept for the installed models of `locale`
    /// (`Models/<locale>/<app>.calibration.json`, next to the models' manifest); `nil` when no
    /// manifest is found.
    package static func installedURL(app: String, locale: String = "en") -> URL? {
        SpeechRecognizer.Configuration.installedManifest(locale: locale)?.deletingLastPathComponent()
            .appendingPathComponent(fileName(app: app))
    }

    /// `app`'s saved calibration for the installed models of `locale`; `nil` when it has none.
    ///
    /// - Throws: ``SpeechError`` when the file is there but cannot be used (``load(from:)``).
    package static func installed(app: String, locale: String = "en") throws(SpeechError) -> Calibration? {
        guard let url = installedURL(app: app, locale: locale),
            FileManager.default.fileExists(atPath: url.path)
        else { return nil }
        return try load(from: url)
    }

    /// Reads a calibration file.
    ///
    /// - Throws: ``SpeechError`` naming the file and what is wrong: missing, not JSON of this
    ///   format (with the field), another version, or a threshold outside 0...1.
    package static func load(from url: URL) throws(SpeechError) -> Calibration {
        let calibration = try decodeJSONFile(Calibration.self, at: url, describing: "calibration")
        guard calibration.version == currentVersion else {
            throw SpeechError(
                .invalidInput,
                "\(url.path): calibration format \(calibration.version), this version reads \(currentVersion): run calibrate --save again"
            )
        }
        guard (0...1).contains(calibration.threshold) else {
            throw SpeechError(
                .invalidInput, "\(url.path): threshold \(calibration.threshold) is not between 0 and 1")
        }
        return calibration
    }

    /// Writes the calibration as pretty-printed JSON, without its curve when `withCurve` is false.
    package func write(to url: URL, withCurve: Bool = true) throws {
        var copy = self
        if !withCurve { copy.curve = nil }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(copy).write(to: url, options: .atomic)
    }
}

/// The text of the model file at `url`, a `what` ("decoy list").
///
/// - Throws: ``SpeechError`` (missing model) naming the file, when it cannot be read, and why.
func readModelText(at url: URL, describing what: String) throws(SpeechError) -> String {
    do {
        return try String(contentsOf: url, encoding: .utf8)
    } catch {
        throw SpeechError(.missingModel, "cannot read the \(what) \(url.path): \(error.localizedDescription)")
    }
}

/// The JSON file at `url` decoded as `T`, a `what` (`calibration`).
///
/// - Throws: ``SpeechError`` naming the file: it cannot be read (and why), or it is not a `what`
///   (with the field that is wrong).
func decodeJSONFile<T: Decodable>(_ type: T.Type, at url: URL, describing what: String) throws(SpeechError)
    -> T
{
    let data: Data
    do {
        data = try Data(contentsOf: url)
    } catch {
        throw SpeechError(.invalidInput, "cannot read the \(what) \(url.path): \(error.localizedDescription)")
    }
    do {
        return try JSONDecoder().decode(T.self, from: data)
    } catch let error as DecodingError {
        throw SpeechError(.invalidInput, "\(url.path): not a \(what): \(error.summary)")
    } catch {
        throw SpeechError(.invalidInput, "\(url.path): not a \(what): \(error)")
    }
}
