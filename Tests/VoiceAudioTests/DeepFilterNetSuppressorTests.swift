import Foundation
import Testing
import VoiceTestSupport

@testable import VoiceAudio
@testable import VoiceEvaluation

/// DeepFilterNet 3 in the front end (`--front-end deepfilternet`): the library and network
/// `Scripts/bootstrap.sh` installs, run on a person's recording.
@Suite("DeepFilterNet noise suppressor")
struct DeepFilterNetSuppressorTests {
    /// Cleaned, a person's command with pink noise 5 dB under it is nearer the speech than it was:
    /// the error against the clean speech (aligned for the suppressor's lag, 30 ms) falls by more
    /// than 5 dB (measured: 11.2 dB; RNNoise 7.9).
    @Test func itBringsANoisyCommandNearerItsSpeech() throws {
        let (speech, noise) = try NeuralNoiseSuppressorTests.commandInNoise()
        let mix = zip(speech, noise).map { Int16(clipping: $0 + $1) }
        let cleaned = try DeepFilterNetSuppressor().process(mix).map(Float.init)
        // The lag (measured: 480 samples, 30 ms): where the cleaned audio lines up best with the speech.
        let correlations = (320..<640).map { lag in
            (lag, zip(speech, cleaned.dropFirst(lag)).reduce(0.0) { $0 + Double($1.0 * $1.1) })
        }
        let lag = correlations.max { $0.1 < $1.1 }!.0
        let count = cleaned.count - lag
        let before = NeuralNoiseSuppressorTests.energy(
            zip(speech, mix).prefix(count).map { Float($1) - $0 })
        let after = NeuralNoiseSuppressorTests.energy(
            zip(speech, cleaned.dropFirst(lag)).prefix(count).map { $1 - $0 })
        let gain = 10 * log10(before / after)
        #expect(gain > 5, "error against the speech down by \(gain) dB (lag \(lag) samples)")
        #expect((460...500).contains(lag), "lag \(lag) samples")
    }

    /// Steady noise alone is pushed far down, and with a floor of −10 dB (the library's own
    /// attenuation limit), by about 10 dB.
    @Test func noiseAloneIsPushedDownToTheFloor() throws {
        let alone = try NeuralNoiseSuppressorTests.noiseChange(.deepFilterNet, floor: nil)
        #expect(alone < -15, "\(alone) dB")
        let floored = try NeuralNoiseSuppressorTests.noiseChange(.deepFilterNet, floor: -10)
        #expect((-12)...(-7) ~= floored && floored > alone + 3, "\(floored) dB")
    }

    /// A stream cut into pieces of any size is cleaned exactly as when it comes whole, and a reset
    /// starts it afresh.
    @Test func piecesGiveWhatTheWholeGives() throws {
        let suppressor = try DeepFilterNetSuppressor(floor: -10)
        let (pieces, whole, count) = try NeuralNoiseSuppressorTests.inPiecesAndWhole(
            suppressor.process, reset: suppressor.reset)
        #expect(pieces == whole)
        #expect(whole.count > count - 480, "\(whole.count) of \(count)")
    }

    /// Resets one after another, each taking the fresh network made ahead for it (or waiting for
    /// it), start the stream afresh each time.
    @Test func everyResetStartsAfresh() throws {
        let (speech, noise) = try NeuralNoiseSuppressorTests.commandInNoise()
        let mix = zip(speech, noise).prefix(16_000).map { Int16(clipping: $0 + $1) }
        let suppressor = try DeepFilterNetSuppressor(floor: -10)
        let first = suppressor.process(mix)
        for _ in 0..<3 {
            suppressor.reset()
            suppressor.reset()
            #expect(suppressor.process(mix) == first)
        }
    }

    /// A network cut short (half its archive, as an interrupted copy leaves it) is named as
    /// damaged, with what to do, and the program stops with an error: the library itself would
    /// abort the process on it.
    @Test func aDamagedNetworkIsNamedAndNothingCrashes() throws {
        let installed = try #require(
            DeepFilterNetSuppressor.folders.first {
                FileManager.default.fileExists(atPath: $0 + "/DeepFilterNet3_onnx.tar.gz")
            }, "DeepFilterNet is not installed: Scripts/bootstrap.sh installs it")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "voice-intents-damaged-network-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createSymbolicLink(
            atPath: folder.path + "/libdeepfilter.so", withDestinationPath: installed + "/libdeepfilter.so")
        let archive = try Data(contentsOf: URL(fileURLWithPath: installed + "/DeepFilterNet3_onnx.tar.gz"))
        try archive.prefix(archive.count / 2).write(
            to: folder.appendingPathComponent("DeepFilterNet3_onnx.tar.gz"))

        let clip = try PeoplesRecordings.file("rhasspy-test-en", "turn_on_the_garage_light.wav")
        var environment = ProcessInfo.processInfo.environment
        environment["VOICE_INTENTS_DEEPFILTERNET"] = folder.path
        let run = try Executables.run(
            "voice-intents",
            ["transcribe", "--app", "home-lights", clip.path, "--front-end", "deepfilternet"],
            environment: environment)
        #expect(run.status == 1, "\(run.errors)")
        #expect(
            run.errors.contains("DeepFilterNet3_onnx.tar.gz is damaged (unexpected end of file)")
                && run.errors.contains("put a whole copy of the network there"), "\(run.errors)")
    }

    /// `--front-end deepfilternet` puts it in front of the recognizer: a person's command is heard
    /// through it word for word.
    @Test func aPersonsCommandIsHeardThroughIt() throws {
        let clip = try PeoplesRecordings.file("rhasspy-test-en", "turn_on_the_garage_light.wav")
        let run = try Executables.run(
            "voice-intents",
            ["transcribe", "--app", "home-lights", clip.path, "--front-end", "deepfilternet=-20"])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("turn on the garage light"), "\(run.output)")
    }
}
