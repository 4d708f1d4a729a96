import Foundation
import Testing
import VoiceTestSupport

@testable import VoiceAudio
@testable import VoiceEvaluation

/// RNNoise in the front end (`--front-end rnnoise`): the library `Scripts/bootstrap.sh` installs,
/// run on people's recordings.
@Suite("Learned noise suppressor")
struct NeuralNoiseSuppressorTests {
    /// A person's command (Rhasspy's speaker) with pink noise 5 dB under it, and the speech and
    /// the noise apart, on the 16-bit scale, at 16 kHz.
    static func commandInNoise() throws -> (speech: [Float], noise: [Float]) {
        let url = try PeoplesRecordings.file("rhasspy-test-en", "turn_on_the_garage_light.wav")
        let speech = try WAVFile.read(from: url).resampled(to: 16_000).samples.map { $0 * 32_768 }
        let noise = NoiseMixer().noise(.pink, count: speech.count, seed: 11)
        let level = NoiseMixer.activeLevel(speech) / Float(pow(10, 5.0 / 20))
        return (speech, noise.map { $0 * level })
    }

    static func energy(_ samples: some Collection<Float>) -> Double {
        samples.reduce(0.0) { $0 + Double($1) * Double($1) }
    }

    /// Cleaned, the mix is nearer the speech than it was: the error against the clean speech
    /// (aligned for the suppressor's lag, 20 ms) falls by more than 5 dB.
    @Test func itBringsANoisyCommandNearerItsSpeech() throws {
        let (speech, noise) = try Self.commandInNoise()
        let mix = zip(speech, noise).map { $0 + $1 }
        let cleaned = try NeuralNoiseSuppressor().process(mix)
        // The lag: where the cleaned audio lines up best with the speech.
        let correlations = (0..<800).map { lag in
            zip(speech, cleaned.dropFirst(lag)).reduce(0.0) { $0 + Double($1.0 * $1.1) }
        }
        let lag = correlations.indices.max { correlations[$0] < correlations[$1] }!
        let count = cleaned.count - lag
        let before = Self.energy(zip(speech, mix).prefix(count).map { $1 - $0 })
        let after = Self.energy(zip(speech, cleaned.dropFirst(lag)).prefix(count).map { $1 - $0 })
        let gain = 10 * log10(before / after)
        #expect(gain > 5, "error against the speech down by \(gain) dB (lag \(lag) samples)")
        #expect((300...340).contains(lag), "lag \(lag) samples")
    }

    /// The installed library shows its weights, so the network runs on its 8-bit ones, and they
    /// clean the noisy command as the library's own 32-bit ones do: the error against the speech
    /// falls by the same within half a dB (measured: 7.87 and 7.88 dB), and the two outputs differ
    /// by far less than the noise (measured: 45 dB under it).
    @Test func itsEightBitWeightsCleanAsTheFullOnesDo() throws {
        #expect(try NeuralNoiseSuppressor.Library.shared.get().quantizedModel != nil)
        let (speech, noise) = try Self.commandInNoise()
        let mix = zip(speech, noise).map { $0 + $1 }
        let quantized = try NeuralNoiseSuppressor(weights: .quantized).process(mix)
        let full = try NeuralNoiseSuppressor(weights: .full).process(mix)
        #expect(quantized != full)
        let lag = 320
        func gain(_ cleaned: [Float]) -> Double {
            let count = cleaned.count - lag
            let before = Self.energy(zip(speech, mix).prefix(count).map { $1 - $0 })
            return 10
                * log10(
                    before / Self.energy(zip(speech, cleaned.dropFirst(lag)).prefix(count).map { $1 - $0 }))
        }
        let (eight, thirtyTwo) = (gain(quantized), gain(full))
        #expect(abs(eight - thirtyTwo) < 0.5, "8-bit: \(eight) dB, 32-bit: \(thirtyTwo) dB")
        let apart = 10 * log10(Self.energy(noise) / Self.energy(zip(quantized, full).map { $0 - $1 }))
        #expect(apart > 25, "the two outputs differ by \(apart) dB under the noise")
    }

    /// Where the processor has AVX2 (x86-64 machines from 2013 on), the network's 8-bit layers can
    /// run on the project's own products (an optimised build's default), and the whole network's
    /// output is then the library's own, sample for sample.
    @Test func ownProductsGiveTheLibrarysOwnOutput() throws {
        let (speech, noise) = try Self.commandInNoise()
        let mix = zip(speech, noise).map { $0 + $1 }
        _ = try NeuralNoiseSuppressor()
        let wasOwn = NeuralNoiseSuppressor.runsOwnProducts
        defer { NeuralNoiseSuppressor.useOwnProducts(wasOwn) }
        let own = NeuralNoiseSuppressor.useOwnProducts(true)
        #if arch(x86_64)
            let flags = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
            #expect(own == flags.contains(" avx2"))
        #endif
        let ours = try NeuralNoiseSuppressor().process(mix)
        NeuralNoiseSuppressor.useOwnProducts(false)
        #expect(!NeuralNoiseSuppressor.runsOwnProducts)
        let library = try NeuralNoiseSuppressor().process(mix)
        #expect(ours == library)
        #expect(ours != mix)
    }

    /// How far, in dB, a front end of `neural` alone at `floor` takes three seconds of steady
    /// noise down (over its last second).
    static func noiseChange(_ neural: AudioFrontEnd.NeuralSuppressor, floor: Int?) throws -> Double {
        var generator = SplitMix64(seed: 7)
        let noise = (0..<48_000).map { _ in Int16(NoiseMixer.gaussian(&generator) * 2_000) }
        let before = energy(noise.suffix(16_000).map(Float.init))
        let settings = AudioFrontEnd.Settings(
            neural: neural, neuralFloor: floor, highPass: nil, noiseSuppression: nil)
        let out = try AudioFrontEnd(settings).process(noise)
        return 10 * log10(energy(out.suffix(16_000).map(Float.init)) / before)
    }

    /// Steady noise alone is pushed far down, and with a floor of −10 dB, by about 10 dB (the
    /// input mixed back in at −10 dB, with what the network leaves; the resamplers take a
    /// little of the top of the band).
    @Test func noiseAloneIsPushedDownToTheFloor() throws {
        let alone = try Self.noiseChange(.rnnoise, floor: nil)
        #expect(alone < -15, "\(alone) dB")
        let floored = try Self.noiseChange(.rnnoise, floor: -10)
        #expect((-11)...(-6) ~= floored && floored > alone + 3, "\(floored) dB")
    }

    /// The first two seconds of the noisy command, cut into pieces of many sizes and cleaned one
    /// after another by `process`, and the whole of them: the same for a suppressor that streams.
    static func inPiecesAndWhole(_ process: ([Int16]) -> [Int16], reset: () -> Void) throws -> (
        pieces: [Int16], whole: [Int16], count: Int
    ) {
        let (speech, noise) = try commandInNoise()
        let mix = zip(speech, noise).prefix(32_000).map { Int16(clipping: $0 + $1) }
        let whole = process(mix)
        reset()
        var pieces: [Int16] = []
        var start = 0
        for size in [1, 159, 160, 480, 7, 2_048, 333] where start < mix.count {
            pieces += process(Array(mix[start..<min(mix.count, start + size)]))
            start += size
        }
        pieces += process(Array(mix[min(start, mix.count)...]))
        return (pieces, whole, mix.count)
    }

    /// A stream cut into pieces of any size is cleaned exactly as when it comes whole, and a
    /// reset starts it afresh, with a floor (the input mixed back in) or without.
    @Test(arguments: [nil, -10])
    func piecesGiveWhatTheWholeGives(floor: Int?) throws {
        let suppressor = try NeuralNoiseSuppressor(floor: floor)
        let (pieces, whole, count) = try Self.inPiecesAndWhole(suppressor.process, reset: suppressor.reset)
        #expect(pieces == whole)
        #expect(whole.count > count - 480, "\(whole.count) of \(count)")
    }

    /// People's commands in a recorded city street at 6 dB: RNNoise (with its floor of −10 dB)
    /// hears more of them than the standard front end. Measured 2026-11-27, SmartHome's 33:
    /// 13 with the standard, 22 with RNNoise (Benchmarks/Evaluation/README.md, "A learned noise
    /// suppressor").
    @Test func itHearsPeopleInAStreetBetterThanTheStandardFrontEnd() throws {
        let street = ["--noise-file", try RoomNoise.file("city-street").path]
        let standard = try AudioFrontEndTests.commandsHeardRight(frontEnd: "standard", noise: street, snr: 6)
        let learned = try AudioFrontEndTests.commandsHeardRight(
            frontEnd: "rnnoise=-10", noise: street, snr: 6)
        #expect(
            learned >= standard + 5, "RNNoise: \(learned) of 33 right, the standard front end: \(standard)")
    }

    /// With no learned suppressor where it is named, the program says so and how to install it
    /// (the variable that names another copy), and stops: RNNoise and DeepFilterNet alike.
    @Test(arguments: [
        ("rnnoise", "RNNoise", "VOICE_INTENTS_RNNOISE", "/nonexistent/librnnoise.so"),
        ("deepfilternet", "DeepFilterNet", "VOICE_INTENTS_DEEPFILTERNET", "/nonexistent"),
    ])
    func aMissingLibrarySaysHowToInstallIt(frontEnd: String, name: String, variable: String, path: String)
        throws
    {
        let clip = try PeoplesRecordings.file("rhasspy-test-en", "turn_on_the_garage_light.wav")
        let run = try Executables.run(
            "voice-intents", ["transcribe", clip.path, "--front-end", frontEnd],
            environment: ProcessInfo.processInfo.environment.merging([variable: path]) { $1 })
        #expect(run.status != 0)
        #expect(run.errors.contains(name), "\(run.errors)")
        #expect(run.errors.contains(variable), "\(run.errors)")
    }

    /// The models' default front end names RNNoise; where it is missing, the program warns once,
    /// says why, and hears through the standard front end instead of stopping.
    @Test func theDefaultGivesWayToTheStandardFrontEndWhenItIsMissing() throws {
        let clip = try PeoplesRecordings.file("rhasspy-test-en", "turn_on_the_garage_light.wav")
        let run = try Executables.run(
            "voice-intents", ["transcribe", "--app", "home-lights", clip.path],
            environment: ProcessInfo.processInfo.environment.merging([
                "VOICE_INTENTS_RNNOISE": "/nonexistent/librnnoise.so"
            ]) { $1 })
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("turn on the garage light"), "\(run.output)")
        let warnings = run.errors.split(separator: "\n").filter { $0.contains("warning") }
        #expect(warnings.count == 1, "\(run.errors)")
        #expect(
            warnings.first?.contains("/nonexistent/librnnoise.so") == true
                && warnings.first?.contains("hearing through the standard front end") == true,
            "\(run.errors)")
    }
}
