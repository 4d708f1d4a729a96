import BenchmarkSupport
import Foundation
import VoiceAudio
import VoiceIntents
import VoiceRecognition

/// End of speech → recognized, in process: each clip is fed to `SpeechRecognizer.listen` in
/// 100 ms chunks at the pace a microphone delivers them (a chunk is handed over 100 ms after the
/// one before, when its last sample has been "recorded"), and the time runs from the moment the
/// chunk holding the last speech sample was handed over to the moment `listen` returned.
struct PacedListening {
    struct Heard {
        /// Seconds from handing over the last speech chunk to `listen` returning; `nil` when
        /// nothing was heard by the end of the quiet after the speech (`tail`).
        let latency: Double?
        /// How long the last speech sample waited for its chunk to fill, as on a microphone
        /// (0 to 100 ms): part of what a person waits, not part of `latency`.
        let chunkWait: Double
        let text: String
    }

    let recognizer: SpeechRecognizer
    /// Quiet heard before the first clip, as a microphone hears the room before anyone speaks.
    let warmUp: [Int16]
    /// Seconds of quiet fed after each clip's speech at most: more than the silence window.
    let tail: Double
    static let chunk = 1_600
    /// Quiet fed before each clip's speech (the first gets all of its padding after `warmUp`).
    static let lead = 0.3

    func run(_ clips: [Clip]) throws -> [Heard] {
        var results: [Heard] = []
        for (index, clip) in clips.enumerated() {
            let leadSamples = Int(Self.lead * Double(AudioFormat.recognizerSampleRate))
            let start = index == 0 ? 0 : max(0, clip.speechStart - leadSamples)
            // The clip, then quiet for as long as the recognizer takes to notice the end.
            let tail = quiet(
                count: Int(self.tail * Double(AudioFormat.recognizerSampleRate)), seed: 7_000 + UInt64(index))
            let before = index == 0 ? warmUp : []
            let audio = before + clip.samples[start...] + tail
            let lastSpeech = before.count + clip.speechEnd - start
            var position = 0
            var handedOver = 0
            let began = clock.now
            var lastSpeechFed: ContinuousClock.Instant?
            var chunkWait = 0.0
            let read = { () -> [Int16]? in
                guard position < audio.count else { return nil }
                // A microphone hands chunk n over once its last sample is in: (n + 1) × 100 ms.
                handedOver += 1
                let due = began + .milliseconds(100 * handedOver)
                let wait = (due - clock.now).inSeconds
                if wait > 0 { Thread.sleep(forTimeInterval: wait) }
                let end = min(position + Self.chunk, audio.count)
                defer { position = end }
                if lastSpeech >= position, lastSpeech < end {
                    lastSpeechFed = clock.now
                    chunkWait = Double(end - 1 - lastSpeech) / Double(AudioFormat.recognizerSampleRate)
                }
                return Array(audio[position..<end])
            }
            // A pause inside a sentence can end an utterance early: listen on until the last of
            // the speech has been fed and heard.
            var words: [String] = []
            var latency: Double?
            while position < audio.count {
                let result = try recognizer.listen(timeout: 10, read: read)
                let returned = clock.now
                if let result, !result.text.isEmpty { words.append(result.text) }
                if let lastSpeechFed, result != nil {
                    latency = (returned - lastSpeechFed).inSeconds
                    break
                }
            }
            results.append(Heard(latency: latency, chunkWait: chunkWait, text: words.joined(separator: " ")))
        }
        return results
    }
}
