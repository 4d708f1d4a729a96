import Foundation
import PhraseMatching
import VoiceAudio
import VoiceIntents
import VoiceRecognition
import VoiceSynthesis
import VoiceUnderstanding

/// Speaks sentences with eSpeak NG in several voices and rates, and hears them back under a
/// grammar: how much of what an app's grammar allows the recognizer gets word for word.
///
/// ```swift
/// let roundTrip = RoundTrip(voices: ["en-us", "en-us+f2"], rates: [150, 190])
/// let report = try roundTrip.run(["navigate to the map in travel tracking"], grammar: grammar)
/// print(report.heardRate, report.misses)
/// ```
///
/// Clips are decoded on every core, each worker with its own recognizer. Each sentence is spoken
/// by the `espeak-ng` program in a process of its own (``SpeechCache``): eSpeak NG carries state
/// from one sentence to the next within a process, so speech made in this one would depend on
/// what was said before it, here or by any other code of the process, and so would the figures.
package struct RoundTrip: Sendable {
    /// eSpeak NG voices to speak in.
    package var voices: [String]
    /// Speaking rates, in words a minute.
    package var rates: [Int]
    /// The recognizer's model and settings.
    package var configuration: SpeechRecognizer.Configuration
    /// Seconds of quiet before and after each sentence, as a microphone would give.
    package var padding: Double
    /// The level of the noise under each clip, as a share of full scale (RMS). A microphone
    /// never gives digital silence; eSpeak NG does, between and around its words, and the
    /// recognizer's features of exact zeros are nothing like a quiet room's. The default, about
    /// −70 dBFS, is a quiet room through a decent microphone.
    package var noiseFloor: Double = 0.0003
    /// How many recognizers decode at once.
    package var workers: Int
    /// Whether every sentence is spoken in every voice at every rate; when `false`, each sentence
    /// is spoken once, the voices and rates taking turns (a sixth of the clips for three voices
    /// and two rates, with every sentence, voice and rate still in).
    package var everyCombination = true

    package init(
        voices: [String] = ["en-us", "en-us+f2", "en+m7"], rates: [Int] = [150, 190],
        configuration: SpeechRecognizer.Configuration = .englishUS, padding: Double = 0.3,
        workers: Int = ProcessInfo.processInfo.activeProcessorCount
    ) {
        self.voices = voices
        self.rates = rates
        self.configuration = configuration
        self.padding = padding
        self.workers = max(1, workers)
    }

    /// One sentence, spoken once and heard.
    package struct Clip: Sendable, CustomStringConvertible {
        package let sentence: String
        package let voice: String
        package let rate: Int
        /// What the recognizer heard.
        package let heard: String
        /// Whether the recognizer heard the sentence word for word. Normalised words compare:
        /// "what's" and "what is", "2" and "two" are the same, and so are words the dictionary
        /// says alike ("favorite" and "favourite"), which no recognizer can tell apart.
        package let isRight: Bool
        /// Seconds of audio, and seconds spent decoding it.
        package let duration: Double
        package let decodeTime: Double

        package var description: String { "\(voice) \(rate): \"\(sentence)\" heard as \"\(heard)\"" }
    }

    /// Every clip of a run.
    package struct Report: Sendable {
        package let clips: [Clip]

        package var heard: Int { clips.filter(\.isRight).count }
        /// The share of clips heard word for word, 0 to 1.
        package var heardRate: Double { clips.isEmpty ? 1 : Double(heard) / Double(clips.count) }
        package var misses: [Clip] { clips.filter { !$0.isRight } }
        /// Decoding time over audio time.
        package var realTimeFactor: Double {
            clips.reduce(0) { $0 + $1.decodeTime } / max(clips.reduce(0) { $0 + $1.duration }, 1e-9)
        }
    }

    /// Speaks every sentence in every voice and rate and recognises it under `grammar`.
    ///
    /// - Parameter progress: Called after each clip with the number done and the total.
    package func run(
        _ sentences: [String], grammar: SpeechGrammar,
        progress: @Sendable (_ done: Int, _ total: Int) -> Void = { _, _ in }
    ) throws(SpeechError) -> Report {
        let combinations = voices.flatMap { voice in rates.map { (voice: voice, rate: $0) } }
        let jobs =
            everyCombination
            ? combinations.flatMap { combination in
                sentences.map { (sentence: $0, voice: combination.voice, rate: combination.rate) }
            }
            : sentences.enumerated().map { index, sentence in
                let combination = combinations[index % combinations.count]
                return (sentence: sentence, voice: combination.voice, rate: combination.rate)
            }
        let configuration = self.configuration
        let clips = try SpeechRecognizer.inParallel(
            jobs.count, workers: workers, configuration: configuration, grammar: grammar, progress: progress
        ) { recognizer, index throws(SpeechError) in
            let job = jobs[index]
            let speech = try SpeechCache.speakInOwnProcess(job.sentence, voice: job.voice, rate: job.rate)
            let audio = self.heard(speech, seed: UInt64(index))
            let started = ContinuousClock.now
            let result = try recognizer.recognize(audio)
            return Clip(
                sentence: job.sentence, voice: job.voice, rate: job.rate, heard: result.text,
                isRight: Self.sameWords(result.text, job.sentence, recognizer: recognizer),
                duration: Double(audio.count) / Double(AudioFormat.recognizerSampleRate),
                decodeTime: (ContinuousClock.now - started).inSeconds)
        }
        return Report(clips: clips)
    }

    /// Speech as a microphone in a quiet room would give it: at the recognizer's rate, with
    /// ``padding`` seconds of quiet around it and ``noiseFloor`` under all of it (the same noise
    /// for the same `seed`).
    package func heard(_ speech: SynthesizedSpeech, seed: UInt64 = 0) -> [Int16] {
        heard(AudioBuffer(int16: speech.samples, sampleRate: speech.sampleRate), seed: seed)
    }

    /// `speech` as ``heard(_:seed:)`` gives it, from audio at any rate.
    func heard(_ speech: AudioBuffer, seed: UInt64 = 0) -> [Int16] {
        let quiet = [Float](repeating: 0, count: Int(padding * Double(AudioFormat.recognizerSampleRate)))
        let voice = speech.resampled(to: AudioFormat.recognizerSampleRate).samples
        var generator = SplitMix64(seed: seed)
        let scale = Float(noiseFloor / (4.0 / 12).squareRoot())
        let samples = (quiet + voice + quiet).map { sample in sample + generator.nextSumOfFour() * scale }
        return AudioBuffer(samples: samples, sampleRate: AudioFormat.recognizerSampleRate).forRecognizer
    }

    /// Whether `heard` and `said` are the same words, or words that sound the same.
    static func sameWords(_ heard: String, _ said: String, recognizer: SpeechRecognizer) -> Bool {
        let heardWords = SpeechGrammar.spokenWords(heard)
        let saidWords = SpeechGrammar.spokenWords(said)
        guard heardWords.count == saidWords.count else { return false }
        return zip(heardWords, saidWords).allSatisfy { heard, said in
            heard == said
                || recognizer.pronunciation(of: heard).map { $0 == recognizer.pronunciation(of: said) }
                    == true
        }
    }
}
