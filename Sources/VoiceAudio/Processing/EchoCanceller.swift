import CSpeexDSP
import CWebRTCAudioProcessing
import Synchronization

/// Takes what the app plays on its loudspeaker out of what its microphone hears (acoustic echo
/// cancellation), so that a person can be heard while a reply plays. 16 kHz, 16-bit mono.
///
/// It learns, from what was played (the *reference*) and what was heard, how the room and the
/// devices carry the loudspeaker to the microphone, and subtracts that; what is left of the echo
/// is then suppressed. Run it before the rest of the front end (``AudioFrontEnd``): a noise
/// suppressor first would change the echo in ways the canceller cannot follow.
///
/// Two ways to feed it:
/// - **Paired**, when what was played and what was heard are already lined up sample for sample
///   (a file, a simulation): ``process(captured:played:)``.
/// - **Live**, from two threads: the player hands over each piece with the moment it will sound
///   (``played(_:at:)``), the recorder each chunk with the moment its last sample was recorded
///   (``cancel(_:recordedAt:)``). The canceller lines the two up by those clocks and finds the
///   rest of the delay from the signals themselves.
///
/// ```swift
/// let canceller = try EchoCanceller()
/// // the player's thread
/// canceller.played(reply, at: .now + .seconds(speaker.latency ?? 0.1))
/// // the recorder's thread
/// let cleaned = canceller.cancel(chunk, recordedAt: .now)
/// ```
// Unchecked: the engine is used by the recording thread alone; the timeline is behind a Mutex.
public final class EchoCanceller: @unchecked Sendable {
    /// Which library cancels the echo.
    package enum Engine: String, Sendable, Hashable, CaseIterable {
        /// WebRTC's echo canceller (`libwebrtc-audio-processing`, as PulseAudio's
        /// `module-echo-cancel` runs it), finding the delay itself and with its long filter.
        case webRTC = "webrtc"
        /// SpeexDSP's echo canceller with its preprocessor's residual echo suppression; it
        /// expects the two sides lined up to within its filter's length.
        case speexDSP = "speexdsp"
        /// SpeexDSP's, then WebRTC's on what it lets through (the default): WebRTC's suppression
        /// of what is left of the echo, which takes part of a voice over a loud reply, has less
        /// left to suppress. In simulated rooms people's commands over a reply were acted on more
        /// often than through either alone (`speech-benchmark --echo`, `--rooms`).
        case speexDSPThenWebRTC = "speexdsp+webrtc"
    }

    /// What the echo canceller does.
    package struct Settings: Sendable, Hashable {
        package var engine: Engine
        /// How hard what is left of the echo is suppressed: 0 (low, the default: it kept the most
        /// of people's speech over a reply) to 2 (high). WebRTC only.
        package var suppression: Int
        /// Seconds of the room's response the adaptive filter covers. SpeexDSP's only (WebRTC's
        /// long filter is fixed).
        package var filterLength: Double
        /// How far ahead of the moment it sounds a piece of the reference is handed to the
        /// engine, in seconds: room for clocks that put the sound a little late.
        package var lead: Double

        /// - Parameter filterLength: `nil` for the length measured best for `engine`: 200 ms for
        ///   SpeexDSP's alone, 400 ms before WebRTC's (`speech-benchmark --echo`).
        package init(
            engine: Engine = .speexDSPThenWebRTC, suppression: Int = 0, filterLength: Double? = nil,
            lead: Double = 0.05
        ) {
            self.engine = engine
            self.suppression = suppression
            self.filterLength = filterLength ?? (engine == .speexDSPThenWebRTC ? 0.4 : 0.2)
            self.lead = lead
        }
    }

    /// What the canceller has measured (`nil` where not known yet).
    package struct Metrics: Sendable, Hashable {
        /// How far the echo was pushed down over the last second, in dB: by WebRTC's engine, so
        /// after SpeexDSP's (`speexDSPThenWebRTC`) only what WebRTC's took of what it let through.
        package var echoReturnLossEnhancement: Double?
        /// The delay WebRTC's engine found between the reference and its echo, in seconds.
        package var delay: Double?
        /// Seconds the live reference is held back, beyond what the clocks say, to meet its echo.
        package var heldBack: Double = 0
    }

    package let settings: Settings
    static let rate = AudioFormat.recognizerSampleRate
    static let frame = rate / 100

    private var webRTC: OpaquePointer?
    private var speex: OpaquePointer?
    private var speexPreprocess: OpaquePointer?
    /// Captured samples short of a whole frame, with the reference that goes with them (paired).
    private var pendingCaptured: [Int16] = []
    private var pendingPlayed: [Int16] = []
    /// Where, on the capture side's clock, the next captured sample was recorded (live).
    private var captureTime: ContinuousClock.Instant?
    private let timeline = Mutex(Timeline())
    /// 10 ms frames of the reference with sound in them that the engine has been given.
    private let framesHeard = Atomic(0)
    /// Holds the live reference back to its echo where the clocks leave it early.
    private var alignment: ReferenceAlignment
    /// The samples it holds the reference back by, for ``metrics``.
    private let heldBack = Atomic(0)

    /// - Throws: ``SpeechError`` when the library refuses the settings.
    package init(_ settings: Settings = Settings()) throws(SpeechError) {
        self.settings = settings
        // The echo left 110 ms after the reference the engine is given (the lead and 60 ms):
        // WebRTC's filter took 35.7 dB of the unit tests' simulated room out there against 19.3
        // with 60 ms, and 33-44 dB of a sound server's recorded echo against 33-36 with 65 ms
        // and 14-23 with 15 ms (Benchmarks/Recognition/echo-cancellation.md).
        alignment = ReferenceAlignment(expected: Int(((settings.lead + 0.06) * 100).rounded()))
        guard (0...2).contains(settings.suppression), settings.filterLength > 0, settings.lead >= 0 else {
            throw SpeechError(
                .invalidInput,
                "echo cancellation needs a suppression of 0 to 2, a positive filter length and a lead of 0 or more"
            )
        }
        if settings.engine != .webRTC {
            let length = Int32((settings.filterLength * Double(Self.rate)).rounded())
            speex = speex_echo_state_init(Int32(Self.frame), length)
            speexPreprocess = speex_preprocess_state_init(Int32(Self.frame), Int32(Self.rate))
            guard let speex, let speexPreprocess else {
                throw SpeechError(.engineFailure, "SpeexDSP could not make an echo canceller")
            }
            _ = vi_speex_echo_set_rate(speex, Int32(Self.rate))
            _ = vi_speex_set_int(speexPreprocess, SPEEX_PREPROCESS_SET_DENOISE, 0)
            _ = vi_speex_set_int(speexPreprocess, SPEEX_PREPROCESS_SET_AGC, 0)
            _ = vi_speex_set_echo_state(speexPreprocess, speex)
        }
        if settings.engine != .speexDSP {
            webRTC = vi_webrtc_echo_create(
                vi_webrtc_echo_settings(
                    suppression_level: Int32(settings.suppression), delay_agnostic: 1, extended_filter: 1))
            guard webRTC != nil else {
                throw SpeechError(
                    .engineFailure, "WebRTC's audio processing refused its echo canceller's settings")
            }
        }
    }

    deinit {
        if let webRTC { vi_webrtc_echo_destroy(webRTC) }
        if let speexPreprocess { speex_preprocess_state_destroy(speexPreprocess) }
        if let speex { speex_echo_state_destroy(speex) }
    }

    /// Seconds of playing the canceller learns the room from before it takes most of the echo
    /// out: until then, what it lets through is not to be trusted (the loop does not listen
    /// through it while it speaks).
    package static let learningTime = 2.0

    /// Whether the canceller has heard ``learningTime`` seconds of playing.
    package var hasLearntTheRoom: Bool {
        Double(framesHeard.load(ordering: .relaxed)) / 100 >= Self.learningTime
    }

    /// The reference's delay the engine is told: the lead, and a frame.
    private var delayMilliseconds: Int32 { Int32((settings.lead * 1000).rounded()) + 10 }

    /// One frame through the engine, in place.
    private func run(captured: inout [Int16], at start: Int, played: UnsafePointer<Int16>) {
        if (0..<Self.frame).contains(where: { abs(Int(played[$0])) > 100 }) {
            framesHeard.add(1, ordering: .relaxed)
        }
        captured.withUnsafeMutableBufferPointer { buffer in
            let frame = buffer.baseAddress! + start
            // SpeexDSP's first where both run: WebRTC's finds the delay of what is left itself.
            if let speex, let speexPreprocess {
                var output = [Int16](repeating: 0, count: Self.frame)
                speex_echo_cancellation(speex, frame, played, &output)
                _ = speex_preprocess_run(speexPreprocess, &output)
                frame.update(from: output, count: Self.frame)
            }
            if let webRTC {
                _ = vi_webrtc_echo_render(webRTC, played)
                _ = vi_webrtc_echo_capture(webRTC, frame, delayMilliseconds)
            }
        }
    }

    /// `captured` (whole frames) through the engine, frame by frame, with `played` from its
    /// start in step.
    private func run(_ captured: ArraySlice<Int16>, played: [Int16]) -> [Int16] {
        var output = Array(captured)
        played.withUnsafeBufferPointer { reference in
            for start in stride(from: 0, to: output.count, by: Self.frame) {
                run(captured: &output, at: start, played: reference.baseAddress! + start)
            }
        }
        return output
    }

    // MARK: Paired

    /// `captured` with the echo of `played` taken out, where sample *n* of `played` is what
    /// sounded as sample *n* of `captured` was recorded (give them in step: same lengths).
    /// Whole 10 ms frames only; the rest waits for the next call.
    package func process(captured: [Int16], played: [Int16]) -> [Int16] {
        precondition(captured.count == played.count, "the captured and played pieces differ in length")
        pendingCaptured += captured
        pendingPlayed += played
        let whole = pendingCaptured.count / Self.frame * Self.frame
        let output = run(pendingCaptured[..<whole], played: pendingPlayed)
        pendingCaptured.removeFirst(whole)
        pendingPlayed.removeFirst(whole)
        return output
    }

    // MARK: Live

    /// What is to be played, at 16 kHz, on the clock: sample 0 of `samples` sounds at `start`.
    struct Timeline {
        var samples: [Int16] = []
        var start: ContinuousClock.Instant?

        /// The reference from `time` on, `count` samples (silence where nothing plays), dropping
        /// what is older.
        mutating func take(_ count: Int, from time: ContinuousClock.Instant) -> [Int16] {
            guard let start else { return [Int16](repeating: 0, count: count) }
            let offset = Int((EchoCanceller.seconds(time - start) * Double(EchoCanceller.rate)).rounded())
            var result = [Int16](repeating: 0, count: count)
            for index in 0..<count {
                let position = offset + index
                if position >= 0, position < samples.count { result[index] = samples[position] }
            }
            let used = min(max(0, offset + count), samples.count)
            if used > 0 {
                samples.removeFirst(used)
                self.start = start + .seconds(Double(used) / Double(EchoCanceller.rate))
            }
            // Once all of it is taken, `start` stays where the next sample would sound: a reply's
            // pieces are handed over just before they sound (a device holds 100 ms or so), so
            // the capture side often takes all there is before the next piece comes.
            return result
        }

        /// Forgets what was to sound from `time` on.
        mutating func cut(from time: ContinuousClock.Instant) {
            guard let start else { return }
            let kept = Int((EchoCanceller.seconds(time - start) * Double(EchoCanceller.rate)).rounded())
            if kept < samples.count { samples.removeLast(samples.count - max(0, kept)) }
        }

        /// Adds `piece`, which sounds from `time`: right after what came before when it follows
        /// it within 200 ms (pieces of one reply, whose moments a busy machine blurs; taken or
        /// not), else from `time`.
        mutating func add(_ piece: [Int16], at time: ContinuousClock.Instant) {
            guard let start else {
                samples = piece
                self.start = time
                return
            }
            let end = start + .seconds(Double(samples.count) / Double(EchoCanceller.rate))
            let gap = EchoCanceller.seconds(time - end)
            if gap > 0.2 {
                // Another reply (or one the device ran dry in): from its own moment.
                if samples.isEmpty {
                    self.start = time
                } else {
                    samples += [Int16](repeating: 0, count: Int(gap * Double(EchoCanceller.rate)))
                }
            }
            // Pieces of one reply follow one another sample for sample, as the device plays
            // them: their moments, each measured on its own, would move the reference by the
            // device's latency's jitter at every piece.
            samples += piece
        }
    }

    /// Hands over what is being played, at 16 kHz: `samples` start to sound from the loudspeaker
    /// at `time` (the moment they were handed to the device, plus the device's latency). Pieces
    /// of one reply may be handed over one after another as they are played.
    package func played(_ samples: [Int16], at time: ContinuousClock.Instant) {
        timeline.withLock { $0.add(samples, at: time) }
    }

    /// Forgets what was handed over (``played(_:at:)``) to sound from `time` on: the player
    /// dropped it from its device (``AudioSink/flush()``) and plays something else from then.
    package func unplayed(from time: ContinuousClock.Instant) {
        timeline.withLock { $0.cut(from: time) }
    }

    /// How much earlier than the samples counted a chunk's moment may be before the count is set
    /// back to it: the moments' own jitter.
    static let earlyStampTolerance = 0.003

    /// `chunk`, just recorded, with the echo of what was played taken out: its last sample was
    /// recorded at `time` (the moment the read returned, less the source's latency). Whole
    /// 10 ms frames only; the rest waits for the next chunk. Until anything has been played,
    /// `chunk` itself.
    package func cancel(_ chunk: [Int16], recordedAt time: ContinuousClock.Instant) -> [Int16] {
        cancelMeasured(chunk, recordedAt: time).samples
    }

    /// ``cancel(_:recordedAt:)``, with the energy (sum of squares) of what was played as the
    /// returned samples were recorded, lined up with them as the engine was given it: where the
    /// reply was turned down or stopped, it falls, and its echo a little after.
    package func cancelMeasured(_ chunk: [Int16], recordedAt time: ContinuousClock.Instant)
        -> (samples: [Int16], playedEnergy: Double)
    {
        // Until anything is played there is no echo to take out: the chunk passes as recorded,
        // and the engine is not run (a loop with no loudspeaker to be found never plays).
        if captureTime == nil, timeline.withLock({ $0.start == nil }) { return (chunk, 0) }
        let rate = Double(Self.rate)
        // The capture side's clock counts samples: a busy machine's thread wakes tens of
        // milliseconds late, which the samples counted do not. It is set again from `time` when
        // `time` is earlier than the count puts the chunk (a read returns late, never early: a
        // clock set from a late one ran ahead, and asked for the reference before the player had
        // handed it over, which left holes in it), or more than 200 ms later (a restart, a lost
        // chunk).
        let chunkStart = time - .seconds(Double(chunk.count) / rate)
        let pending = Duration.seconds(Double(pendingCaptured.count) / rate)
        let late = captureTime.map { Self.seconds(chunkStart - ($0 + pending)) }
        if late.map({ $0 < -Self.earlyStampTolerance || $0 > 0.2 }) ?? true {
            captureTime = chunkStart - pending
        }
        pendingCaptured += chunk
        let whole = pendingCaptured.count / Self.frame * Self.frame
        guard whole > 0, let first = captureTime else { return ([], 0) }
        let taken = timeline.withLock { $0.take(whole, from: first + .seconds(settings.lead)) }
        let reference = alignment.align(taken, recorded: pendingCaptured[..<whole])
        heldBack.store(alignment.heldBack, ordering: .relaxed)
        let output = run(pendingCaptured[..<whole], played: reference)
        pendingCaptured.removeFirst(whole)
        captureTime = first + .seconds(Double(whole) / rate)
        return (output, ContinuousCapture.energy(reference))
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }

    /// What the engine has measured so far.
    package var metrics: Metrics {
        let heldBack = Double(heldBack.load(ordering: .relaxed)) / Double(Self.rate)
        guard let webRTC else { return Metrics(heldBack: heldBack) }
        let measured = vi_webrtc_echo_get_metrics(webRTC)
        return Metrics(
            echoReturnLossEnhancement: measured.echo_return_loss_enhancement > -100
                ? Double(measured.echo_return_loss_enhancement) : nil,
            delay: measured.delay_median_ms >= 0 ? Double(measured.delay_median_ms) / 1000 : nil,
            heldBack: heldBack)
    }
}
