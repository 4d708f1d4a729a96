import Foundation
import VoiceAudio

/// One utterance as ``SpeechRecognizer/record(timeout:lead:minimumSpeech:read:)`` heard and kept
/// it.
package struct RecordedUtterance: Sendable {
    /// What the recognizer heard.
    package let result: RecognitionResult
    /// The audio of it at 16 kHz: from a little before speech began to the end of the silence
    /// that ended it.
    package let audio: AudioBuffer

    /// The loudest sample, in dB below full scale (0 at full scale; `-infinity` for silence).
    package var peakDecibels: Double {
        let peak = audio.samples.lazy.map { abs($0) }.max() ?? 0
        return peak > 0 ? 20 * log10(Double(peak)) : -.infinity
    }

    /// The share of samples at (or within one step of) full scale: above about 0.1%, the
    /// microphone was driven too hard and the peaks were cut off.
    package var clippedShare: Double {
        guard !audio.samples.isEmpty else { return 0 }
        return Double(audio.samples.count { abs($0) >= 0.999 }) / Double(audio.samples.count)
    }
}

extension SpeechRecognizer {
    /// Listens as ``listen(timeout:read:)`` does and keeps the audio of what was said, from
    /// `lead` seconds before the voice activity detector heard speech begin to the end of the
    /// silence that ended it: what `voice-intents record` saves of each sentence. Speech that
    /// fits no command is kept too (its ``RecordedUtterance/result`` may have no words), once it
    /// lasted `minimumSpeech` seconds; shorter sounds without words (a click, a breath) are not.
    ///
    /// ```swift
    /// let capture = ContinuousCapture(source: try ReopeningSource(device: .automatic))
    /// capture.start()
    /// if let said = try recognizer.record(timeout: 10, read: capture.read) {
    ///     try WAVFile.write(said.audio, to: URL(fileURLWithPath: "said.wav"))
    /// }
    /// ```
    ///
    /// - Returns: `nil` when nobody spoke before `timeout`.
    package func record(
        timeout: Double, lead: Double = 0.4, minimumSpeech: Double = 0.3,
        read: () throws(SpeechError) -> [Int16]?
    ) throws(SpeechError) -> RecordedUtterance? {
        var samples: [Int16] = []
        var lastChunk = 0
        var start = 0
        let result = try listen(
            timeout: timeout,
            read: { () throws(SpeechError) -> [Int16]? in
                let chunk = try read()
                if let chunk {
                    samples += chunk
                    lastChunk = chunk.count
                }
                return chunk
            },
            speechStarted: { read in
                // The detector says speech only after some (`-vad_prespeech`, 0.2 s) has been
                // heard, and somewhere in the chunk just read.
                let rate = Double(AudioFormat.recognizerSampleRate)
                start = max(0, read - lastChunk - Int((0.3 + lead) * rate))
            }, wordlessSpeech: minimumSpeech)
        guard let result else { return nil }
        return RecordedUtterance(
            result: result,
            audio: AudioBuffer(
                int16: Array(samples[min(start, samples.count)...]),
                sampleRate: AudioFormat.recognizerSampleRate))
    }
}
