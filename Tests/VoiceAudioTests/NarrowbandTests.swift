import Foundation
import PhraseMatching
import Testing
import VoiceEvaluation
import VoiceTestSupport

@testable import VoiceAudio
@testable import VoiceRecognition
@testable import VoiceUnderstanding

/// Audio recorded at 8 kHz reaches the recognizer with the band it lacks filled
/// (``BandwidthExtender``), through a resampler that keeps all of the band it has.
@Suite("Narrowband audio")
struct NarrowbandTests {
    /// `buffer`'s samples (16 kHz) through an eighth-order filter: what lies above `corner` Hz,
    /// or below it.
    static func band(_ buffer: AudioBuffer, above corner: Double) -> AudioBuffer {
        var filters = Biquad.butterworth(order: 8) { .highPass(corner: corner, sampleRate: 16_000, q: $0) }
        return AudioBuffer(samples: filter(buffer.samples, &filters), sampleRate: buffer.sampleRate)
    }

    static func band(_ buffer: AudioBuffer, below corner: Double) -> AudioBuffer {
        var filters = Biquad.butterworth(order: 8) { .lowPass(corner: corner, sampleRate: 16_000, q: $0) }
        return AudioBuffer(samples: filter(buffer.samples, &filters), sampleRate: buffer.sampleRate)
    }

    private static func filter(_ samples: [Float], _ filters: inout [Biquad]) -> [Float] {
        samples.map { sample in
            var value = Double(sample)
            for index in filters.indices { value = filters[index].next(value) }
            return Float(value)
        }
    }

    @Test func theBandARecordingHasIsKeptAndTheRestFilledBelowIt() {
        // A tone in the top of the band the recording has, as a hiss would be.
        let tone = Signal.sine(frequency: 3_000, rate: 8_000, seconds: 1, amplitude: 0.3)
        let heard = tone.atRecognizerRate
        #expect(heard.sampleRate == 16_000)
        let kept = Signal.rms(Signal.middle(Self.band(heard, below: 3_800)))
        #expect(abs(Signal.decibels(kept / Signal.rms(Signal.middle(tone)))) < 0.5)
        // The noise above: about 9 dB under the tone (the extender's level), and none of it near
        // the tone's own band.
        let filled = Signal.rms(Signal.middle(Self.band(heard, above: 4_500)))
        #expect(
            (-13.0 ... -7.0).contains(Signal.decibels(filled / kept)), "\(Signal.decibels(filled / kept)) dB")
        // The default resampler's cutoff (0.91 of 4 kHz) lies below this tone; kept here.
        let top = Signal.sine(frequency: 3_700, rate: 8_000, seconds: 1, amplitude: 0.3)
        let topHeard = Signal.rms(Signal.middle(Self.band(top.atRecognizerRate, below: 3_900)))
        #expect(Signal.decibels(topHeard / Signal.rms(Signal.middle(top))) > -1.5)
    }

    @Test func silenceStaysSilentAndWidebandAudioIsOnlyResampled() {
        let silence = AudioBuffer(samples: [Float](repeating: 0, count: 8_000), sampleRate: 8_000)
        #expect(silence.atRecognizerRate.samples.allSatisfy { $0 == 0 })
        let wide = Signal.sine(frequency: 3_000, rate: 22_050, seconds: 0.5)
        #expect(wide.atRecognizerRate == wide.resampled(to: 16_000))
        let already = Signal.sine(frequency: 3_000, rate: 16_000, seconds: 0.5)
        #expect(already.atRecognizerRate == already)
    }

    /// A stream extended piece by piece is the stream extended whole, as the Wyoming server
    /// extends a satellite's 8 kHz chunks.
    @Test func inPiecesAsAWhole() {
        let speech = Signal.sine(frequency: 2_900, rate: 16_000, seconds: 0.7).samples
        var whole = BandwidthExtender(sourceRate: 8_000)
        let expected = whole.process(speech)
        for size in [1, 160, 1_000] {
            var extender = BandwidthExtender(sourceRate: 8_000)
            var pieces: [Float] = []
            for start in stride(from: 0, to: speech.count, by: size) {
                pieces += extender.process(Array(speech[start..<min(start + size, speech.count)]))
            }
            #expect(pieces == expected, "in pieces of \(size)")
        }
    }

    /// People's digits, recorded at 8 kHz: one take of each digit by each of the six speakers,
    /// every clip on a fresh channel as `listen --input` hears it, with the band filled against
    /// resampled only. `answer-benchmark` measured 103 → 119 of 180 on three takes.
    @Test func peoplesNarrowbandDigitsAreHeardBetterWithTheBandFilled() throws {
        let speakers = ["george", "jackson", "lucas", "nicolas", "theo", "yweweler"]
        let digits = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
        var recordings: [(audio: AudioBuffer, digit: String)] = []
        for speaker in speakers {
            for (digit, word) in digits.enumerated() {
                let file = try PeoplesRecordings.file("spoken-digits", "\(digit)_\(speaker)_0.wav")
                let audio = try WAVFile.read(from: file)
                #expect(audio.sampleRate == 8_000)
                recordings.append((audio, word))
            }
        }
        let recognizer = try SpeechRecognizer(try .installed())
        try recognizer.useGrammar(SpeechGrammar(answers: [.values(.integer())], name: "number"))
        func heardRight(_ prepare: (AudioBuffer) -> [Int16]) throws -> Int {
            var right = 0
            for recording in recordings {
                recognizer.forgetChannel()
                let stream = SampleStream(prepare(recording.audio))
                let result = try recognizer.listen(timeout: 5) { () throws(SpeechError) in stream.read() }
                if let result, SpeechGrammar.withoutHesitation(result.text) == recording.digit { right += 1 }
            }
            return right
        }
        let resampled = try heardRight { $0.resampled(to: 16_000).int16Samples }
        let filled = try heardRight { $0.forRecognizer }
        #expect(
            filled >= resampled + 3,
            "of 60 people's digits at 8 kHz, heard right resampled: \(resampled), with the band filled: \(filled)"
        )
    }
}
