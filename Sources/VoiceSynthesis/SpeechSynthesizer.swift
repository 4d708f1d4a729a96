import CESpeakNG
import VoiceAudio

/// Speaks text with eSpeak NG, in process.
///
/// ```swift
/// let synthesizer = try SpeechSynthesizer(voice: "en-us+f2", rate: 160)
/// let speech = try synthesizer.speak("The closest landmark is Golden Gate Bridge.")
/// // speech.samples at speech.sampleRate (22,050 Hz)
/// ```
package struct SpeechSynthesizer: Sendable {
    /// The eSpeak NG voice: a language ("en-us", "en") with an optional variant ("+f2", "+m3").
    package var voice: String
    /// Words per minute, 80 to 450.
    package var rate: Int
    /// Pitch, 0 to 100 (50 is the voice's own).
    package var pitch: Int

    /// Creates a synthesizer; the engine starts on first use.
    ///
    /// - Parameters:
    ///   - voice: The eSpeak NG voice name.
    ///   - rate: Words per minute.
    ///   - pitch: 0 to 100.
    package init(voice: String = "en-us", rate: Int = 175, pitch: Int = 50) {
        self.voice = voice
        self.rate = rate
        self.pitch = pitch
    }

    /// The rate eSpeak NG synthesises at.
    package static func sampleRate() throws(SpeechError) -> Int {
        try ESpeakEngine.shared().sampleRate
    }

    /// eSpeak NG's version ("1.51"): part of what a cache of synthesised speech is keyed by.
    package static func engineVersion() throws(SpeechError) -> String {
        let engine = try ESpeakEngine.shared()
        return try engine.exclusively { String(cString: espeak_Info(nil)) }
    }

    /// Speaks `text`: plain text, or with `ssml` an SSML document (`<speak>Turned on.<break
    /// time="500ms"/>Anything else?</speak>`), whose elements eSpeak NG does not know are left
    /// out.
    ///
    /// - Throws: ``SpeechError`` when eSpeak NG's data is missing or the voice is unknown.
    package func speak(_ text: String, ssml: Bool = false) throws(SpeechError) -> SynthesizedSpeech {
        let engine = try ESpeakEngine.shared()
        let samples = try engine.exclusively { () throws(SpeechError) -> [Int16] in
            try engine.selectVoice(voice)
            return try engine.synthesize(
                text, rate: min(max(rate, 80), 450), pitch: min(max(pitch, 0), 100), ssml: ssml)
        }
        return SynthesizedSpeech(samples: samples, sampleRate: engine.sampleRate)
    }
}

/// Speech as eSpeak NG made it: 16-bit mono samples at its own rate.
package struct SynthesizedSpeech: Sendable {
    package let samples: [Int16]
    package let sampleRate: Int

    /// How long it lasts, in seconds.
    package var duration: Double { Double(samples.count) / Double(sampleRate) }
}
