import CWebRTCVAD
import Foundation

/// Tells speech from silence and noise in a 16 kHz stream, and where an utterance starts and
/// ends: WebRTC's voice activity detector (a Gaussian mixture model over six frequency bands that
/// adapts to the noise), judged frame by frame (10 ms), optionally only where a frame stands out
/// of the noise floor, then smoothed into utterances.
///
/// `SpeechRecognizer/listen(timeout:read:)` ends utterances with it when the configuration
/// has `SpeechRecognizer/Configuration/voiceActivity`; the decoder then hears every frame of
/// the utterance (PocketSphinx's own detector drops the frames it calls silence, which loses
/// speech in steady noise).
///
/// ```swift
/// let detector = VoiceActivityDetector(.standard, trailingSilence: 0.5)
/// for chunk in chunks {
///     detector.process(chunk)
///     if detector.inSpeech { … }
/// }
/// ```
package final class VoiceActivityDetector {
    /// How the detector decides.
    package struct Settings: Sendable, Hashable {
        /// How reluctantly WebRTC's model calls a frame speech: 0 (most readily) to 3.
        package var aggressiveness: Int
        /// How many dB a frame must stand above the noise floor (the quietest stretch of the last
        /// second and a half) to count as speech, besides WebRTC's model calling it so: a fan's
        /// or a fridge's steady noise, which the model may take for speech, neither starts an
        /// utterance nor keeps one going. `nil`: the model alone.
        package var floorMargin: Double?
        /// Within an utterance, how many dB below its loudest frame so far a frame may be and
        /// still count as the speaker's: quieter frames are someone farther away (a television,
        /// people talking across the room), which would otherwise keep the utterance going for
        /// as long as they talk. `nil`: no such limit.
        package var speakerMargin: Double?
        /// How many dB over the noise floor the loudest frame of the start window must stand for
        /// an utterance to start: a noisy room's tone wavers a few dB over its floor and, with
        /// ``floorMargin`` alone, started utterances the grammar heard as commands. `nil`: no
        /// such need.
        package var startPeak: Double?
        /// ``startPeak`` while the detector is still learning the floor, in a stream's first second
        /// and a half: the front end's noise suppression is still adapting then, so the room
        /// sounds louder than it will, and a command spoken 6 dB over it seldom stands 9 dB over
        /// the floor. `nil`: ``startPeak`` throughout.
        package var learningStartPeak: Double?
        /// Seconds of mostly speech that start an utterance: of the frames in this span, at least
        /// ``startShare`` are speech.
        package var startWindow: Double
        /// The share of ``startWindow``'s frames that must be speech.
        package var startShare: Double
        /// The share of the trailing silence's frames that may still be called speech (a click, a
        /// breath) without keeping the utterance going.
        package var endShare: Double
        /// How many dB over everything before it (before the front end) a start window inside an
        /// utterance at least ``foregroundAfter`` long must stand to be marked as a nearer voice
        /// (``foregroundStart``): people talking across the room start an utterance that a
        /// command said nearer then joins. `nil`: never marked.
        package var foregroundRise: Double?
        /// Seconds an utterance must have lasted before a ``foregroundRise`` is marked.
        package var foregroundAfter: Double

        package init(
            aggressiveness: Int = 2, floorMargin: Double? = 3, speakerMargin: Double? = 20,
            startPeak: Double? = 9, learningStartPeak: Double? = 5, startWindow: Double = 0.15,
            startShare: Double = 0.7, endShare: Double = 0.1, foregroundRise: Double? = nil,
            foregroundAfter: Double = 1
        ) {
            self.aggressiveness = aggressiveness
            self.floorMargin = floorMargin
            self.speakerMargin = speakerMargin
            self.startPeak = startPeak
            self.learningStartPeak = learningStartPeak
            self.startWindow = startWindow
            self.startShare = startShare
            self.endShare = endShare
            self.foregroundRise = foregroundRise
            self.foregroundAfter = foregroundAfter
        }

        /// The settings measured best on people's recordings (`Benchmarks/Recognition/README.md`,
        /// "An end of speech of its own" and "A command after other people's talk"):
        /// `--voice-activity webrtc`.
        package static let standard = Settings(foregroundRise: 6, foregroundAfter: 1.5)
    }

    package let settings: Settings
    /// Whether the stream is in an utterance: speech started and has not yet been followed by
    /// the trailing silence.
    package private(set) var inSpeech = false
    /// Where the current (or last) utterance started, in samples processed: the first frame of
    /// the start window that started it.
    package private(set) var speechStart = 0
    /// Where, in samples processed, a voice far louder than everything before it began inside
    /// the current utterance (``Settings/foregroundRise``), the latest if several; `nil` when none
    /// did.
    package private(set) var foregroundStart: Int?
    /// Samples processed so far.
    package var position: Int { processed }

    /// How many samples before the moment it heard speech start belong to the utterance: its
    /// start window and a quarter second more, for a soft first sound it did not call speech.
    package var leadIn: Int { (startFrames + 25) * frame }

    private let frame = AudioFormat.recognizerSampleRate / 100
    private let handle: OpaquePointer
    private var pending: [Int16] = []
    private var processed = 0
    /// The last decisions, newest last, as many as the longer of the two windows.
    private var recent: [Bool] = []
    private var recentSpeech = 0
    private let startFrames: Int
    private let endFrames: Int
    private var floor = NoiseFloor()
    /// The smoothed level of the current frame and the loudest of the current utterance (dB).
    private var level: Double?
    private var utterancePeak = -Double.infinity
    /// While in an utterance, for ``Settings/foregroundRise``: the levels of its last half
    /// second's frames before the front end, newest last, and the loudest of its frames before
    /// them (dB).
    private var windowLevels: [Double] = []
    /// How many frames (half a second) ``windowLevels`` holds apart from what came before.
    private static let heldApart = 50
    private var peakBeforeWindow = -Double.infinity
    /// The smoothed levels of the frames before the front end (``process(_:before:)``) not yet
    /// matched with a frame judged, and what is left of that audio short of a frame.
    private var levelsBefore: [Double] = []
    private var lastLevelBefore: Double?
    private var pendingBefore: [Int16] = []
    /// How far each frame of the start window stands over the floor (dB), newest last.
    private var recentRise: [Double] = []

    /// A detector whose utterances end after `trailingSilence` seconds of silence.
    package init(_ settings: Settings = .standard, trailingSilence: Double) {
        self.settings = settings
        startFrames = max(1, Int((settings.startWindow * 100).rounded()))
        endFrames = max(1, Int((trailingSilence * 100).rounded()))
        // Only fails when out of memory; WebRTC's own code does not check either.
        handle = WebRtcVad_Create()
        start()
    }

    deinit {
        WebRtcVad_Free(handle)
    }

    private func start() {
        _ = WebRtcVad_Init(handle)
        _ = WebRtcVad_set_mode(handle, Int32(min(3, max(0, settings.aggressiveness))))
    }

    /// Forgets the noise learnt so far and any utterance in progress, as for a new stream.
    package func reset() {
        start()
        pending = []
        processed = 0
        recent = []
        recentSpeech = 0
        inSpeech = false
        speechStart = 0
        floor = NoiseFloor()
        level = nil
        utterancePeak = -.infinity
        recentRise = []
        windowLevels = []
        peakBeforeWindow = -.infinity
        foregroundStart = nil
        levelsBefore = []
        lastLevelBefore = nil
        pendingBefore = []
    }

    /// Judges the whole frames of `chunk` (the rest waits for the next chunk) and updates
    /// ``inSpeech``. With ``Settings/foregroundRise``, `before` is the same audio before a front
    /// end that may have taken the nearer voice for noise: its levels tell voices apart.
    package func process(_ chunk: [Int16], before: [Int16]? = nil) {
        if settings.foregroundRise != nil {
            pendingBefore += before ?? chunk
            var start = 0
            while pendingBefore.count - start >= frame {
                let energy = ContinuousCapture.energy(pendingBefore[start..<start + frame])
                let instant = 10 * log10(energy / Double(frame) + 1)
                let smoothed = lastLevelBefore.map { 0.7 * $0 + 0.3 * instant } ?? instant
                lastLevelBefore = smoothed
                levelsBefore.append(smoothed)
                start += frame
            }
            pendingBefore.removeFirst(start)
        }
        pending += chunk
        var start = 0
        while pending.count - start >= frame {
            let speech = pending.withUnsafeBufferPointer { buffer in
                isSpeech(UnsafeBufferPointer(rebasing: buffer[start..<start + frame]))
            }
            start += frame
            processed += frame
            push(speech)
        }
        pending.removeFirst(start)
    }

    /// Whether one 10 ms frame is speech.
    private func isSpeech(_ samples: UnsafeBufferPointer<Int16>) -> Bool {
        let model =
            WebRtcVad_Process(handle, Int32(AudioFormat.recognizerSampleRate), samples.baseAddress, frame)
            == 1
        // The same frame's level before the front end, which may lag a frame or two: matched in order.
        let before = levelsBefore.isEmpty ? nil : levelsBefore.removeFirst()
        if levelsBefore.count > 20 { levelsBefore.removeFirst(levelsBefore.count - 20) }
        guard settings.floorMargin != nil || settings.speakerMargin != nil || settings.startPeak != nil else {
            return model
        }
        let energy = ContinuousCapture.energy(samples)
        // Digital silence (a file's padding, a muted source) says nothing of the room's noise:
        // learnt as the floor, it would make the room's own tone after it look like speech.
        guard energy / Double(samples.count) >= 4 else { return false }
        let instant = 10 * log10(energy / Double(samples.count) + 1)
        let smoothed = level.map { 0.7 * $0 + 0.3 * instant } ?? instant
        level = smoothed
        let floorLevel = floor.add(smoothed)
        recentRise.append(smoothed - floorLevel)
        if recentRise.count > startFrames { recentRise.removeFirst() }
        var speech = model
        if let margin = settings.floorMargin, smoothed < floorLevel + margin { speech = false }
        if inSpeech {
            utterancePeak = max(utterancePeak, smoothed)
            // The last half second is held apart: a voice rises over more than a start window.
            windowLevels.append(before ?? smoothed)
            if windowLevels.count > Self.heldApart {
                peakBeforeWindow = max(peakBeforeWindow, windowLevels.removeFirst())
            }
            if let margin = settings.speakerMargin, smoothed < utterancePeak - margin { speech = false }
        }
        return speech
    }

    /// How far over the floor the start window's loudest frame must stand.
    private var neededPeak: Double? {
        guard let peak = settings.startPeak else { return nil }
        return floor.isLearnt ? peak : min(peak, settings.learningStartPeak ?? peak)
    }

    private func push(_ speech: Bool) {
        recent.append(speech)
        if speech { recentSpeech += 1 }
        let window = inSpeech ? endFrames : startFrames
        while recent.count > window {
            if recent.removeFirst() { recentSpeech -= 1 }
        }
        if !inSpeech {
            if recent.count == startFrames
                && Double(recentSpeech) >= settings.startShare * Double(startFrames)
                && (neededPeak.map { peak in recentRise.contains { $0 >= peak } } ?? true)
            {
                inSpeech = true
                speechStart = processed - startFrames * frame
                foregroundStart = nil
            }
        } else if let rise = settings.foregroundRise,
            processed - speechStart
                >= Int(settings.foregroundAfter * Double(AudioFormat.recognizerSampleRate)),
            windowLevels.count == Self.heldApart, let loudest = windowLevels.suffix(startFrames).max(),
            loudest >= peakBeforeWindow + rise,
            recent.suffix(startFrames).filter({ $0 }).count >= Int(settings.startShare * Double(startFrames)),
            let onset = windowLevels.firstIndex(where: { $0 >= peakBeforeWindow + 3 })
        {
            // A voice far louder than everything the utterance held so far begins here.
            foregroundStart = processed - (windowLevels.count - onset) * frame
            // Another mark needs a voice as far over this one.
            peakBeforeWindow = loudest
            windowLevels = []
        } else if recent.count == endFrames && Double(recentSpeech) <= settings.endShare * Double(endFrames) {
            inSpeech = false
            utterancePeak = -.infinity
            windowLevels = []
            peakBeforeWindow = -.infinity
            // Start afresh: the next utterance needs a whole start window of its own.
            recent = []
            recentSpeech = 0
        }
    }
}

/// The level of the quietest stretch of the last second and a half: the lowest of the mean
/// levels (dB) of its quarter-second blocks. A mean, not the quietest frame: a room's tone
/// dips well below its usual level now and then.
///
/// Until a stream has given a second and a half, the floor is also no higher than the quietest
/// 50 ms so far: a clip that starts with the noise at full level and speech within the first
/// quarter second would otherwise have its floor raised by the speech (and a front end that is
/// still learning the noise makes the first blocks louder than the room will be).
struct NoiseFloor {
    private var blockSum = 0.0
    private var blockFrames = 0
    private var blocks: [Double] = []
    private var shortSum = 0.0
    private var shortFrames = 0
    private var quietestShort = Double.infinity
    private static let framesPerBlock = 25
    private static let framesPerShortBlock = 5
    private static let blockCount = 6

    /// Whether the floor comes from a whole second and a half of blocks.
    var isLearnt: Bool { blocks.count >= Self.blockCount }

    /// Adds a frame's level and returns the floor.
    mutating func add(_ level: Double) -> Double {
        blockSum += level
        blockFrames += 1
        let mean = blockSum / Double(blockFrames)
        if blockFrames == Self.framesPerBlock {
            blocks.append(mean)
            if blocks.count > Self.blockCount { blocks.removeFirst() }
            blockSum = 0
            blockFrames = 0
        }
        guard !isLearnt else { return blocks.min() ?? mean }
        shortSum += level
        shortFrames += 1
        if shortFrames == Self.framesPerShortBlock {
            quietestShort = min(quietestShort, shortSum / Double(shortFrames))
            shortSum = 0
            shortFrames = 0
        }
        return min(blocks.min() ?? mean, quietestShort)
    }
}
