import Foundation
import Logging
import VoiceAudio
import VoiceRecognition

/// The confidence below which the voice loop ignores what it heard, and where it came from:
/// `--min-confidence`, else the app's calibration (`Models/<locale>/<app>.calibration.json`), else
/// the models' default for an app with no calibration, with the garbage path each was chosen with
/// (``RecognizerOptions/garbagePath(for:locale:)``). `listen` acts on it; `evaluate` counts with
/// it, so its false accepts are what a user would get.
struct ConfidenceBar: Sendable, Hashable {
    /// The bar; `nil` when there is none (a confidence measure with no calibration).
    let value: Double?
    /// Where it came from, as the start-up log says it.
    let origin: String
    /// Whether the origin is a warning (no bar for this measure, or a calibration for another).
    let isWarning: Bool
    /// The garbage path the bar goes with: `--garbage`, else the one the app's calibration was
    /// made with, else the models' (``RecognizerOptions/garbagePath(for:locale:)``).
    let garbage: GarbagePath

    /// The bar for `context` with these options.
    static func resolve(
        minConfidence: Double?, context: AppContext, locale: String, recognizerOptions: RecognizerOptions
    ) throws -> ConfidenceBar {
        // The manifest and the calibration, each read once.
        let models = try recognizerOptions.configuration()
        let installed = try Calibration.installed(app: context.executableName, locale: locale)
        let garbage = recognizerOptions.garbagePath(calibration: installed, models: models)
        if let minConfidence {
            return ConfidenceBar(
                value: minConfidence,
                origin:
                    "acting on confidence \(String(format: "%.2f", minConfidence)) and above (--min-confidence)",
                isWarning: false, garbage: garbage)
        }
        let file = Calibration.fileName(app: context.executableName)
        let measure = Calibration.measure(garbage: garbage.model, decoys: recognizerOptions.decoys)
        if let calibration = installed {
            guard calibration.measure == measure else {
                return ConfidenceBar(
                    value: nil,
                    origin:
                        "\(file) is for another confidence measure (\(calibration.measure)); run calibrate --save again with the same --garbage and --decoys, or give --min-confidence",
                    isWarning: true, garbage: garbage)
            }
            let acting =
                "acting on confidence \(String(format: "%.2f", calibration.threshold)) and above, as calibrated (\(file))"
            let frontEnd = AudioFrontEnd.Settings.argument(models.frontEnd)
            if let chosen = calibration.frontEnd, chosen != frontEnd {
                // Confidence moves with the front end: the bar is kept, and the user told.
                return ConfidenceBar(
                    value: calibration.threshold,
                    origin:
                        "\(acting), though it was chosen hearing through --front-end \(chosen) and the audio goes through --front-end \(frontEnd): it may ignore more, or less, than it did; calibrate --save again with this front end",
                    isWarning: true, garbage: garbage)
            }
            return ConfidenceBar(
                value: calibration.threshold, origin: acting, isWarning: false, garbage: garbage)
        }
        // The models' bar was chosen without a garbage path and checked with theirs.
        guard garbage == models.garbagePath || garbage == .off, !recognizerOptions.decoys else {
            return ConfidenceBar(
                value: nil,
                origin:
                    "no calibration for this confidence measure (--garbage or --decoys), so every command the grammar fits is acted on; give --min-confidence, or calibrate --save with the same options",
                isWarning: true, garbage: garbage)
        }
        let path = garbage == .off ? "" : " with the garbage path for \(garbage.rawValue)"
        return ConfidenceBar(
            value: models.minimumConfidence,
            origin:
                "acting on confidence \(String(format: "%.2f", models.minimumConfidence)) and above\(path), the models' default for an app with no calibration (minimumConfidence and garbage in Models/\(locale)/manifest.yaml; calibrate --save chooses one for this app)",
            isWarning: false, garbage: garbage)
    }

    /// Says where the bar came from.
    func log(to logger: Logger) {
        if isWarning { logger.warning("\(origin)") } else { logger.info("\(origin)") }
    }
}
