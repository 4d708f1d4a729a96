import BenchmarkSupport
import Foundation
import VoiceAudio
import VoiceEvaluation
import VoiceIntents
import VoiceRecognition

/// Prints and flushes: the run takes a quarter of an hour, and its figures show as they come.
private func print(_ text: String) {
    Swift.print(text)
    fflush(nil)
}

/// The check's margin chosen for one person from a dozen of their takes, as `calibrate
/// --wake-word` chooses it (``WakeWordCalibration/checkMargin(margins:)``), measured on people:
/// each contributor of the near-miss clips saying their phrase ("athena", "amelia", …) is a user
/// whose wake word that phrase is. Their first takes choose; their other takes, clean and under
/// people's babble at 10 dB, say what the margin keeps; `okay_nabu`'s wakes on all the near-miss
/// clips (people saying other words) say what it turns away. Speaker by speaker, so nothing is
/// chosen on what it is measured on.
enum PersonalWakeWord {
    static let rate = FalseWakes.rate

    /// The phrase each near-miss folder holds.
    static let phrases = [
        "amelia": "amelia", "athena": "athena", "computer": "computer", "heycomputer": "hey computer",
        "heychatterbox": "hey chatterbox",
    ]

    /// How many takes a user records (`record --wake-word`'s default).
    static let calibrationTakes = 12

    static func run() async throws {
        let cache = URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent(".cache/voice-intents")
        let folder = cache.appendingPathComponent("false-wakes/near-misses")
        let babbleFile = cache.appendingPathComponent("noise/people-babble.wav")
        guard FileManager.default.fileExists(atPath: folder.path),
            FileManager.default.fileExists(atPath: babbleFile.path)
        else {
            throw BenchmarkFailure(
                "no \(folder.path) or \(babbleFile.path): run Scripts/false-wake-audio.sh first (it reads \(SharedData.variable))"
            )
        }
        let clock = ContinuousClock()
        let began = clock.now
        let babble = try WAVFile.read(from: babbleFile).resampled(to: rate).samples
        let speakers = try FalseWakes.contributors()
        let recognizer = try SpeechRecognizer(SpeechRecognizer.Configuration.installed())
        let pad = [Int16](repeating: 0, count: FalseWakes.gap / 2)

        // Every clip's margin for its own phrase, clean and under babble.
        struct Clip {
            let speaker: String
            let word: String
            let clean: Double
            /// Under people's babble at 10 dB.
            let noisy: Double
            /// Under eSpeak NG's babble at 10 dB, as `calibrate --wake-word --snr clean,10 --noise
            /// babble` makes its copies.
            let synthetic: Double
        }
        let mixer = NoiseMixer(babble: try SpokenEvaluation().babbleTrack())
        var clips: [Clip] = []
        var stretches: [FalseWakes.Stretch] = []
        for word in phrases.keys.sorted() {
            let files = try FalseWakes.wavs(in: folder.appendingPathComponent(word))
            let stretch = FalseWakes.joined(word, .nearMisses, files.map(\.audio))
            stretches.append(stretch)
            let noisy = FalseWakes.under(stretch, noise: babble, snr: 10, seed: 300 + UInt64(clips.count))
            stretches.append(noisy)
            let check = WakeWordCheck(phrase: phrases[word]!)
            for (index, file) in files.enumerated() {
                let range = stretch.clips[index]
                recognizer.forgetChannel()
                let clean = try recognizer.check(pad + file.audio + pad, wakeWord: check).margin
                recognizer.forgetChannel()
                let mixed = try recognizer.check(pad + Array(noisy.audio[range]) + pad, wakeWord: check)
                    .margin
                let padded = (pad + file.audio + pad).map { Float($0) / 32_768 }
                let copy = AudioBuffer(
                    samples: NoiseMixer.belowClipping(
                        mixer.mix(padded, .babble, snr: 10, seed: UInt64(index))),
                    sampleRate: rate
                ).int16Samples
                recognizer.forgetChannel()
                let synthetic = try recognizer.check(copy, wakeWord: check).margin
                clips.append(
                    Clip(
                        speaker: speakers[file.name] ?? "unknown", word: word, clean: clean, noisy: mixed,
                        synthetic: synthetic))
            }
            print(
                String(
                    format: "%@: %d clips checked (%.0f s so far)", word, files.count,
                    (clock.now - began).inSeconds))
        }

        // `okay_nabu`'s wakes on the near-miss clips, clean and under babble, and the check's
        // margin at each, for its own phrase.
        let model = try WakeWordDetector.model(named: "okay_nabu", among: WakeWordDetector.installedModels())
        let detector = try WakeWordDetector(model: model)
        let check = WakeWordCheck(phrase: model.phrase)
        var nearMissMargins: [Double] = []
        for stretch in stretches {
            let trace = detector.probabilities(of: stretch.audio)
            for index in FalseWakes.wakes(trace, window: model.slidingWindow, cutoff: model.probabilityCutoff)
            {
                recognizer.forgetChannel()
                nearMissMargins.append(
                    try recognizer.check(
                        FalseWakes.window(stretch.audio, at: trace[index].end), wakeWord: check
                    )
                    .margin)
            }
        }
        let nearMissTakes = stretches.reduce(0) { $0 + $1.clips.count }
        print(
            String(
                format:
                    "okay_nabu (cutoff %.2f) wakes %d times on the %d near-miss takes (clean and under babble)",
                model.probabilityCutoff, nearMissMargins.count, nearMissTakes))

        // Users: a speaker saying one phrase, with enough takes to choose on and test on.
        let groups = Dictionary(grouping: clips) { "\($0.speaker) \"\(phrases[$0.word]!)\"" }
            .filter { $0.value.count >= 2 * calibrationTakes }.sorted { $0.key < $1.key }
        func share(_ values: [Double], _ minimum: Double?) -> Double {
            guard let minimum else { return 1 }
            return Double(values.filter { $0 >= minimum }.count) / Double(max(values.count, 1))
        }
        func woken(_ minimum: Double?) -> Int {
            minimum.map { m in nearMissMargins.filter { $0 >= m }.count } ?? nearMissMargins.count
        }
        print(
            "\nthe check's margin chosen on a user's first \(calibrationTakes) takes (calibrate --wake-word, headroom \(String(format: "%.0f", WakeWordCalibration.marginHeadroom))); their other takes kept; okay_nabu's wakes on near-misses let through (of \(nearMissMargins.count))"
        )
        print(
            "| user | takes | chosen on | margin | other takes kept, clean | under people's babble 10 dB | near-miss wakes let through |"
        )
        print("|---|---|---|---|---|---|---|")
        var rows: [(chosenOn: String, margin: Double?, clean: Double, noisy: Double, woken: Int)] = []
        for (user, takes) in groups {
            let first = Array(takes.prefix(calibrationTakes))
            let rest = Array(takes.dropFirst(calibrationTakes))
            for (label, margins) in [
                ("clean takes", first.map(\.clean)),
                ("clean + people's babble copies", first.map(\.clean) + first.map(\.noisy)),
                ("clean + eSpeak NG babble copies", first.map(\.clean) + first.map(\.synthetic)),
            ] {
                let margin = WakeWordCalibration.checkMargin(margins: margins.filter(\.isFinite))
                let clean = share(rest.map(\.clean), margin)
                let noisy = share(rest.map(\.noisy), margin)
                rows.append((label, margin, clean, noisy, woken(margin)))
                print(
                    String(
                        format: "| %@ | %d | %@ | %@ | %.1f%% | %.1f%% | %d |", user, takes.count, label,
                        margin.map { String(format: "%.0f", $0) } ?? "off", 100 * clean, 100 * noisy,
                        woken(margin)))
            }
        }
        // The standard margin, for comparison, on the same held-out takes.
        for (user, takes) in groups {
            let rest = Array(takes.dropFirst(calibrationTakes))
            let standard = WakeWordCheck.standardMargin
            print(
                String(
                    format: "| %@ | %d | (the standard margin) | %.0f | %.1f%% | %.1f%% | %d |", user,
                    takes.count,
                    standard, 100 * share(rest.map(\.clean), standard),
                    100 * share(rest.map(\.noisy), standard),
                    woken(standard)))
        }

        // The headroom, as it moves: what a margin chosen with it keeps of the users' other
        // takes, on average over users, and lets through of the near-misses.
        print(
            "\nheadroom (chosen on clean + eSpeak NG babble copies, as calibrate's default): mean over users of other takes kept, clean / babble; near-miss wakes let through, mean"
        )
        print(
            "| headroom | kept clean | kept under people's babble | near-miss wakes let through | users with the check on |"
        )
        print("|---|---|---|---|---|")
        for headroom in [0.0, 5, 10, 15, 20, 30] {
            var clean = 0.0
            var noisy = 0.0
            var through = 0.0
            var on = 0
            for (_, takes) in groups {
                let first = Array(takes.prefix(calibrationTakes))
                let rest = Array(takes.dropFirst(calibrationTakes))
                let margin = WakeWordCalibration.checkMargin(
                    margins: (first.map(\.clean) + first.map(\.synthetic)).filter(\.isFinite),
                    headroom: headroom)
                if margin != nil { on += 1 }
                clean += share(rest.map(\.clean), margin)
                noisy += share(rest.map(\.noisy), margin)
                through += Double(woken(margin))
            }
            let users = Double(max(groups.count, 1))
            print(
                String(
                    format: "| %.0f | %.1f%% | %.1f%% | %.1f | %d of %d |", headroom, 100 * clean / users,
                    100 * noisy / users, through / users, on, groups.count))
        }
        print(String(format: "(%.0f s in all)", (clock.now - began).inSeconds))
    }
}
