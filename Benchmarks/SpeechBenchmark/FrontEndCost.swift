import BenchmarkSupport
import Foundation
import VoiceAudio
import VoiceEvaluation
import VoiceIntents

/// What each audio front end costs per second of audio, on people's commands (Rhasspy's
/// recordings, strung together) with pink noise 10 dB under them: the standard front end is the
/// baseline, run in the same process. RNNoise's resampling to 48 kHz and back is measured on its
/// own too.
enum FrontEndCost {
    static func run() throws {
        let folder = PeoplesRecordings.folder("rhasspy-test-en")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            $0.hasSuffix(".wav")
        }
        .sorted()
        var speech: [Float] = []
        for file in files where speech.count < 60 * 16_000 {
            speech += try WAVFile.read(from: folder.appendingPathComponent(file)).resampled(to: 16_000)
                .samples
        }
        let mixed = NoiseMixer().mix(speech, .pink, snr: 10, seed: 1)
        let audio = AudioBuffer(samples: mixed, sampleRate: 16_000).int16Samples
        let seconds = Double(audio.count) / 16_000
        print(
            "front end cost: \(String(format: "%.1f", seconds)) s of people's commands in pink noise at 10 dB"
        )

        let clock = ContinuousClock()
        /// Seconds of work per second of audio, best of three runs in chunks of 100 ms.
        func cost(_ work: () throws -> ([Int16]) -> [Int16]) rethrows -> Double {
            var best = Double.infinity
            for _ in 0..<3 {
                let process = try work()
                let start = clock.now
                for chunk in stride(from: 0, to: audio.count, by: 1_600) {
                    _ = process(Array(audio[chunk..<min(audio.count, chunk + 1_600)]))
                }
                let elapsed = clock.now - start
                best = min(best, elapsed.inSeconds)
            }
            return best / seconds
        }
        let standard = try cost { try AudioFrontEnd(.standard).process }
        var rows: [(String, Double)] = [("standard (high-pass, SpeexDSP −6 dB)", standard)]
        rows.append(
            (
                "WebRTC −18 dB",
                try cost {
                    try AudioFrontEnd(.init(noiseSuppression: -18, engine: .webRTC)).process
                }
            ))
        rows.append(
            (
                "resampling 16 → 48 → 16 kHz alone",
                cost {
                    var up = StreamingResampler(from: 16_000, to: 48_000)
                    var down = StreamingResampler(from: 48_000, to: 16_000)
                    return { chunk in
                        down.resample(up.resample(chunk.map(Float.init))).map { Int16(clipping: $0) }
                    }
                }
            ))
        if NeuralNoiseSuppressor.isAvailable {
            for (name, settings) in [
                (
                    "RNNoise, high-pass\(NeuralNoiseSuppressor.runsOwnProducts ? " (8-bit products: ours, AVX2)" : "")",
                    AudioFrontEnd.Settings(neural: .rnnoise, noiseSuppression: nil)
                ),
                (
                    "RNNoise floor −20 dB, high-pass",
                    AudioFrontEnd.Settings(neural: .rnnoise, neuralFloor: -20, noiseSuppression: nil)
                ),
                ("RNNoise, then the standard", AudioFrontEnd.Settings(neural: .rnnoise)),
            ] {
                rows.append((name, try cost { try AudioFrontEnd(settings).process }))
            }
            if NeuralNoiseSuppressor.runsOwnProducts {
                // The same front end on the library's own 8-bit products: what ours save.
                NeuralNoiseSuppressor.useOwnProducts(false)
                rows.append(
                    (
                        "RNNoise, high-pass, on the library's own 8-bit products",
                        try cost { try AudioFrontEnd(.init(neural: .rnnoise, noiseSuppression: nil)).process }
                    ))
                NeuralNoiseSuppressor.useOwnProducts(true)
            }
            rows.append(
                (
                    "RNNoise on its 32-bit weights (the library's own default), high-pass",
                    try cost {
                        let suppressor = try NeuralNoiseSuppressor(floor: -10, weights: .full)
                        let rest = try AudioFrontEnd(.init(noiseSuppression: nil))
                        return { rest.process(suppressor.process($0)) }
                    }
                ))
        } else {
            print("RNNoise is not installed here (Scripts/bootstrap.sh installs it): its rows are left out")
        }
        var resetCost: Double?
        if DeepFilterNetSuppressor.isAvailable {
            rows.append(
                (
                    "DeepFilterNet 3 floor −10 dB, high-pass",
                    try cost {
                        try AudioFrontEnd(
                            .init(neural: .deepFilterNet, neuralFloor: -10, noiseSuppression: nil)
                        )
                        .process
                    }
                ))
            // A recognizer resets its front end before every utterance: what a reset costs a live
            // stream, whose next second of audio comes a second later (the next network is made
            // meanwhile, on another thread).
            let suppressor = try DeepFilterNetSuppressor(floor: -10)
            var seconds = 0.0
            let starts = Array(stride(from: 0, to: min(audio.count, 10 * 16_000), by: 16_000))
            for start in starts {
                let arrived = clock.now
                _ = suppressor.process(Array(audio[start..<min(audio.count, start + 16_000)]))
                Thread.sleep(forTimeInterval: max(0, 1 - (clock.now - arrived).inSeconds))
                let started = clock.now
                suppressor.reset()
                seconds += (clock.now - started).inSeconds
            }
            resetCost = seconds / Double(max(starts.count, 1))
        } else {
            print(
                "DeepFilterNet is not installed here (Scripts/bootstrap.sh installs it): its row is left out")
        }
        for (name, value) in rows {
            print(
                "  \(name): real-time factor \(String(format: "%.4f", value)), \(String(format: "%.2f", value / standard))× the standard"
            )
        }
        if let resetCost {
            print(
                "  DeepFilterNet 3, reset after each second of a live stream (its next network made ahead): \(String(format: "%.1f", resetCost * 1_000)) ms a reset"
            )
        }
    }
}
