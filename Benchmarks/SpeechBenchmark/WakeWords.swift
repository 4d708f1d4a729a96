import BenchmarkSupport
import Foundation
import PhraseMatching
import VoiceAudio
import VoiceEvaluation
import VoiceIntents
import VoiceRecognition
import VoiceSynthesis
import VoiceUnderstanding

/// The trained wake words (``WakeWordDetector``) against the spoken wake phrase's way of hearing:
/// false wakes on long stretches of speech and noise with no wake word in them, wake words heard
/// (a person's "hey mycroft", clean and in noise; eSpeak NG's, marked as such), and what the
/// detector costs per second of audio, with the standard front end as the baseline run in the
/// same process. Then the spoken wake phrase on the same audio, side by side.
enum WakeWords {
    static func run(phrases: URL) async throws {
        let models = WakeWordDetector.installedModels()
        guard !models.isEmpty else {
            print("no wake-word models are installed here (Scripts/bootstrap.sh installs them)")
            return
        }
        // Stretches with no wake word in them, each heard as one stream.
        var stretches: [(name: String, audio: [Int16])] = []
        func folder(_ path: URL, _ suffix: String = ".wav") throws -> [Int16] {
            var audio: [Int16] = []
            let names = try FileManager.default.contentsOfDirectory(atPath: path.path).filter {
                $0.hasSuffix(suffix)
            }
            for name in names.sorted() {
                audio += try WAVFile.read(from: path.appendingPathComponent(name)).resampled(to: 16_000)
                    .int16Samples
                audio += [Int16](repeating: 0, count: 8_000)
            }
            return audio
        }
        stretches.append(
            ("Rhasspy's commands (one person)", try folder(PeoplesRecordings.folder("rhasspy-test-en"))))
        stretches.append(
            (
                "speech-to-phrase's commands (one person)",
                try folder(PeoplesRecordings.folder("speech-to-phrase-en"))
            ))
        stretches.append(
            ("spoken digits (six people)", try folder(PeoplesRecordings.collected("spoken-digits"))))
        stretches.append(
            (
                "LibriVox sentences (Debian)",
                try folder(URL(fileURLWithPath: "/usr/share/pocketsphinx/test/data/librivox"))
            ))
        let noiseFolder = URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent(
            ".cache/voice-intents/noise")
        if let prompts = try Self.asteriskPrompts(cache: noiseFolder) {
            stretches.append(("Asterisk's prompts (one person)", prompts))
        }
        // The people's speech again, under babble and recorded rooms at 10 and 0 dB: other audio
        // than the clean speech, as a room gives it.
        let speech = stretches.map(\.audio)
        for noise in ["people-babble", "restaurant", "city-street"] {
            let url = noiseFolder.appendingPathComponent("\(noise).wav")
            guard FileManager.default.fileExists(atPath: url.path) else {
                print(
                    "(\(noise).wav is not in \(noiseFolder.path): Scripts/make-babble.sh and fetch-room-noise.sh make them)"
                )
                continue
            }
            stretches.append((noise, try WAVFile.read(from: url).resampled(to: 16_000).int16Samples))
        }
        stretches.append(("tones like music (made here)", Self.music(seconds: 120)))
        let mixer = NoiseMixer()
        for noise in ["people-babble", "restaurant", "city-street"] {
            let url = noiseFolder.appendingPathComponent("\(noise).wav")
            guard FileManager.default.fileExists(atPath: url.path) else { continue }
            let noiseSamples = try WAVFile.read(from: url).resampled(to: 16_000).samples
            for snr in [10.0, 0.0] {
                var mixed: [Int16] = []
                for audio in speech {
                    let floats = audio.map { Float($0) / 32_768 }
                    let under = (0..<floats.count).map { noiseSamples[$0 % noiseSamples.count] }
                    let noiseLevel = max(NoiseMixer.activeLevel(under), 1e-9)
                    let mix = NoiseMixer.mix(floats, under: under.map { $0 / noiseLevel }, snr: snr)
                    mixed += AudioBuffer(samples: mix, sampleRate: 16_000).int16Samples
                }
                stretches.append(("the speech under \(noise) at \(Int(snr)) dB", mixed))
            }
        }
        let total = stretches.reduce(0.0) { $0 + Double($1.audio.count) / 16_000 }
        print(
            String(
                format: "false wakes: %.1f minutes of speech and noise with no wake word in them", total / 60)
        )

        for model in models {
            let detector = try WakeWordDetector(model: model)
            var wakes: [String] = []
            var highest = 0.0
            for stretch in stretches {
                detector.reset()
                var start = 0
                while start < stretch.audio.count {
                    let end = min(stretch.audio.count, start + 1_600)
                    if detector.process(Array(stretch.audio[start..<end])) != nil {
                        wakes.append(String(format: "%@ at %.1f s", stretch.name, Double(start) / 16_000))
                    }
                    start = end
                }
                highest = max(highest, detector.highestMean)
            }
            print(
                String(
                    format:
                        "  %@: %d false wakes (%.1f an hour); highest sliding mean %.3f against its cutoff %.2f%@",
                    model.name, wakes.count, Double(wakes.count) / (total / 3_600), highest,
                    model.probabilityCutoff,
                    wakes.isEmpty ? "" : " — \(wakes.joined(separator: "; "))"))
        }

        // Wake words said: the person's "hey mycroft", clean and under noise; eSpeak NG's.
        print("wake words heard:")
        let take = try WAVFile.read(
            from: PeoplesRecordings.file("rhasspy-test-en", "wake/precise_turn_on_the_living_room_lamp.wav")
        ).resampled(to: 16_000).samples
        let takes = [(NoiseKind?, Double?)]([(nil, nil), (.pink, 10.0), (.pink, 5.0), (.white, 10.0)]).map {
            kind, snr in
            (
                label: kind.map { "\($0) \(Int(snr!)) dB" } ?? "clean",
                audio: kind.map { mixer.mix(take, $0, snr: snr!, seed: 3) } ?? take
            )
        }
        for model in models where model.name == "hey_mycroft" {
            let detector = try WakeWordDetector(model: model)
            var cells: [String] = []
            for (label, audio) in takes {
                detector.reset()
                let heard =
                    detector.process(AudioBuffer(samples: audio, sampleRate: 16_000).int16Samples) != nil
                cells.append("\(label) \(heard ? "heard" : "missed")")
            }
            print("  a person's \"hey mycroft\" (Rhasspy's take): \(cells.joined(separator: ", "))")
        }
        let voices = ["en-us", "en-us+f2", "en+m7", "en-us+m3", "en-us+f4"]
        for model in models {
            let detector = try WakeWordDetector(model: model)
            var heard = 0
            var heardInNoise = 0
            for voice in voices {
                let speech = try SpeechSynthesizer(voice: voice, rate: 160).speak(
                    "\(model.phrase), turn on the kitchen light")
                let samples = AudioBuffer(int16: speech.samples, sampleRate: speech.sampleRate).resampled(
                    to: 16_000
                )
                .samples
                let padded =
                    [Float](repeating: 0, count: 8_000) + samples + [Float](repeating: 0, count: 8_000)
                detector.reset()
                if detector.process(AudioBuffer(samples: padded, sampleRate: 16_000).int16Samples) != nil {
                    heard += 1
                }
                detector.reset()
                let noisy = mixer.mix(padded, .pink, snr: 10, seed: 5)
                if detector.process(AudioBuffer(samples: noisy, sampleRate: 16_000).int16Samples) != nil {
                    heardInNoise += 1
                }
            }
            print(
                "  eSpeak NG (\(voices.count) voices, not people) saying \"\(model.phrase)\": \(heard) heard clean, \(heardInNoise) in pink noise at 10 dB"
            )
        }

        try await spokenPhrase(
            stretches, minutes: total / 60,
            takes: takes.map { ($0.label, AudioBuffer(samples: $0.audio, sampleRate: 16_000).int16Samples) },
            phrases: phrases)

        // Cost per second of audio, in 100 ms chunks; the standard front end is the baseline.
        let audio = stretches[0].audio
        let seconds = Double(audio.count) / 16_000
        let clock = ContinuousClock()
        func cost(_ process: ([Int16]) -> Void) -> Double {
            let start = clock.now
            var index = 0
            while index < audio.count {
                process(Array(audio[index..<min(audio.count, index + 1_600)]))
                index += 1_600
            }
            return (clock.now - start).inSeconds / seconds
        }
        let frontEnd = try AudioFrontEnd(.standard)
        let baseline = cost { _ = frontEnd.process($0) }
        print(
            String(
                format: "cost (%.0f s of Rhasspy's commands): standard front end %.4f of real time", seconds,
                baseline))
        for model in models {
            let detector = try WakeWordDetector(model: model)
            let value = cost { _ = detector.process($0) }
            print(
                String(
                    format: "  %@: %.4f of real time, %.1f× the standard front end", model.name, value,
                    value / baseline))
        }
    }

    /// The spoken wake phrase (`listen --wake-phrase "hey mycroft"`) on the same stretches: the
    /// recognizer listening as the loop does, one stream a stretch, under HomeLights' commands
    /// after the phrase with the models' garbage path. A false wake is an utterance heard as the
    /// phrase (alone or before a command) at the models' bar or above: the loop would answer it.
    /// Then the person's take, clean and in noise.
    static func spokenPhrase(
        _ stretches: [(name: String, audio: [Int16])], minutes: Double, takes: [(String, [Int16])],
        phrases: URL
    ) async throws {
        let configuration = try SpeechRecognizer.Configuration.installed()
        let bar = configuration.minimumConfidence
        guard
            let house = try await Houses.commandsAndMatchers(phrases: phrases).first(where: {
                $0.name == "home-lights"
            })
        else { return }
        let grammar = SpeechGrammar(
            house.matcher.spokenForms, name: "home-lights", wakePhrase: "hey mycroft",
            garbage: configuration.garbagePath.model)
        let recognizer = try SpeechRecognizer(configuration)
        try recognizer.useGrammar(grammar)
        /// What `audio`, heard as one stream, was heard as.
        func heard(_ audio: [Int16]) throws -> [RecognitionResult] {
            recognizer.forgetChannel()
            var results: [RecognitionResult] = []
            var offset = 0
            while offset < audio.count {
                let result = try recognizer.listen(timeout: SpeechRecognizer.utteranceTimeout) {
                    () throws(SpeechError) -> [Int16]? in
                    guard offset < audio.count else { return nil }
                    defer { offset += 1_600 }
                    return Array(audio[offset..<min(offset + 1_600, audio.count)])
                }
                if let result { results.append(result) }
            }
            return results
        }
        func woken(_ result: RecognitionResult) -> Bool {
            SpeechGrammar.withoutHesitation(result.text).split(separator: " ").starts(with: [
                "hey", "mycroft",
            ])
                && (result.confidence?.value ?? 0) >= bar
        }
        print(
            String(
                format: "the spoken wake phrase \"hey mycroft\" (HomeLights' commands after it, bar %.2f):",
                bar))
        let clock = ContinuousClock()
        let began = clock.now
        var wakes: [String] = []
        for stretch in stretches {
            for result in try heard(stretch.audio) where woken(result) {
                wakes.append("\(stretch.name): \"\(result.text)\"")
            }
        }
        let cost = (clock.now - began).inSeconds / (minutes * 60)
        print(
            String(
                format: "  %d false wakes in %.1f minutes (%.1f an hour), listening at %.3f of real time%@",
                wakes.count, minutes, Double(wakes.count) / (minutes / 60), cost,
                wakes.isEmpty ? "" : " — \(wakes.joined(separator: "; "))"))
        var cells: [String] = []
        for (label, audio) in takes {
            let padded = [Int16](repeating: 0, count: 8_000) + audio + [Int16](repeating: 0, count: 8_000)
            let results = try heard(padded)
            cells.append("\(label) \(results.contains(where: woken) ? "heard" : "missed")")
        }
        print("  a person's \"hey mycroft\" (Rhasspy's take): \(cells.joined(separator: ", "))")
    }

    /// Asterisk's 568 spoken prompts (Debian's `asterisk-core-sounds-en-g722`), one after another
    /// at 16 kHz, decoded with ffmpeg once and kept in `cache`; `nil` when they are not installed.
    static func asteriskPrompts(cache: URL) throws -> [Int16]? {
        let folder = "/usr/share/asterisk/sounds/en_US_f_Allison"
        let kept = cache.appendingPathComponent("asterisk-prompts.wav")
        if !FileManager.default.fileExists(atPath: kept.path) {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return nil }
            try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
            let list = cache.appendingPathComponent("asterisk-prompts.txt")
            try names.filter { $0.hasSuffix(".g722") }.sorted().map { "file '\(folder)/\($0)'" }
                .joined(separator: "\n").write(to: list, atomically: true, encoding: .utf8)
            let ffmpeg = Process()
            ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
            ffmpeg.arguments = [
                "-loglevel", "error", "-y", "-f", "concat", "-safe", "0", "-i", list.path, "-ar", "16000",
                "-ac", "1",
                kept.path,
            ]
            try ffmpeg.run()
            ffmpeg.waitUntilExit()
            guard ffmpeg.terminationStatus == 0 else { return nil }
        }
        return try WAVFile.read(from: kept).resampled(to: 16_000).int16Samples
    }

    /// Something like music: chords of harmonic tones, a new one every half second, with a
    /// decaying envelope, at a level like speech's. Seeded, so every run hears the same.
    static func music(seconds: Int) -> [Int16] {
        var generator = SplitMix64(seed: 42)
        let rate = 16_000.0
        var samples = [Float](repeating: 0, count: seconds * 16_000)
        let note = 8_000
        for start in stride(from: 0, to: samples.count, by: note) {
            let roots = (0..<3).map { _ in 110 * pow(2, Double(generator.next() % 36) / 12) }
            for index in start..<min(samples.count, start + note) {
                let time = Double(index - start) / rate
                let envelope = exp(-3 * time)
                var value = 0.0
                for root in roots {
                    for harmonic in 1...4 {
                        value += sin(2 * .pi * root * Double(harmonic) * time) / Double(harmonic)
                    }
                }
                samples[index] = Float(value * envelope * 0.08)
            }
        }
        return AudioBuffer(samples: samples, sampleRate: 16_000).int16Samples
    }
}
