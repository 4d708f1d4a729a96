import Foundation
import Testing
import VoiceTestSupport

@testable import VoiceAudio
@testable import VoiceRecognition

/// A wake word's settings chosen for one person's takes (``WakeWordCalibration``): the rules, the
/// file, and a person's take heard by the real model and the real recognizer.
@Suite("Wake word calibration")
struct WakeWordCalibrationTests {
    /// The cutoff goes up to 0.05 under the takes' lowest peak where that is above the model's
    /// own, stays at the model's own where the takes are heard there with less room, and goes down
    /// only where the model's own would miss them; one take in fifty may be let go.
    @Test(arguments: [
        // Takes the model is sure of: a higher cutoff, so fewer false wakes.
        ([Double](repeating: 0.99, count: 12), 0.85, 0.94),
        // As sure, and the model's own is higher still: kept.
        ([Double](repeating: 0.999, count: 12), 0.97, 0.97),
        // Heard at the model's own, with less than 0.05 to spare: the model's own.
        ([Double](repeating: 0.88, count: 12), 0.85, 0.85),
        // Missed at the model's own: lowered to hear them.
        ([Double](repeating: 0.8, count: 12) + [0.83], 0.85, 0.75),
        // Never under 0.5.
        ([Double](repeating: 0.3, count: 12), 0.85, 0.5),
        // One take in fifty (a cough) is let go; a second is not.
        ([0.2] + [Double](repeating: 0.99, count: 49), 0.85, 0.94),
        ([0.2, 0.9] + [Double](repeating: 0.99, count: 48), 0.85, 0.85),
    ])
    func theCutoffFollowsTheTakes(peaks: [Double], own: Double, chosen: Double) {
        #expect(abs(WakeWordCalibration.cutoff(peaks: peaks, modelCutoff: own) - chosen) < 1e-9)
    }

    /// Noisy copies of the takes hold the cutoff down where they peak lower, so that a raised
    /// cutoff misses no more of them, and never lower it under the model's own: missing them is
    /// the model's miss in that noise.
    @Test func noisyCopiesKeepTheCutoffFromRisingAndNeverLowerIt() {
        let sure = [Double](repeating: 0.99, count: 12)
        #expect(WakeWordCalibration.cutoff(peaks: sure, copyPeaks: sure, modelCutoff: 0.85) == 0.94)
        #expect(
            WakeWordCalibration.cutoff(
                peaks: sure, copyPeaks: [0.95] + [Double](repeating: 0.99, count: 11), modelCutoff: 0.85)
                == 0.9)
        #expect(
            WakeWordCalibration.cutoff(
                peaks: sure, copyPeaks: [0.6] + [Double](repeating: 0.99, count: 11), modelCutoff: 0.85)
                == 0.85)
        #expect(
            WakeWordCalibration.cutoff(
                peaks: [Double](repeating: 0.8, count: 12), copyPeaks: [Double](repeating: 0.4, count: 12),
                modelCutoff: 0.85) == 0.75)
    }

    /// The check's margin is 10 under the takes' lowest, at most 0, and off where that would be
    /// under -60, where it turns little away.
    @Test func theCheckIsOnWhereAMarginThatKeepsTheTakesTurnsSomethingAway() {
        #expect(WakeWordCalibration.checkMargin(margins: [-5, -12, -20.5, -8]) == -31)
        #expect(WakeWordCalibration.checkMargin(margins: [12, 20, 15]) == 0)
        #expect(WakeWordCalibration.checkMargin(margins: [-20, -55]) == nil)
        #expect(WakeWordCalibration.checkMargin(margins: []) == nil)
        #expect(WakeWordCalibration.checkMargin(margins: [-20, -55], headroom: 0) == -55)
        #expect(WakeWordCalibration.checkMargin(margins: [-90] + [Double](repeating: -10, count: 49)) == -20)
    }

    /// The takes heard are those over the cutoff that the check, when on, lets through.
    @Test func theTakesHeardAreThoseWokenAndLetThrough() {
        var calibration = WakeWordCalibration(
            model: "okay_nabu", modelCutoff: 0.85, cutoff: 0.9, checkMargin: -30,
            takes: [
                .init(file: "1.wav", condition: "as recorded", peak: 0.95, margin: -10),
                .init(file: "2.wav", condition: "as recorded", peak: 0.95, margin: -40),
                .init(file: "3.wav", condition: "as recorded", peak: 0.85),
            ], date: "2026-12-02T00:00:00Z", command: nil)
        #expect(calibration.heard.map(\.file) == ["1.wav"])
        calibration.checkMargin = nil
        #expect(calibration.heard.map(\.file) == ["1.wav", "2.wav"])
    }

    /// Written and read back whole; a file of another version or with a cutoff out of range is
    /// refused, naming the file and what to do.
    @Test func aSavedCalibrationIsReadBackAndABadOneIsNamed() throws {
        let folder = try temporaryFolder("wake-word-calibration")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("home-lights.wake-word.okay_nabu.json")
        let calibration = WakeWordCalibration(
            model: "okay_nabu", modelCutoff: 0.85, cutoff: 0.93, checkMargin: -28,
            takes: [.init(file: "0001.wav", condition: "as recorded", peak: 0.99, margin: -12.5)],
            date: "2026-12-02T00:00:00Z", command: "home-lights calibrate --wake-word okay_nabu --save")
        try calibration.write(to: url)
        #expect(try WakeWordCalibration.load(from: url) == calibration)

        var text = try String(contentsOf: url, encoding: .utf8)
        try text.replacingOccurrences(of: "\"version\" : 1", with: "\"version\" : 7").write(
            to: url, atomically: true, encoding: .utf8)
        let version = #expect(throws: SpeechError.self) { try WakeWordCalibration.load(from: url) }
        #expect(version?.description.contains(url.path) == true)
        #expect(version?.description.contains("calibrate --wake-word okay_nabu --save") == true)

        text = text.replacingOccurrences(of: "\"cutoff\" : 0.93", with: "\"cutoff\" : 1.5")
        try text.write(to: url, atomically: true, encoding: .utf8)
        let range = #expect(throws: SpeechError.self) { try WakeWordCalibration.load(from: url) }
        #expect(range?.description.contains("cutoff 1.5") == true, "\(String(describing: range))")

        try "{ \"model\": 3 }".write(to: url, atomically: true, encoding: .utf8)
        let broken = #expect(throws: SpeechError.self) { try WakeWordCalibration.load(from: url) }
        #expect(broken?.description.contains("not a wake-word calibration") == true)
    }

    /// A person's "hey mycroft" (Rhasspy's take, with a command after it), as recorded and
    /// quieter: the model is sure of it (0.995), so its own cutoff (0.95) stays, and the word fits
    /// the recognizer well, so the check goes on at a margin that lets every take through.
    @Test func aPersonsTakesChooseSettingsThatHearThem() throws {
        let url = try PeoplesRecordings.file(
            "rhasspy-test-en", "wake/precise_turn_on_the_living_room_lamp.wav")
        let take = try WAVFile.read(from: url).resampled(to: 16_000).int16Samples
        let quieter = { (decibels: Double) in take.map { Int16(Double($0) * pow(10, -decibels / 20)) } }
        let model = try WakeWordDetector("hey_mycroft").model
        let recognizer = try SpeechRecognizer(TestModels.configuration())
        var progress: [Int] = []
        let calibration = try WakeWordCalibration.choose(
            takes: [("precise.wav", "as recorded", take), ("precise.wav", "6 dB quieter", quieter(6))],
            model: model, recognizer: recognizer, date: "2026-12-02T00:00:00Z", command: nil
        ) { done, _ in progress.append(done) }
        #expect(progress == [1, 2])
        #expect(calibration.cutoff == model.probabilityCutoff, "\(calibration)")
        #expect(calibration.takes.allSatisfy { $0.peak > 0.99 }, "\(calibration.takes)")
        let margin = try #require(calibration.checkMargin, "\(calibration.takes)")
        #expect((-30...0).contains(margin), "\(calibration.takes)")
        #expect(calibration.heard.count == 2, "\(calibration)")
    }
}
