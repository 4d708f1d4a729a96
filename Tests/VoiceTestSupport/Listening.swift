import VoiceAudio
import VoiceRecognition
import VoiceUnderstanding

extension SpeechRecognizer {
    /// Listens to a recording (16 kHz) as `listen --input` feeds one, 100 ms at a time, until an
    /// utterance has ended or the recording has.
    package func listen(to samples: [Int16], timeout: Double = 5) throws(SpeechError) -> RecognitionResult? {
        try listen(timeout: timeout, read: SampleStream(samples).read)
    }

    /// What the grammar in use heard of each of `folder`'s recordings `names` (without `.wav`),
    /// each on a fresh channel, without hesitations: listened to as `listen --input` does, or
    /// heard whole as `transcribe` does.
    package func heard(_ names: some Sequence<String>, in folder: String, listening: Bool) throws -> [String:
        String]
    {
        var heard: [String: String] = [:]
        for name in names {
            forgetChannel()
            let samples = try WAVFile.read(from: try PeoplesRecordings.file(folder, "\(name).wav"))
                .forRecognizer
            let text = listening ? try listen(to: samples)?.text ?? "" : try recognize(samples).text
            heard[name] = SpeechGrammar.withoutHesitation(text)
        }
        return heard
    }
}
