import CPocketSphinx
import Foundation
import VoiceAudio

/// How sure the recognizer is that an utterance was the command it heard, from 0 (surely not a
/// command) to 1.
///
/// A grammar forces every sound onto some command: "what's the weather like today" comes out as
/// "what's the crowd level of oia". PocketSphinx scores each frame against the best of the sounds
/// it was considering in that frame, so the acoustic score per frame of the words heard
/// (``scorePerFrame``) says how far below that best the grammar had to go: near the top when the
/// words are really there, lower when the audio had to be bent onto them. The confidence is a
/// logistic function of it, read off the grammar's own pass at no extra cost:
///
/// ```swift
/// let result = try recognizer.recognize(samples)
/// if let confidence = result.confidence, confidence.value < 0.5 { print("not a command") }
/// ```
///
/// It is weak evidence, not a verdict. `rejection-benchmark` measured it separating commands from
/// other speech about as well as the words' margin over a second hearing by a phone loop
/// (``SpeechRecognizer/hearPhones(_:loop:chunk:)``), which costs half to three quarters of the
/// decode again (`Benchmarks/Recognition/README.md`, "Rejection"). Choose a threshold per app with `voice-intents calibrate`,
/// on the voice loop's measure (this times the matcher's score, `Understanding`). An utterance
/// with no words scores 0.
public struct RecognitionConfidence: Sendable, Hashable {
    /// The confidence, from 0 to 1; 0.5 at a score of ``midpoint`` per frame.
    public let value: Double
    /// The words' acoustic score per frame (PocketSphinx's log scale, against the best sound
    /// considered in each frame): near 0 for words that are really there, lower for anything
    /// forced onto them. Silences and fillers are left out.
    package let scorePerFrame: Double

    /// The score per frame at which the confidence is 0.5, and how far the score moves for the
    /// confidence to go from 0.5 to 0.73 (one unit of the logistic function). First fitted by
    /// `rejection-benchmark`; kept so that thresholds chosen by `calibrate` keep their meaning.
    package static let midpoint = -63.0
    package static let scale = 8.0

    /// The confidence of words that score `scorePerFrame` per frame.
    package init(scorePerFrame: Double) {
        self.scorePerFrame = scorePerFrame
        value = 1 / (1 + exp(-(scorePerFrame - Self.midpoint) / Self.scale))
    }

    /// The confidence of `words` (silences, fillers and garbage phone-words left out): 0 when
    /// there are none.
    package init(words: [RecognizedWord]) {
        let spoken = words.filter { !$0.isFiller && !$0.isGarbage }
        let frames = spoken.reduce(0) { $0 + max($1.endFrame - $1.startFrame + 1, 1) }
        self.init(
            scorePerFrame: frames > 0
                ? Double(spoken.reduce(0) { $0 + $1.acousticScore }) / Double(frames) : -.infinity)
    }
}

/// How a phone loop (``SpeechRecognizer/hearPhones(_:loop:chunk:)``) is searched.
package struct PhoneLoop: Sendable, Hashable {
    /// The loop's beams (PocketSphinx's `-beam` and `-pbeam` for this search only): narrower is
    /// faster and scores a little lower.
    package var beam: Double
    package var phoneBeam: Double
    /// Context-independent phones only (`-allphone_ci`): much faster, a coarser reference.
    package var contextIndependent: Bool

    /// The setting chosen by `rejection-benchmark`.
    package static let standard = PhoneLoop(beam: 1e-20, phoneBeam: 1e-20, contextIndependent: true)

    package init(beam: Double, phoneBeam: Double, contextIndependent: Bool) {
        self.beam = beam
        self.phoneBeam = phoneBeam
        self.contextIndependent = contextIndependent
    }

    /// The name of its search in the decoder.
    var searchName: String { "phone-loop-\(beam)-\(phoneBeam)-\(contextIndependent ? "ci" : "cd")" }
}

/// What a phone loop heard in one utterance.
package struct PhoneLoopResult: Sendable, Hashable {
    /// One phone of the loop's path.
    package struct Segment: Sendable, Hashable {
        package let phone: String
        /// First and last 10 ms frame.
        package let startFrame: Int
        package let endFrame: Int
        package let acousticScore: Int
    }

    /// The phones, space-separated ("SIL HH AH L OW SIL").
    package let phones: String
    /// The path, phone by phone.
    package let segments: [Segment]
    /// How many 10 ms frames were decoded.
    package let frames: Int

    /// The sum of the phones' acoustic scores.
    package var acousticScore: Int { segments.reduce(0) { $0 + $1.acousticScore } }

    /// The acoustic score per frame.
    package var scorePerFrame: Double { frames > 0 ? Double(acousticScore) / Double(frames) : 0 }

    /// The loop's acoustic score over frames `start...end`: its phones' scores, each in
    /// proportion to the share of its frames inside.
    package func acousticScore(from start: Int, to end: Int) -> Double {
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
    package func margin(of words: [RecognizedWord]) -> Double {
        let frames = words.map { Double(max($0.endFrame - $0.startFrame + 1, 1)) }
        let total = frames.reduce(0, +)
        guard total > 0 else { return -.infinity }
        return zip(margins(of: words), frames).reduce(0) { $0 + $1.0 * $1.1 } / total
    }

    /// How much worse each of `words` fits its frames than the loop does over the same frames,
    /// per frame (near 0 for a word that is really there).
    package func margins(of words: [RecognizedWord]) -> [Double] {
        words.map { word in
            let frames = Double(max(word.endFrame - word.startFrame + 1, 1))
            return (Double(word.acousticScore) - acousticScore(from: word.startFrame, to: word.endFrame))
                / frames
        }
    }
}

extension SpeechRecognizer {
    /// `body`'s result, with the decoder's float settings `settings` ("-beam": 1e-20) in place
    /// while it runs and put back after: a search reads its beams when it is made, so one made in
    /// `body` keeps these.
    func withSettings<Result>(_ settings: [String: Double], _ body: () throws(SpeechError) -> Result)
        throws(SpeechError) -> Result
    {
        let saved = settings.keys.map { ($0, cmd_ln_float_r(configuration, $0)) }
        for (name, value) in settings { cmd_ln_set_float_r(configuration, name, value) }
        defer { for (name, value) in saved { cmd_ln_set_float_r(configuration, name, value) } }
        return try body()
    }

    /// Hears `samples` as one utterance with a phone loop instead of the search in use, which is
    /// in use again afterwards: any sequence of English phones, weighted by a phone language
    /// model, with no words and no grammar. A reference for measuring rejection
    /// (`rejection-benchmark`); its frames line up with a grammar's pass over the same audio.
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
    package func hearPhones(_ samples: [Int16], loop: PhoneLoop = .standard, chunk: Int = 2048)
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
            let contextIndependent = cmd_ln_int_r(configuration, "-allphone_ci")
            cmd_ln_set_int_r(configuration, "-allphone_ci", loop.contextIndependent ? 1 : 0)
            let status = try withSettings(["-beam": loop.beam, "-pbeam": loop.phoneBeam]) {
                ps_set_allphone_file(decoder, name, path)
            }
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
