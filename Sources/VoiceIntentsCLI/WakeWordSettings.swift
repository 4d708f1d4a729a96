import Foundation
import Logging
import VoiceAudio
import VoiceRecognition

/// How `listen` (and `serve`, for each installed word) hears a trained wake word: the cutoff of the model and the recognizer's check
/// behind it, from the options, else the app's calibration of the word for the user's own takes
/// (`Models/<locale>/<app>.wake-word.<model>.json`, ``WakeWordCalibration``), else the model's own
/// cutoff and no check.
struct WakeWordSettings: Sendable, Hashable {
    /// The model (`okay_nabu`).
    let model: String
    /// The cutoff in place of the model's own; `nil` for its own.
    let cutoff: Double?
    /// The check's margin; `nil` for no check.
    let checkMargin: Double?
    /// Where they came from, as the start-up log says it.
    let origin: String
    /// Whether the app has a calibration of the word for the user.
    let calibrated: Bool

    /// The settings for `model` in `context` with these options: `--wake-word-cutoff`,
    /// `--wake-word-check` / `--no-wake-word-check` and `--wake-word-margin` override the
    /// calibration one by one; a margin given turns the check on.
    static func resolve(
        model name: String, cutoff: Double?, check: Bool?, margin: Double?, context: AppContext,
        locale: String
    ) throws -> WakeWordSettings {
        let model = try WakeWordDetector.model(named: name, among: WakeWordDetector.installedModels())
        let file = WakeWordCalibration.fileName(app: context.executableName, model: name)
        let calibration = try WakeWordCalibration.installed(
            app: context.executableName, model: name, locale: locale)
        let chosenCutoff = cutoff ?? calibration?.cutoff
        let checks = check ?? (margin != nil || calibration?.checkMargin != nil)
        let chosenMargin =
            checks ? (margin ?? calibration?.checkMargin ?? WakeWordCheck.standardMargin) : nil

        let format = { (value: Double) in String(format: "%.2f", value) }
        var origin = "wake word \(name): waking above "
        if let cutoff {
            origin += "\(format(cutoff)) (--wake-word-cutoff)"
        } else if let calibration {
            origin += "\(format(calibration.cutoff)) (the model's own: \(format(model.probabilityCutoff)))"
        } else {
            origin += "the model's own cutoff, \(format(model.probabilityCutoff))"
        }
        if let chosenMargin {
            origin += ", with the recognizer's check at \(String(format: "%.0f", chosenMargin))"
            if margin != nil {
                origin += " (--wake-word-margin)"
            } else if calibration?.checkMargin == nil {
                origin += " (--wake-word-check)"
            }
        } else {
            origin += check == false ? ", no check (--no-wake-word-check)" : ", no check"
        }
        if let calibration {
            // Noisy copies share their take's file.
            let takes = Set(calibration.takes.map(\.file)).count
            origin += ", as calibrated on \(takes) take\(takes == 1 ? "" : "s") (\(file))"
        } else if cutoff == nil {
            origin +=
                "; record --wake-word \(name), then calibrate --wake-word \(name) --save, to choose them for your voice"
        }
        return WakeWordSettings(
            model: name, cutoff: chosenCutoff, checkMargin: chosenMargin, origin: origin,
            calibrated: calibration != nil)
    }
}

/// A folder of takes of a wake word, as `record --wake-word` writes them (`0001.wav`, …) and
/// `calibrate --wake-word` hears them.
enum WakeWordTakes {
    /// Where `record --wake-word model` puts the takes and `calibrate --wake-word model` looks
    /// for them by default.
    static func defaultFolder(_ model: String) -> String { "recordings/wake-word-\(model)" }

    /// The WAV files in `folder`, by name.
    ///
    /// - Throws: ``CommandFailure`` when there is no such folder or no WAV file in it, saying how
    ///   to record some.
    static func files(in folder: URL, model: String) throws -> [URL] {
        let record = "record them with: record --wake-word \(model)"
        guard let files = names(in: folder) else {
            throw CommandFailure("no folder of takes of \(model) at \(folder.relativePath); \(record)")
        }
        guard !files.isEmpty else {
            throw CommandFailure("no takes (WAV files) of \(model) in \(folder.relativePath); \(record)")
        }
        return files.map { folder.appendingPathComponent($0) }
    }

    /// The names of the WAV files in `folder`, sorted; `nil` when there is no such folder.
    static func names(in folder: URL) -> [String]? {
        (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.filter {
            $0.lowercased().hasSuffix(".wav")
        }.sorted()
    }
}
