import CPocketSphinx
import Foundation

/// How sure the recognizer is that an utterance was the command it heard, from 0 (surely not a
/// command) to 1.
///
/// A grammar forces every sound onto some command: "what's the weather like today" comes out as
/// "what's the crowd level of oia". To tell, the same audio is heard a second time by a *phone
/// loop* (``PhoneLoop``): any sequence of English phones, weighted by a phone language model, with
/// no words and no grammar. Over the frames of the words heard, the grammar's path scores nearly
/// as well as the loop when the words are really there, and worse when the audio had to be bent
/// onto them. The confidence is a logistic function of that difference per frame (``margin``):
///
/// ```swift
/// recognizer.measuresConfidence = true
/// let result = try recognizer.recognize(samples)
/// if let confidence = result.confidence, confidence.value < 0.5 { print("not a command") }
/// ```
///
/// 0.5 sits at the threshold chosen by `rejection-benchmark` on a tuning half of its clips (the
/// highest that rejects at most 2% of commands). Measured on the held-out half, it is weak
/// evidence, not a verdict: it rejects real recordings that are not commands, but most eSpeak NG
/// sentences that are not commands still score above it (`Models/README.md`, "Rejection"). An
/// utterance with no words scores 0.
public struct RecognitionConfidence: Sendable, Hashable {
    /// The confidence, from 0 to 1; 0.5 at the measured threshold.
    public let value: Double
    /// How much worse the grammar's words fit their frames than the phone loop does over the same
    /// frames, per frame (PocketSphinx's log scale): near 0 for a command, lower for anything
    /// forced onto one.
    public let margin: Double

    /// The margin at which the confidence is 0.5, and how far the margin moves for the confidence
    /// to go from 0.5 to 0.73 (one unit of the logistic function). Measured by
    /// `rejection-benchmark` (200 clips, 2026-11-22: commands' median −28, other speech's −44).
    public static let threshold = -63.0
    public static let scale = 8.0

    /// The confidence of words that fit their frames `margin` worse per frame than a phone loop.
    public init(margin: Double) {
        self.margin = margin
        value = 1 / (1 + exp(-(margin - Self.threshold) / Self.scale))
    }

    /// The confidence of an utterance with no words: 0.
    init(empty: Void) {
        margin = -.infinity
        value = 0
    }
}

/// How the phone loop that ``SpeechRecognizer/measuresConfidence`` compares with is searched.
public struct PhoneLoop: Sendable, Hashable {
    /// The loop's beams (PocketSphinx's `-beam` and `-pbeam` for this search only): narrower is
    /// faster and scores a little lower.
    public var beam: Double
    public var phoneBeam: Double
    /// Context-independent phones only (`-allphone_ci`): much faster, a coarser reference.
    public var contextIndependent: Bool

    /// The setting chosen by `rejection-benchmark`.
    public static let standard = PhoneLoop(beam: 1e-20, phoneBeam: 1e-20, contextIndependent: true)

    public init(beam: Double, phoneBeam: Double, contextIndependent: Bool) {
        self.beam = beam
        self.phoneBeam = phoneBeam
        self.contextIndependent = contextIndependent
    }

    /// The name of its search in the decoder.
    var searchName: String { "phone-loop-\(beam)-\(phoneBeam)-\(contextIndependent ? "ci" : "cd")" }
}

/// What a phone loop heard in one utterance.
public struct PhoneLoopResult: Sendable, Hashable {
    /// One phone of the loop's path.
    public struct Segment: Sendable, Hashable {
        public let phone: String
        /// First and last 10 ms frame.
        public let startFrame: Int
        public let endFrame: Int
        public let acousticScore: Int
    }

    /// The phones, space-separated ("SIL HH AH L OW SIL").
    public let phones: String
    /// The path, phone by phone.
    public let segments: [Segment]
    /// How many 10 ms frames were decoded.
    public let frames: Int

    /// The sum of the phones' acoustic scores.
    public var acousticScore: Int { segments.reduce(0) { $0 + $1.acousticScore } }

    /// The acoustic score per frame.
    public var scorePerFrame: Double { frames > 0 ? Double(acousticScore) / Double(frames) : 0 }

    /// The loop's acoustic score over frames `start...end`: its phones' scores, each in
    /// proportion to the share of its frames inside.
    public func acousticScore(from start: Int, to end: Int) -> Double {
        var total = 0.0
        for segment in segments where segment.endFrame >= start && segment.startFrame <= end {
            let inside = min(end, segment.endFrame) - max(start, segment.startFrame) + 1
            let length = segment.endFrame - segment.startFrame + 1
            total += Double(segment.acousticScore) * Double(inside) / Double(max(length, 1))
        }
        return total
    }

    /// How much worse `words` fit their frames than the loop does over the same frames, per frame
    /// (the margins of ``margins(of:)``, each weighted by its word's frames).
    public func margin(of words: [RecognizedWord]) -> Double {
        let frames = words.map { Double(max($0.endFrame - $0.startFrame + 1, 1)) }
        let total = frames.reduce(0, +)
        guard total > 0 else { return -.infinity }
        return zip(margins(of: words), frames).reduce(0) { $0 + $1.0 * $1.1 } / total
    }

    /// How much worse each of `words` fits its frames than the loop does over the same frames,
    /// per frame (near 0 for a word that is really there).
    public func margins(of words: [RecognizedWord]) -> [Double] {
        words.map { word in
            let frames = Double(max(word.endFrame - word.startFrame + 1, 1))
            return (Double(word.acousticScore) - acousticScore(from: word.startFrame, to: word.endFrame))
                / frames
        }
    }
}

/// The audio of the utterance in progress and the channel estimate before it, for a second
/// hearing; empty unless the recognizer measures confidence.
struct UtteranceRecord {
    var samples: [Int16] = []
    var cepstralMean: [mfcc_t] = []

    mutating func start(_ recognizer: SpeechRecognizer) {
        samples.removeAll(keepingCapacity: true)
        guard recognizer.measuresConfidence else { return }
        cepstralMean = recognizer.cepstralMean
    }

    mutating func append(_ chunk: [Int16], _ recognizer: SpeechRecognizer) {
        if recognizer.measuresConfidence { samples += chunk }
    }
}

extension SpeechRecognizer {
    /// The decoder's live cepstral mean: what it has learnt of the channel so far.
    var cepstralMean: [mfcc_t] {
        get {
            var mean = [mfcc_t](repeating: 0, count: Int(vi_cepstral_mean_length(decoder)))
            if !mean.isEmpty { vi_cepstral_mean(decoder, &mean, 0) }
            return mean
        }
        set {
            var mean = newValue
            if !mean.isEmpty { vi_cepstral_mean(decoder, &mean, 1) }
        }
    }

    /// `result` with its confidence, when the recognizer measures confidence: the utterance's
    /// samples heard again by the phone loop, from the same channel estimate the grammar's pass
    /// started with. The channel estimate the grammar's pass left is kept afterwards, so a stream
    /// goes on as if the utterance had been heard once.
    func measuringConfidence(_ result: RecognitionResult) throws(SpeechError) -> RecognitionResult {
        guard measuresConfidence else { return result }
        var result = result
        let words = result.spokenWords
        guard !words.isEmpty, result.frames > 0 else {
            result.confidence = RecognitionConfidence(empty: ())
            return result
        }
        let after = cepstralMean
        cepstralMean = utterance.cepstralMean
        defer { cepstralMean = after }
        let loop = try hearPhones(utterance.samples)
        result.confidence = RecognitionConfidence(margin: loop.margin(of: words))
        return result
    }

    /// Hears `samples` as one utterance with a phone loop instead of the search in use, which is
    /// in use again afterwards. The confidence's reference; public for measuring other settings.
    ///
    /// ```swift
    /// let phones = try recognizer.hearPhones(samples)
    /// print(phones.phones, phones.scorePerFrame)
    /// ```
    ///
    /// - Parameters:
    ///   - samples: 16 kHz, 16-bit mono audio.
    ///   - loop: The loop's beams and phones.
    ///   - chunk: Samples per call to the decoder.
    public func hearPhones(_ samples: [Int16], loop: PhoneLoop = .standard, chunk: Int = 2048)
        throws(SpeechError)
        -> PhoneLoopResult
    {
        let name = loop.searchName
        if !searches.contains(name) {
            let path =
                settings.phoneLanguageModel
                ?? URL(fileURLWithPath: settings.languageModel).deletingLastPathComponent()
                .appendingPathComponent("en-us-phone.lm.bin").path
            guard FileManager.default.fileExists(atPath: path) else {
                throw SpeechError(
                    .missingModel, "no phone language model at \(path); install \(settings.package)")
            }
            // The phone loop reads its beams from the configuration when it is made: set them for
            // it alone.
            let beam = cmd_ln_float_r(configuration, "-beam")
            let phoneBeam = cmd_ln_float_r(configuration, "-pbeam")
            let contextIndependent = cmd_ln_int_r(configuration, "-allphone_ci")
            cmd_ln_set_float_r(configuration, "-beam", loop.beam)
            cmd_ln_set_float_r(configuration, "-pbeam", loop.phoneBeam)
            cmd_ln_set_int_r(configuration, "-allphone_ci", loop.contextIndependent ? 1 : 0)
            let status = ps_set_allphone_file(decoder, name, path)
            cmd_ln_set_float_r(configuration, "-beam", beam)
            cmd_ln_set_float_r(configuration, "-pbeam", phoneBeam)
            cmd_ln_set_int_r(configuration, "-allphone_ci", contextIndependent)
            guard status == 0 else {
                throw SpeechError(
                    .missingModel, "PocketSphinx could not load the phone language model \(path)")
            }
            searches.insert(name)
        }
        let previous = ps_get_search(decoder).map { String(cString: $0) }
        guard ps_set_search(decoder, name) == 0 else {
            throw SpeechError(.engineFailure, "PocketSphinx could not switch to the phone loop")
        }
        defer { if let previous { _ = ps_set_search(decoder, previous) } }
        try decode(samples, chunk: chunk)
        var score: Int32 = 0
        let phones = ps_get_hyp(decoder, &score).map { String(cString: $0) } ?? ""
        let segments = currentSegments().map { unit in
            PhoneLoopResult.Segment(
                phone: unit.word, startFrame: unit.startFrame, endFrame: unit.endFrame,
                acousticScore: unit.acousticScore)
        }
        return PhoneLoopResult(phones: phones, segments: segments, frames: Int(ps_get_n_frames(decoder)))
    }
}
