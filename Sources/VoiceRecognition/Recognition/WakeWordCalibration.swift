import Foundation
import VoiceAudio

/// A trained wake word's settings chosen for one person's voice, microphone and room, from their
/// own takes of the word: the model's cutoff, and the margin of the recognizer's check behind it
/// (``WakeWordCheck``), or no check.
///
/// `record --wake-word okay_nabu` records the takes; `calibrate --wake-word okay_nabu --save`
/// hears them (and noisy copies of them, with `--snr`), chooses with ``choose(takes:model:)``, and
/// writes the result beside the app's confidence calibration,
/// `Models/<locale>/<app>.wake-word.<model>.json` (``fileName(app:model:)``), where `listen` finds
/// it for that word:
///
/// ```json
/// {
///   "version": 1,
///   "model": "okay_nabu",
///   "modelCutoff": 0.85,
///   "cutoff": 0.94,
///   "checkMargin": -32,
///   "takes": [ { "file": "0001.wav", "condition": "as recorded", "peak": 0.998, "margin": -4.1 }, … ],
///   "date": "2026-12-02T14:00:00Z",
///   "command": "home-lights calibrate --wake-word okay_nabu --save"
/// }
/// ```
///
/// - `cutoff`: the sliding mean of the model's probability above which the word is heard, in place
///   of the model's own (`modelCutoff`). Where the model's own misses the takes as recorded, it is
///   lowered to ``cutoffHeadroom`` under their lowest peak (once the ``allowedMissShare`` lowest
///   are let go), down to ``lowestCutoff``; where the takes and their noisy copies all peak well
///   above the model's own, it is raised to that headroom under their lowest (up to
///   ``highestCutoff``); else it is the model's own. Above the model's own it wakes less on other
///   speech and near-misses; below it, more. A noisy copy never lowers it: missing it is the
///   model's miss in that noise, and a cutoff low enough to hear it would wake on much else.
/// - `checkMargin`: the margin the check asks for, ``marginHeadroom`` below the lowest of the takes
///   and copies woken at the cutoff once the same share is let go, and at most ``highestMargin``; `null` (the check stays off) when that
///   is below ``lowestUsefulMargin``, where it turns away almost nothing.
/// - `takes`: each take heard: its file, how it was heard (as recorded, or under a noise), the
///   model's highest sliding mean over it, and the check's margin where the model fired at the
///   chosen cutoff (`null` when it did not fire).
package struct WakeWordCalibration: Sendable, Codable, Equatable {
    /// One take of the wake word, as heard.
    package struct Take: Sendable, Codable, Equatable {
        /// The take's file name.
        package var file: String
        /// How it was heard: `as recorded`, or a noise condition (`babble 10 dB`).
        package var condition: String
        /// The model's highest sliding mean over the take.
        package var peak: Double
        /// The check's margin where the model fired at the chosen cutoff; `nil` when it did not.
        package var margin: Double?

        package init(file: String, condition: String, peak: Double, margin: Double? = nil) {
            self.file = file
            self.condition = condition
            self.peak = peak
            self.margin = margin
        }
    }

    /// The file format, 1. A reader refuses other versions.
    package static let currentVersion = 1

    package var version: Int
    /// The wake-word model (`okay_nabu`).
    package var model: String
    /// The model's own cutoff, from its description.
    package var modelCutoff: Double
    /// The cutoff chosen for the takes.
    package var cutoff: Double
    /// The check's margin chosen for the takes; `nil` when the check stays off.
    package var checkMargin: Double?
    /// Every take as heard.
    package var takes: [Take]
    /// When it was chosen (ISO 8601), and the command that chose it.
    package var date: String
    package var command: String?

    /// The share of takes the cutoff and the margin may each let go: a take said badly, or a
    /// cough, should not pull the settings down for the rest.
    package static let allowedMissShare = 0.02
    /// How far under the lowest kept take's peak the cutoff goes: another day's take of the same
    /// voice peaks a little lower.
    package static let cutoffHeadroom = 0.05
    /// The lowest cutoff chosen: below it most models wake on much of any speech.
    package static let lowestCutoff = 0.5
    /// The highest cutoff chosen, unless the model's own is higher.
    package static let highestCutoff = 0.97
    /// How far under the lowest kept take's margin the check's margin goes (per 10 ms frame).
    package static let marginHeadroom = 10.0
    /// The highest margin chosen.
    package static let highestMargin = 0.0
    /// Below this margin the check turns away little that the model takes for its word
    /// (`Benchmarks/Recognition/README.md`, "The recognizer's check behind the model"), so it is
    /// left off.
    package static let lowestUsefulMargin = -60.0
    /// The fewest takes settings are chosen from.
    package static let fewestTakes = 5

    package init(
        model: String, modelCutoff: Double, cutoff: Double, checkMargin: Double?, takes: [Take],
        date: String, command: String?
    ) {
        version = Self.currentVersion
        self.model = model
        self.modelCutoff = modelCutoff
        self.cutoff = cutoff
        self.checkMargin = checkMargin
        self.takes = takes
        self.date = date
        self.command = command
    }

    // MARK: Choosing

    /// The lowest value in `values` once ``allowedMissShare`` of them, the lowest, are let go;
    /// `nil` for none.
    static func lowestKept(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count) * allowedMissShare))]
    }

    /// The cutoff for takes whose model peaks are `peaks` as recorded and `copyPeaks` under
    /// noise, for a model whose own cutoff is `modelCutoff`. Where the model's own misses the
    /// takes as recorded, ``cutoffHeadroom`` under their lowest kept peak (down to
    /// ``lowestCutoff``); else as far above the model's own as leaves that headroom under the
    /// lowest kept peak of takes and copies alike (up to ``highestCutoff``), so that a higher
    /// cutoff misses no more of them in noise; else the model's own. To the hundredth.
    package static func cutoff(peaks: [Double], copyPeaks: [Double] = [], modelCutoff: Double) -> Double {
        guard let lowest = lowestKept(peaks) else { return modelCutoff }
        // A hair over, so that 0.99 - 0.05 is 0.94 and not 0.93.
        let under = { (peak: Double) in ((peak - cutoffHeadroom) * 100 + 1e-9).rounded(.down) / 100 }
        guard lowest > modelCutoff else { return max(lowestCutoff, under(lowest)) }
        let raised = under(lowestKept(peaks + copyPeaks) ?? lowest)
        return raised > modelCutoff ? min(max(highestCutoff, modelCutoff), raised) : modelCutoff
    }

    /// The check's margin for takes whose margins are `margins`, `headroom` under the lowest kept,
    /// or `nil` when it would be below ``lowestUsefulMargin`` (see the type's description).
    package static func checkMargin(margins: [Double], headroom: Double = marginHeadroom) -> Double? {
        guard let lowest = lowestKept(margins) else { return nil }
        let margin = min(highestMargin, (lowest - headroom).rounded(.down))
        return margin >= lowestUsefulMargin ? margin : nil
    }

    /// How the takes were heard (`as recorded`, `babble 10 dB`), in the order they come.
    package var conditions: [String] {
        takes.reduce(into: [String]()) { if !$0.contains($1.condition) { $0.append($1.condition) } }
    }

    /// The takes woken at ``cutoff`` and let through by the check at ``checkMargin``.
    package var heard: [Take] {
        takes.filter { take in
            guard take.peak > cutoff else { return false }
            guard let checkMargin else { return true }
            return (take.margin ?? -.infinity) >= checkMargin
        }
    }

    // MARK: Files

    /// `<app>.wake-word.<model>.json`: the file's name in the models folder.
    package static func fileName(app: String, model: String) -> String { "\(app).wake-word.\(model).json" }

    /// Where `app`'s calibration of the wake word `model` is kept for the installed models of
    /// `locale` (beside its confidence calibration); `nil` when no manifest is found.
    package static func installedURL(app: String, model: String, locale: String = "en") -> URL? {
        SpeechRecognizer.Configuration.installedManifest(locale: locale)?.deletingLastPathComponent()
            .appendingPathComponent(fileName(app: app, model: model))
    }

    /// `app`'s saved calibration of `model`; `nil` when it has none.
    ///
    /// - Throws: ``SpeechError`` when the file is there but cannot be used (``load(from:)``).
    package static func installed(app: String, model: String, locale: String = "en") throws(SpeechError)
        -> WakeWordCalibration?
    {
        guard let url = installedURL(app: app, model: model, locale: locale),
            FileManager.default.fileExists(atPath: url.path)
        else { return nil }
        return try load(from: url)
    }

    /// Reads a wake-word calibration file.
    ///
    /// - Throws: ``SpeechError`` naming the file and what is wrong: unreadable, not JSON of this
    ///   format (with the field), another version, or a cutoff outside 0...1.
    package static func load(from url: URL) throws(SpeechError) -> WakeWordCalibration {
        let calibration = try decodeJSONFile(
            WakeWordCalibration.self, at: url, describing: "wake-word calibration")
        guard calibration.version == currentVersion else {
            throw SpeechError(
                .invalidInput,
                "\(url.path): wake-word calibration format \(calibration.version), this version reads \(currentVersion): run calibrate --wake-word \(calibration.model) --save again"
            )
        }
        guard (0...1).contains(calibration.cutoff) else {
            throw SpeechError(
                .invalidInput, "\(url.path): cutoff \(calibration.cutoff) is not between 0 and 1")
        }
        return calibration
    }

    /// Writes the calibration as pretty-printed JSON.
    package func write(to url: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: url, options: .atomic)
    }
}

extension WakeWordCalibration {
    /// Hears `takes` (16 kHz mono, each with some silence or room before the word) and `copies`
    /// of them (under noise) with `model` and `recognizer`, and chooses the cutoff on the takes
    /// and the check's margin on both.
    ///
    /// Each take is heard as a stream of its own: the model's highest sliding mean over it is its
    /// peak; at the chosen cutoff, the check hears the audio around where the model fired, on a
    /// channel learnt afresh, as the loop's check does. The cutoff is lowered for the takes as
    /// recorded only, and raised only as far as the copies allow (``cutoff(peaks:copyPeaks:modelCutoff:)``).
    /// The margin is chosen on every take and copy the model wakes on, so that the check adds no
    /// misses in noise of its own.
    ///
    /// - Parameters:
    ///   - takes: The takes: a file name, how each was heard (`as recorded`) and its audio.
    ///   - copies: Copies of the takes under noise (`babble 10 dB`), likewise.
    ///   - progress: Called after each take or copy, with how many of how many.
    /// - Throws: ``SpeechError`` when the model cannot run or PocketSphinx fails.
    package static func choose(
        takes recorded: [(file: String, condition: String, audio: [Int16])],
        copies: [(file: String, condition: String, audio: [Int16])] = [], model: WakeWordDetector.Model,
        recognizer: SpeechRecognizer, date: String, command: String?,
        progress: (Int, Int) -> Void = { _, _ in }
    ) throws(SpeechError) -> WakeWordCalibration {
        let takes = recorded + copies
        let detector = try WakeWordDetector(model: model)
        let means = takes.map { detector.slidingMeans(of: $0.audio) }
        let peaks = means.map { $0.map(\.mean).max() ?? 0 }
        let cutoff = cutoff(
            peaks: Array(peaks.prefix(recorded.count)), copyPeaks: Array(peaks.dropFirst(recorded.count)),
            modelCutoff: model.probabilityCutoff)
        let check = WakeWordCheck(phrase: model.phrase, minimumMargin: -.infinity)
        let rate = Double(AudioFormat.recognizerSampleRate)
        var heard: [Take] = []
        for (index, take) in takes.enumerated() {
            var margin: Double?
            if let fired = means[index].first(where: { $0.mean > cutoff }) {
                let from = max(0, fired.end - Int(WakeWordCheck.secondsBefore * rate))
                let to = min(take.audio.count, fired.end + Int(WakeWordCheck.secondsAfter * rate))
                recognizer.forgetChannel()
                margin = try recognizer.check(Array(take.audio[from..<to]), wakeWord: check).margin
            }
            progress(index + 1, takes.count)
            heard.append(Take(file: take.file, condition: take.condition, peak: peaks[index], margin: margin))
        }
        let margins = heard.compactMap(\.margin).filter(\.isFinite)
        return WakeWordCalibration(
            model: model.name, modelCutoff: model.probabilityCutoff, cutoff: cutoff,
            checkMargin: checkMargin(margins: margins), takes: heard, date: date, command: command)
    }
}
