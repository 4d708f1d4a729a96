import Foundation
import PhraseMatching
import Testing
import VoiceTestSupport

@testable import VoiceAudio
@testable import VoiceEvaluation
@testable import VoiceRecognition
@testable import VoiceUnderstanding

/// The decoder's Gaussians scored by the project's AVX2 code give what the library's own gives.
@Suite("Scoring the acoustic model")
struct GaussianScoringTests {
    /// People's spoken digits in noise, each on a fresh channel, heard by one decoder
    /// scoring its Gaussians the project's way (an optimised build's default) and by another
    /// scoring them the library's way: the same results, word scores and confidences included.
    /// The first frames of the first are scored both ways and compared inside, and none differed.
    @Test func ownScoringHearsWhatTheLibrarysHears() throws {
        var generator = SplitMix64(seed: 11)
        var clips: [[Int16]] = []
        for (index, speaker) in ["george", "jackson", "lucas", "nicolas", "theo", "yweweler"].enumerated() {
            for digit in [index, (index + 3) % 10] {
                let file = try PeoplesRecordings.file("spoken-digits", "\(digit)_\(speaker)_1.wav")
                let speech = try WAVFile.read(from: file).resampled(to: 16_000).int16Samples
                clips.append(
                    speech.map { Int16(clamping: Int($0) + Int(NoiseMixer.gaussian(&generator) * 300)) })
            }
        }
        func heard() throws -> (results: [RecognitionResult?], own: Bool) {
            let recognizer = try SpeechRecognizer(try .installed())
            try recognizer.useGrammar(SpeechGrammar(answers: [.values(.integer())], name: "number"))
            var results: [RecognitionResult?] = []
            for clip in clips {
                recognizer.forgetChannel()
                results.append(try recognizer.listen(to: clip))
            }
            return (results, recognizer.scoresOwnGaussians)
        }
        let wasOwn = SpeechRecognizer.scoresGaussiansOwnWay
        defer { SpeechRecognizer.scoreGaussiansOwnWay(wasOwn) }
        let disagreements = SpeechRecognizer.gaussianDisagreements
        SpeechRecognizer.scoreGaussiansOwnWay(true)
        let ours = try heard()
        #if arch(x86_64)
            let flags = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
            #expect(ours.own == flags.contains(" avx2"))
        #endif
        #expect(SpeechRecognizer.gaussianDisagreements == disagreements)
        SpeechRecognizer.scoreGaussiansOwnWay(false)
        let library = try heard()
        #expect(ours.results == library.results)
        // Speech was heard: the comparison is of something.
        #expect(ours.results.compactMap { $0 }.filter { !$0.spokenWords.isEmpty }.count >= 8)
    }
}
