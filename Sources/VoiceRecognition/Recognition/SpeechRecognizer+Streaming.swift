import CPocketSphinx
import VoiceAudio

/// One utterance decoded while it arrives, for audio whose end someone else decides (a network
/// peer's audio-stop): the words are ready soon after the last samples, not a whole decode later.
///
/// ```swift
/// let utterance = try recognizer.startUtterance()
/// for chunk in chunks { try utterance.feed(chunk) }   // 16 kHz, 16-bit, mono
/// let heard = try utterance.finish()
/// ```
package final class StreamedUtterance {
    let recognizer: SpeechRecognizer
    /// What was fed, after the front end: the decoy check hears it again.
    private var fed: [Int16] = []
    private var isFinished = false

    init(_ recognizer: SpeechRecognizer) throws(SpeechError) {
        self.recognizer = recognizer
        recognizer.frontEnd?.reset()
        guard ps_start_utt(recognizer.decoder) == 0 else {
            throw SpeechError(.engineFailure, "PocketSphinx could not start an utterance")
        }
    }

    /// Decodes `samples` (16 kHz, 16-bit, mono), the next part of the utterance.
    package func feed(_ samples: [Int16]) throws(SpeechError) {
        guard !isFinished else { throw SpeechError(.invalidInput, "the utterance is finished") }
        let cleaned = recognizer.frontEnd?.process(samples) ?? samples
        fed += cleaned
        try recognizer.process(cleaned[...])
    }

    /// The words the search holds best so far, as ``RecognitionResult/commandText`` writes them
    /// (no garbage words): a guess that later audio may still change.
    package var partialWords: [String] {
        guard !isFinished else { return [] }
        var score: Int32 = 0
        let hypothesis = ps_get_hyp(recognizer.decoder, &score).map { String(cString: $0) } ?? ""
        return SpeechRecognizer.spoken(hypothesis).split(separator: " ").map(String.init).filter {
            !GarbageModel.isGarbage($0)
        }
    }

    /// Ends the utterance and returns what was heard, as ``SpeechRecognizer/recognize(_:chunk:)``
    /// would have.
    package func finish() throws(SpeechError) -> RecognitionResult {
        guard !isFinished else { throw SpeechError(.invalidInput, "the utterance is finished") }
        isFinished = true
        guard ps_end_utt(recognizer.decoder) == 0 else {
            throw SpeechError(.engineFailure, "PocketSphinx could not end the utterance")
        }
        return try recognizer.checked(recognizer.currentResult(), samples: fed)
    }
}

extension SpeechRecognizer {
    /// Starts an utterance to be fed as it arrives (``StreamedUtterance``). The recognizer
    /// decodes nothing else until it is finished.
    package func startUtterance() throws(SpeechError) -> StreamedUtterance {
        try StreamedUtterance(self)
    }
}
