import Foundation
import PhraseMatching
import Testing
import TravelTracking
import VoiceIntents
import VoiceTestSupport

@testable import VoiceAudio
@testable import VoiceEvaluation
@testable import VoiceRecognition
@testable import VoiceSynthesis
@testable import VoiceUnderstanding

/// The parts of the spoken evaluation: noise at a ratio, the speech cache, word alignment, and
/// the figures a report gives.
@Suite("Spoken evaluation")
struct EvaluationTests {
    /// Half a second of a 300 Hz tone, half a second of nothing, half a second of tone.
    static let speechLike: [Float] = (0..<24_000).map { index in
        (8_000..<16_000).contains(index) ? 0 : 0.3 * sin(Float(index) * 2 * .pi * 300 / 16_000)
    }

    @Test(arguments: [NoiseKind.white, .pink])
    func noiseIsMixedAtTheRatioAsked(_ kind: NoiseKind) {
        let mixed = NoiseMixer().mix(Self.speechLike, kind, snr: 10, seed: 7)
        let noise = zip(mixed, Self.speechLike).map { $0 - $1 }
        let ratio = 20 * log10(Double(NoiseMixer.activeLevel(Self.speechLike) / NoiseMixer.rms(noise)))
        #expect(abs(ratio - 10) < 0.01, "measured \(ratio) dB")
        // The pause does not lower the speech's level: it is the tone's own RMS, 0.3/√2.
        #expect(abs(NoiseMixer.activeLevel(Self.speechLike) - 0.3 / Float(2).squareRoot()) < 0.001)
    }

    /// Power at `frequency` (Goertzel), averaged over 512-sample blocks.
    static func power(_ samples: [Float], at frequency: Double) -> Double {
        let coefficient = 2 * cos(2 * Double.pi * frequency / 16_000)
        var total = 0.0
        var blocks = 0
        for start in stride(from: 0, to: samples.count - 512, by: 512) {
            var previous = 0.0
            var beforeThat = 0.0
            for sample in samples[start..<(start + 512)] {
                let current = Double(sample) + coefficient * previous - beforeThat
                beforeThat = previous
                previous = current
            }
            total += previous * previous + beforeThat * beforeThat - coefficient * previous * beforeThat
            blocks += 1
        }
        return total / Double(blocks)
    }

    /// White noise is flat; pink falls 3 dB an octave, 12 dB over the four octaves from 250 Hz to
    /// 4 kHz.
    @Test func pinkNoiseFallsThreeDecibelsAnOctave() {
        func fall(_ kind: NoiseKind) -> Double {
            let noise = NoiseMixer().noise(kind, count: 16_000 * 20, seed: 3)
            return 10 * log10(Self.power(noise, at: 250) / Self.power(noise, at: 4_000))
        }
        let white = fall(.white)
        let pink = fall(.pink)
        #expect(abs(white) < 1.5, "white falls \(white) dB")
        #expect((9...15).contains(pink), "pink falls \(pink) dB")
    }

    @Test func babbleComesFromTheTrackAndIsTheSameForTheSameSeed() {
        let track = (0..<50_000).map { Float($0 % 100) / 100 }
        let mixer = NoiseMixer(babble: track)
        let first = mixer.noise(.babble, count: 1_000, seed: 11)
        #expect(first == mixer.noise(.babble, count: 1_000, seed: 11))
        #expect(first != mixer.noise(.babble, count: 1_000, seed: 12))
        #expect(abs(NoiseMixer.rms(first) - 1) < 0.001)
    }

    /// Recorded noise is mixed as the public speech-to-intent benchmarks mix theirs: the loudest
    /// 2048-sample frame of the speech over the loudest of the noise's stretch, from a seeded
    /// offset, scaled down whole where the mix would clip.
    @Test func recordedNoiseIsMixedByTheLoudestFrames() {
        let speech = (0..<8_192).map { Float(sin(Double($0) / 7)) * ($0 < 4_096 ? 0.5 : 0.1) }
        let noise = (0..<20_000).map { Float(($0 * 7_919) % 1_000) / 1_000 - 0.5 }
        let mixed = NoiseMixer.mixRecorded(speech, speech: speech, noise: noise, snr: 10, seed: 3)
        let added = zip(mixed, speech).map { $0 - $1 }
        let ratio =
            10
            * log10(
                Double(NoiseMixer.loudestFrameEnergy(speech)) / Double(NoiseMixer.loudestFrameEnergy(added)))
        #expect(abs(ratio - 10) < 0.01)
        #expect(mixed == NoiseMixer.mixRecorded(speech, speech: speech, noise: noise, snr: 10, seed: 3))
        #expect(mixed != NoiseMixer.mixRecorded(speech, speech: speech, noise: noise, snr: 10, seed: 4))
        // At -20 dB the noise would clip: the mix is scaled to a peak of 1.
        let loud = NoiseMixer.mixRecorded(speech, speech: speech, noise: noise, snr: -20, seed: 3)
        #expect(abs(loud.map(abs).max()! - 1) < 1e-6)
        // A clip longer than the noise wraps around it.
        #expect(
            NoiseMixer.mixRecorded(speech, speech: speech, noise: Array(noise.prefix(100)), snr: 0, seed: 1)
                .count == speech.count)
    }

    @Test func conditionsAreReadFromTheCommandLine() throws {
        let conditions = try NoiseCondition.conditions(
            kinds: [.pink, .babble], snrs: ["clean", "20", "5dB"])
        #expect(
            conditions == [
                .clean, .noise(.babble, snr: 20), .noise(.pink, snr: 20), .noise(.babble, snr: 5),
                .noise(.pink, snr: 5),
            ])
        #expect(conditions.map(\.description).prefix(2) == ["clean", "babble 20 dB"])
        #expect(throws: SpeechError.self) { try NoiseCondition.conditions(kinds: [.white], snrs: ["loud"]) }
        let recorded = try NoiseCondition.conditions(
            kinds: [], snrs: ["clean", "6"], noiseFiles: ["kitchen.wav"])
        #expect(recorded.map(\.description) == ["clean", "kitchen.wav 6 dB"])
    }

    @Test func theCacheKeepsSpeechByWhatMadeIt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("speech-cache-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try SpeechCache(folder: folder)
        let spoken = try cache.speech("open the map", voice: "en-us", rate: 175)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(files.count == 1 && files[0].hasSuffix(".wav"))
        // Read back, not spoken again: the same samples, and still one file.
        #expect(try cache.speech("open the map", voice: "en-us", rate: 175) == spoken)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).count == 1)
        _ = try cache.speech("open the map", voice: "en-us", rate: 150)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).count == 2)
        #expect(SpeechCache.hash("a") != SpeechCache.hash("b"))
        #expect(SpeechCache.hash("open the map") == SpeechCache.hash("open the map"))
    }

    /// eSpeak NG gives different samples for the same sentence within one process, depending on
    /// what it said before; two caches filled in different orders must still hold the same audio.
    @Test func twoCachesFilledInAnyOrderHoldTheSameSpeech() throws {
        func fresh() throws -> (SpeechCache, URL) {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "speech-cache-\(UUID())")
            return (try SpeechCache(folder: folder), folder)
        }
        let (first, firstFolder) = try fresh()
        let (second, secondFolder) = try fresh()
        defer {
            try? FileManager.default.removeItem(at: firstFolder)
            try? FileManager.default.removeItem(at: secondFolder)
        }
        let sentence = "turn off the lights in the kitchen"
        let before = try first.speech(sentence, voice: "en-us+f2", rate: 175)
        // Other speech in between, in this process and through the cache.
        _ = try SpeechSynthesizer(voice: "en-us", rate: 175).speak("how busy is uluru in travel tracking")
        _ = try second.speech("find two tickets for petra", voice: "en+m7", rate: 150)
        let after = try second.speech(sentence, voice: "en-us+f2", rate: 175)
        #expect(before.count == after.count)
        let same = before == after
        #expect(same, "\(zip(before, after).count { $0 != $1 }) of \(before.count) samples differ")
        #expect(throws: SpeechError.self) { try first.speech(sentence, voice: "xx-nonexistent", rate: 175) }
    }

    @Test func wordsAreAlignedToFindTheMisheard() {
        let alignment = WordAlignment(
            said: ["find", "two", "tickets", "for", "uluru"], heard: ["find", "tickets", "to", "uluru"],
            same: ==)
        #expect(alignment.errors == 2)
        #expect(alignment.misheard.map(\.said) == ["two", "for"])
        #expect(alignment.misheard.map(\.heard) == [nil, "to"])
        #expect(WordAlignment(said: ["a", "b"], heard: ["a", "b", "c"], same: ==).errors == 1)
    }

    /// `--takes`: a recording is heard once clean and once per take in each noise, each take
    /// under another stretch of the noise, the first under the stretch it had before takes were.
    @Test func eachTakeHearsARecordingUnderAnotherStretchOfNoise() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "takes-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let tone = (0..<16_000).map { Float(sin(Double($0) * 0.2) * 0.3) }
        let url = folder.appendingPathComponent("tone.wav")
        try WAVFile.write(AudioBuffer(samples: tone, sampleRate: 16_000), to: url)
        var generator = SplitMix64(seed: 9)
        let noise = (0..<48_000).map { _ in Float(generator.next() % 2001) / 1000 - 1 }
        let room = NoiseCondition.recorded("room.wav", snr: 10)
        var evaluation = SpokenEvaluation(conditions: [.clean, room], workers: 1)
        evaluation.noiseFiles["room.wav"] = noise
        evaluation.takes = 3
        let testCase = PhraseTestSuite.Case(
            sentence: "a tone", expectation: .noMatch,
            source: PhraseSource(file: "t.yaml", line: 1, column: 5),
            audio: url)
        let items = evaluation.items(for: [testCase])
        #expect(items.map(\.condition) == [.clean, room, room, room])
        #expect(items.map(\.take) == [0, 0, 1, 2])
        #expect(items[1].seed == UInt64(SpeechCache.hash("a tone|recorded|\(room)"), radix: 16))
        let mixer = NoiseMixer(babble: nil)
        let clips = try items.map { item throws(SpeechError) in try evaluation.clip(item, mixer: mixer) }
        #expect(clips.allSatisfy { $0.count == tone.count })
        #expect(Set(clips[1...].map { $0 }).count == 3, "each take has noise of its own")
        #expect(clips[1] != clips[0])
    }

    static func heard(
        _ sentence: String, expecting expectation: PhraseTestSuite.Expectation, heard transcript: String,
        voice: String = "en-us", condition: NoiseCondition = .clean
    ) -> SpokenEvaluation.Heard {
        let item = SpokenEvaluation.Item(
            testCase: PhraseTestSuite.Case(
                sentence: sentence, expectation: expectation,
                source: PhraseSource(file: "t.yaml", line: 1, column: 5)),
            speaker: .voice(voice, rate: 175), condition: condition)
        let said = SpeechGrammar.spokenWords(sentence)
        let alignment = WordAlignment(said: said, heard: SpeechGrammar.spokenWords(transcript), same: ==)
        return SpokenEvaluation.Heard(
            item: item, isSayable: true, transcript: transcript, utterances: transcript.isEmpty ? 0 : 1,
            misheard: alignment.misheard, wordErrors: alignment.errors, wordsSaid: said.count, duration: 2,
            decodeTime: 0.05, latency: 0.004)
    }

    /// Four clips of TravelTracking with known transcripts: one right, one wrong value, one heard
    /// as nothing, and a no-match sentence heard as a command.
    @Test func theReportCountsWhatWentRight() async throws {
        let matcher = try await TestModels.matcher(TravelTrackingApp.self, "travel-tracking")
        let map = PhraseTestSuite.Expectation.intent("NavigateIntent", values: ["navigationOption": "Map"])
        let report = await EvaluationReport(
            app: "Travel Tracking",
            heard: [
                Self.heard(
                    "navigate to map in travel tracking", expecting: map,
                    heard: "navigate to map in travel tracking"),
                Self.heard(
                    "navigate to map in travel tracking", expecting: map,
                    heard: "navigate to landmarks in travel tracking"),
                Self.heard(
                    "open the map in travel tracking", expecting: map, heard: "",
                    condition: .noise(.pink, snr: 10)),
                Self.heard("play some jazz", expecting: .noMatch, heard: "open the map in travel tracking"),
            ], matcher: matcher)
        let overall = report.overall
        #expect(overall.commands == 3 && overall.noMatchClips == 1)
        #expect(abs(overall.commandAcceptance - 1.0 / 3) < 1e-9)
        #expect(abs(overall.intentAccuracy - 2.0 / 3) < 1e-9)
        #expect(overall.valueAccuracy["navigationOption"].map { abs($0 - 1.0 / 3) < 1e-9 } == true)
        #expect(overall.falseAccepts == 1)
        #expect(abs(overall.falseRejects - 1.0 / 3) < 1e-9)
        // Over the commands: 0 of 6 words wrong, 1 of 6, 6 of 6 lost.
        #expect(abs(overall.wordErrorRate - 7.0 / 18) < 1e-9)
        #expect(report.byCondition["pink 10 dB"]?.commandAcceptance == 0)
        #expect(report.conditions == ["clean", "pink 10 dB"])
        #expect(report.confusions["no match"]?["NavigateIntent"] == 1)
        #expect(report.confusions["NavigateIntent"]?["no match"] == 1)
        // Misheard words come from the clean clips in which something was heard.
        #expect(report.misheardWords().map(\.word) == ["map"])

        let markdown = report.markdown(command: "travel-tracking evaluate", plots: ["accuracy.svg"])
        #expect(markdown.contains("| command acceptance (intent and every value right) | 33.3% of 3 |"))
        #expect(
            markdown.contains(
                "| false rejects (commands not acted on: they reached nothing or stayed under the bar) | 33.3% of 3 |"
            ))
        #expect(markdown.contains("**False accepts.**"))
        #expect(markdown.contains("| no match | NavigateIntent | 1 |"))
        #expect(markdown.contains("![accuracy.svg](accuracy.svg)"))
        #expect(report.accuracyPlot().hasPrefix("<svg") && report.accuracyPlot().contains("pink noise"))
        #expect(report.latencyPlot().contains("3 clips"))

        // The JSON has the figures; the clips go to JSON Lines.
        let json = try JSONEncoder().encode(report)
        let decoded = try JSONDecoder().decode(EvaluationReport.self, from: json)
        #expect(decoded.overall.falseAccepts == 1 && decoded.clips.isEmpty)
        #expect(try report.clipLines().split(separator: 0x0A).count == 4)
    }

    /// Clips of other speech alone (`evaluate --tests recorded-other-speech.yaml`) reject no command.
    @Test func withNoCommandsNoneIsRejected() async throws {
        let matcher = try await TestModels.matcher(TravelTrackingApp.self, "travel-tracking")
        let report = await EvaluationReport(
            app: "Travel Tracking",
            heard: [
                Self.heard("play some jazz", expecting: .noMatch, heard: "open the map in travel tracking")
            ],
            matcher: matcher)
        #expect(report.overall.commands == 0 && report.overall.falseRejects == 0)
        #expect(report.overall.falseAccepts == 1)
    }
}
