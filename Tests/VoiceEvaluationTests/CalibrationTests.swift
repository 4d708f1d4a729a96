import Foundation
import PhraseMatching
import Testing
import VoiceAudio
import VoiceEvaluation
import VoiceRecognition

/// The threshold sweep of `calibrate` on known scores, the halves it splits clips into, and the
/// calibration file.
@Suite("Calibration")
struct CalibrationTests {
    typealias Sample = Calibration.Sample

    static func command(_ score: Double, right: Bool = true, reached: Bool = true, _ sentence: String = "c")
        -> Sample
    {
        Sample(sentence: sentence, score: score, isCommand: true, reachedIntent: reached, isRight: right)
    }

    static func other(_ score: Double, reached: Bool = true, _ sentence: String = "o") -> Sample {
        Sample(sentence: sentence, score: score, isCommand: false, reachedIntent: reached, isRight: !reached)
    }

    /// Five commands heard right (0.5–0.9), one heard as the wrong command (0.4), one heard as
    /// nothing; four other sentences, three of them heard as a command (0.3, 0.55, 0.95).
    static let samples: [Sample] = [
        command(0.9), command(0.8), command(0.7), command(0.6), command(0.5),
        command(0.4, right: false), command(0, right: false, reached: false),
        other(0.3), other(0.55), other(0.95), other(0.2, reached: false),
    ]

    @Test func figuresCountEachKindOfMistake() {
        let half = Calibration.figures(Self.samples, at: 0.5)
        #expect(half.clips == 11 && half.commands == 7 && half.nonCommands == 4 && half.rightCommands == 5)
        #expect(half.falseAccepts == 0.5)  // 0.55 and 0.95 of four
        #expect(half.wrongAccepts == 0)  // the wrong command's 0.4 is under it
        #expect(half.falseRejects == 0)  // 0.5 is accepted: at least the threshold
        #expect(abs(half.allFalseRejects - 2.0 / 7) < 1e-12)  // the wrong one and the one not heard

        let open = Calibration.figures(Self.samples, at: 0)
        #expect(
            open.falseAccepts == 0.75 && abs(open.wrongAccepts - 1.0 / 7) < 1e-12 && open.falseRejects == 0)
        #expect(abs(open.allFalseRejects - 1.0 / 7) < 1e-12)  // nothing heard is never accepted

        let high = Calibration.figures(Self.samples, at: 0.6)
        #expect(high.falseAccepts == 0.25 && abs(high.falseRejects - 0.2) < 1e-12)
        #expect(Calibration.figures([], at: 0.5).falseAccepts == 0)
    }

    @Test func theThresholdHasTheFewestWrongAcceptsUnderTheCap() {
        // No false rejects allowed: 0.5 is the highest that keeps all five.
        #expect(Calibration.recommend(Self.samples, maxFalseRejects: 0) == 0.5)
        // One in five allowed: 0.6 rejects the 0.55 other sentence too, for the same one command.
        #expect(Calibration.recommend(Self.samples, maxFalseRejects: 0.2) == 0.6)
        // Anything allowed: 0.6 already leaves only 0.95; higher ones are no better, so the lowest.
        #expect(Calibration.recommend(Self.samples, maxFalseRejects: 1) == 0.6)
        // Nothing to decide on: accept everything heard.
        #expect(Calibration.recommend([], maxFalseRejects: 0.02) == 0)
    }

    @Test func halvesAreStableAndKeepASentenceTogether() {
        // The same sides on every run and machine (a change here moves every calibration).
        #expect(Calibration.isTuning("play some jazz"))
        #expect(!Calibration.isTuning("navigate to map in travel tracking"))
        #expect(!Calibration.isTuning("find six tickets for the louvre"))
        // About half of a real test file on each side.
        let sentences = (try? PhraseTestSuite.cases(in: "Phrases/en/tests/travel-tracking.yaml"))?.map(
            \.sentence)
        let tuning = sentences?.count(where: Calibration.isTuning) ?? 0
        #expect((sentences?.count ?? 0) > 300 && (120...180).contains(tuning), "\(tuning)")
        // Every clip of a sentence, in any voice, on the same side.
        let clips = ["play some jazz", "never mind", "play some jazz", "never mind"].map {
            Self.other(0.5, $0)
        }
        let (a, b) = Calibration.split(clips)
        #expect(Set(a.map(\.sentence)).isDisjoint(with: Set(b.map(\.sentence))))
        #expect(a.count + b.count == 4 && a.count == 2)
    }

    @Test func aCalibrationIsChosenOnOneHalfAndMeasuredOnTheOther() {
        var samples: [Sample] = []
        for number in 0..<40 {
            samples.append(Self.command(0.5 + Double(number % 10) / 20, "command \(number)"))
            samples.append(Self.other(Double(number % 10) / 20, "other \(number)"))
        }
        let calibration = Calibration(app: "test", samples: samples, maxFalseRejects: 0.02, command: "x")
        #expect(calibration.tuning.clips + calibration.heldOut.clips == 80)
        #expect(calibration.tuning.clips > 20 && calibration.heldOut.clips > 20)
        // Commands score 0.5 and up, the others below: the threshold separates them.
        #expect(calibration.threshold == 0.5)
        #expect(calibration.tuning.falseAccepts == 0 && calibration.heldOut.falseAccepts == 0)
        #expect(calibration.heldOut.falseRejects == 0)
        #expect(calibration.curve?.count == 101)
        #expect(
            calibration.curve?.first?.tuning.threshold == 0 && calibration.curve?.last?.heldOut.threshold == 1
        )
        #expect(calibration.measure == Calibration.confidenceMeasure && calibration.version == 1)
        #expect(calibration.plot().contains("<svg") && calibration.plot().contains("trade-off"))
    }

    @Test func theFileRoundTripsAndBadFilesAreNamed() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("calibration-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var calibration = Calibration(app: "travel-tracking", samples: Self.samples, maxFalseRejects: 0.02)
        let file = folder.appendingPathComponent(Calibration.fileName(app: "travel-tracking"))
        #expect(file.lastPathComponent == "travel-tracking.calibration.json")
        try calibration.write(to: file, withCurve: false)
        calibration.curve = nil
        #expect(try Calibration.load(from: file) == calibration)

        func error(_ text: String?) -> String {
            let url = folder.appendingPathComponent("bad.json")
            try? FileManager.default.removeItem(at: url)
            if let text { try? text.write(to: url, atomically: true, encoding: .utf8) }
            do {
                _ = try Calibration.load(from: url)
                return "loaded"
            } catch {
                return error.message
            }
        }
        let valid = try String(contentsOf: file, encoding: .utf8)
        #expect(error(nil).hasPrefix("cannot read the calibration \(folder.path)/bad.json"))
        #expect(error("not json").hasPrefix("\(folder.path)/bad.json: not a calibration"))
        let noThreshold = valid.replacingOccurrences(of: "\"threshold\" :", with: "\"limit\" :")
        #expect(
            error(noThreshold).contains("bad.json: not a calibration: missing \"threshold\""),
            "\(error(noThreshold))")
        let future = valid.replacingOccurrences(of: "\"version\" : 1", with: "\"version\" : 2")
        #expect(error(future).contains("calibration format 2, this version reads 1"))
        let tooHigh = valid.replacingOccurrences(
            of: "\"threshold\" : \(calibration.threshold),\n  \"tuning\"",
            with: "\"threshold\" : 1.5,\n  \"tuning\"")
        #expect(error(tooHigh).contains("threshold 1.5 is not between 0 and 1"), "\(error(tooHigh))")
    }

    /// A threshold chosen with a garbage path is for that path: its measure names it, so `listen`
    /// without the same `--garbage` does not take it.
    @Test func aGarbagePathIsPartOfTheMeasure() {
        #expect(Calibration.measure(garbage: nil) == Calibration.confidenceMeasure)
        let standard = Calibration.measure(garbage: .standard)
        let withValues = Calibration.measure(garbage: .withValues)
        #expect(
            standard != Calibration.confidenceMeasure && standard.hasPrefix(Calibration.confidenceMeasure))
        #expect(withValues != standard && withValues.contains("value"))
    }

    /// A calibration knows which garbage path it was made with, so an app listens with it.
    @Test func aCalibrationNamesItsGarbagePath() throws {
        let shipped = try Calibration.load(
            from: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("Models/en/smart-home.calibration.json"))
        func calibration(_ measure: String) -> Calibration {
            var calibration = shipped
            calibration.measure = measure
            return calibration
        }
        for path in GarbagePath.allCases {
            #expect(calibration(Calibration.measure(garbage: path.model)).garbagePath() == path)
            #expect(calibration(Calibration.measure(garbage: path.model, decoys: true)).garbagePath() == nil)
            #expect(
                calibration(Calibration.measure(garbage: path.model, decoys: true)).garbagePath(decoys: true)
                    == path)
        }
        #expect(calibration("another measure").garbagePath() == nil)
        #expect(shipped.garbagePath() == .off)
    }
}
