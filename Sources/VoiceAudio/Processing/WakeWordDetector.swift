import CWakeWord
import Foundation

/// A trained wake word heard in a 16 kHz stream: a microWakeWord model ("okay nabu", "hey
/// jarvis", "alexa", "hey mycroft"), as Home Assistant's satellites run them.
///
/// The model runs in TensorFlow Lite's C library, on the features of TensorFlow Lite Micro's
/// audio front end set up as the models were trained. Both libraries and the models come from the
/// `pymicro-wakeword` and `pymicro-features` wheels on PyPI, which `Scripts/bootstrap.sh` installs
/// in ``modelFolder``; nothing is downloaded when it runs. Every probability the model gives is
/// the one the wheels' own Python package gives for the same audio.
///
/// ```swift
/// let detector = try WakeWordDetector("okay_nabu")
/// if let heard = detector.process(chunk) {
///     let command = chunk[heard...]  // what follows the wake word
/// }
/// ```
public final class WakeWordDetector {
    /// A wake-word model and how it decides, from its JSON description.
    public struct Model: Sendable, Hashable {
        /// Its name (`okay_nabu`), the file name of its description.
        public let name: String
        /// What is said ("Okay Nabu").
        public let phrase: String
        /// The TensorFlow Lite model.
        package let file: URL
        /// The mean probability over ``slidingWindow`` runs above which the word is heard.
        package var probabilityCutoff: Double
        /// How many of the model's runs (30 ms apart) are averaged.
        package let slidingWindow: Int

        /// The model described by the JSON file at `url` (as microWakeWord writes them).
        package init(contentsOf url: URL) throws(SpeechError) {
            struct Description: Decodable {
                struct Micro: Decodable {
                    let probability_cutoff: Double
                    let sliding_window_size: Int
                }
                let wake_word: String
                let model: String
                let micro: Micro
            }
            let description: Description
            do {
                description = try JSONDecoder().decode(Description.self, from: Data(contentsOf: url))
            } catch {
                throw SpeechError(
                    .missingModel, "\(url.path) is no microWakeWord model description: \(error)")
            }
            name = url.deletingPathExtension().lastPathComponent
            phrase = description.wake_word
            file = url.deletingLastPathComponent().appendingPathComponent(description.model)
            probabilityCutoff = description.micro.probability_cutoff
            slidingWindow = max(1, description.micro.sliding_window_size)
        }
    }

    /// Where `Scripts/bootstrap.sh` installs the libraries and models: `VOICE_INTENTS_WAKE_WORD`
    /// when set, else `/usr/local/lib/voice-intents/wake-word`.
    package static var modelFolder: URL {
        URL(
            fileURLWithPath: ProcessInfo.processInfo.environment["VOICE_INTENTS_WAKE_WORD"]
                ?? "/usr/local/lib/voice-intents/wake-word")
    }

    /// The models installed in ``modelFolder``, by name.
    public static func installedModels() -> [Model] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: modelFolder.path)) ?? []
        return files.filter { $0.hasSuffix(".json") }.sorted().compactMap {
            try? Model(contentsOf: modelFolder.appendingPathComponent($0))
        }
    }

    package let model: Model
    private let detector: OpaquePointer
    /// The model's last probabilities, for the sliding mean.
    private var recent: [Float] = []
    /// Samples since the stream's last 10 ms boundary.
    private var partial = 0
    /// The highest sliding mean since the last ``reset()``, for tuning and tests.
    package private(set) var highestMean: Double = 0

    /// The installed model named `name` (`okay_nabu`, `hey_jarvis`, `alexa`, `hey_mycroft`).
    ///
    /// - Throws: ``SpeechError`` of kind `missingModel` when the model or the libraries are not
    ///   installed, saying which and how to install them.
    /// With `cutoff`, the model wakes above it instead of its own ``Model/probabilityCutoff``
    /// (a cutoff chosen for a person: `WakeWordCalibration`).
    package convenience init(_ name: String, cutoff: Double? = nil) throws(SpeechError) {
        let description = Self.modelFolder.appendingPathComponent("\(name).json")
        guard FileManager.default.fileExists(atPath: description.path) else {
            throw Self.missing(name, installed: Self.installedModels())
        }
        var model = try Model(contentsOf: description)
        if let cutoff { model.probabilityCutoff = cutoff }
        try self.init(model: model)
    }

    /// The model named `name` among `installed` (``installedModels()``, read once by a program
    /// that asks often).
    ///
    /// - Throws: ``SpeechError`` of kind `missingModel` naming the installed ones, or saying how
    ///   to install them when there are none.
    public static func model(named name: String, among installed: [Model]) throws(SpeechError) -> Model {
        guard let model = installed.first(where: { $0.name == name }) else {
            throw missing(name, installed: installed)
        }
        return model
    }

    /// No models are installed: where they were looked for and how to install them.
    package static var noneInstalled: SpeechError {
        SpeechError(
            .missingModel,
            "no wake-word models are installed in \(modelFolder.path); install them with Scripts/bootstrap.sh (from the pymicro-wakeword wheel on PyPI), or set VOICE_INTENTS_WAKE_WORD to a folder that has them"
        )
    }

    /// No model `name` among `installed`.
    private static func missing(_ name: String, installed: [Model]) -> SpeechError {
        guard !installed.isEmpty else { return noneInstalled }
        return SpeechError(
            .missingModel,
            "no wake-word model \"\(name)\" in \(modelFolder.path); installed: \(installed.map(\.name).joined(separator: ", "))"
        )
    }

    /// A detector running `model`.
    package init(model: Model) throws(SpeechError) {
        self.model = model
        let folder = Self.modelFolder
        let python = Self.pythonLibrary()
        var error = [CChar](repeating: 0, count: 512)
        let opened = folder.appendingPathComponent("libtensorflowlite_c.so").path.withCString { tflite in
            folder.appendingPathComponent("libmicro_features.so").path.withCString { features in
                (python ?? "libpython3.so").withCString { python in
                    var libraries = vi_wake_word_libraries(
                        tflite_library: tflite, features_library: features, python_library: python)
                    return vi_wake_word_open(&libraries, model.file.path, &error, error.count)
                }
            }
        }
        guard let opened else {
            let reason = String(
                decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw SpeechError(
                .missingModel,
                "the wake word \(model.name) cannot run: \(reason); install its libraries with Scripts/bootstrap.sh (the pymicro-wakeword and pymicro-features wheels, and Debian's libpython3)"
            )
        }
        detector = opened
    }

    deinit {
        vi_wake_word_close(detector)
    }

    /// Hears `chunk` (16 kHz mono) after what came before. Returns where in the chunk the wake
    /// word was heard, to the 10 ms (what follows it is the command, if one was said in the same
    /// breath), or `nil`. Once heard, the detector starts afresh, so one wake word is heard once.
    package func process(_ chunk: [Int16]) -> Int? {
        var probability: Float = 0
        let step = AudioFormat.recognizerSampleRate / 100
        var start = 0
        while start < chunk.count {
            // Up to the stream's next 10 ms boundary, where the model may run.
            let end = min(chunk.count, start + step - partial)
            partial = (partial + end - start) % step
            let count = chunk.withUnsafeBufferPointer {
                vi_wake_word_process(detector, $0.baseAddress! + start, end - start, &probability, 1)
            }
            start = end
            guard count > 0 else { continue }
            recent.append(probability)
            if recent.count > model.slidingWindow { recent.removeFirst() }
            guard recent.count == model.slidingWindow else { continue }
            let mean = Double(recent.reduce(0, +)) / Double(recent.count)
            highestMean = max(highestMean, mean)
            if mean > model.probabilityCutoff {
                reset()
                return end
            }
        }
        return nil
    }

    /// The model's probability at each of its runs (one every 30 ms) over `audio` (16 kHz mono),
    /// heard as a new stream, with nothing decided, and the sample each run came after: what a
    /// cutoff is chosen on (`speech-benchmark --false-wakes`). The detector is reset before and
    /// after.
    package func probabilities(of audio: [Int16]) -> [(end: Int, probability: Float)] {
        reset()
        defer { reset() }
        var probabilities: [(end: Int, probability: Float)] = []
        var probability: Float = 0
        let step = AudioFormat.recognizerSampleRate / 100
        var start = 0
        while start < audio.count {
            let end = min(audio.count, start + step)
            let count = audio.withUnsafeBufferPointer {
                vi_wake_word_process(detector, $0.baseAddress! + start, end - start, &probability, 1)
            }
            if count > 0 { probabilities.append((end, probability)) }
            start = end
        }
        return probabilities
    }

    /// The sliding mean of the model's probabilities over ``Model/slidingWindow`` runs at each run
    /// over `audio` (16 kHz mono), heard as a new stream, with nothing decided, and the sample each
    /// run came after: the detector wakes at the first mean over the cutoff. The detector is reset
    /// before and after.
    package func slidingMeans(of audio: [Int16]) -> [(end: Int, mean: Double)] {
        let probabilities = probabilities(of: audio)
        let window = model.slidingWindow
        guard probabilities.count >= window else { return [] }
        // Summed afresh at each run, as ``process(_:)`` does, so that both agree to the last bit.
        return probabilities.indices.dropFirst(window - 1).map { index in
            let sum = probabilities[(index - window + 1)...index].reduce(Float(0)) { $0 + $1.probability }
            return (probabilities[index].end, Double(sum) / Double(window))
        }
    }

    /// Forgets the stream so far, as for a new one.
    package func reset() {
        _ = vi_wake_word_reset(detector)
        recent = []
        partial = 0
    }

    /// The shared Python library whose two objects TensorFlow Lite Micro's front end (built as a
    /// Python module) refers to: the newest `libpython3.N.so.1.0` in the system's library folders.
    static func pythonLibrary() -> String? {
        let folders = [
            "/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib",
            "/usr/local/lib",
        ]
        for folder in folders {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            let found = names.compactMap { name -> (Int, String)? in
                guard name.hasPrefix("libpython3."), name.hasSuffix(".so.1.0"),
                    let minor = Int(name.dropFirst("libpython3.".count).prefix { $0.isNumber })
                else { return nil }
                return (minor, "\(folder)/\(name)")
            }
            if let newest = found.max(by: { $0.0 < $1.0 }) { return newest.1 }
        }
        return nil
    }
}
