import BenchmarkSupport
import Foundation
import VoiceAudio
import VoiceEvaluation
import VoiceIntents
import VoiceRecognition
import VoiceSynthesis

/// Prints and flushes: the run takes the better part of an hour, and its figures show as they come,
/// also into a file.
private func print(_ text: String) {
    Swift.print(text)
    fflush(nil)
}

/// False wakes as the field counts them: wakes per hour of audio with no wake word in it, for each
/// trained wake-word model, at its own cutoff and as the cutoff moves, with and without the
/// recognizer's second check (``WakeWordCheck``); near-misses (people saying other wake words)
/// apart; and what each setting misses of wake words said.
///
/// The audio is what `Scripts/false-wake-audio.sh` gathers (people's speech, near-misses, music,
/// synthesized speech) and the room noises of `fetch-room-noise.sh` and `make-babble.sh`; people's
/// speech is heard again under babble, a restaurant, a street and music. Each stretch is one
/// stream. Wake words said: eSpeak NG in many voices (not people: marked so), and Rhasspy's one
/// person saying "hey mycroft". The check's own misses on people: the near-miss clips checked
/// for their own phrase ("athena" for "athena").
enum FalseWakes {
    /// What a stretch of audio is, for the table's rows.
    enum Group: String, CaseIterable {
        case nearMisses = "near-misses: people saying other wake words"
        case people = "people's speech"
        case peopleInNoise = "people's speech in noise"
        case music = "music"
        case noise = "noise and babble"
        case synthesized = "synthesized speech (eSpeak NG, not people)"
    }

    /// One stream of audio with no wake word in it.
    struct Stretch {
        let name: String
        let group: Group
        let audio: [Int16]
        /// Where each clip is, for counting the clips woken (near-misses).
        var clips: [Range<Int>] = []
        /// The clips' names, where they have them.
        var names: [String] = []
        var seconds: Double { Double(audio.count) / 16_000 }
    }

    static let rate = 16_000
    static let gap = 8_000

    static func run(output: URL?) async throws {
        let models = WakeWordDetector.installedModels()
        guard !models.isEmpty else { throw BenchmarkFailure(WakeWordDetector.noneInstalled.description) }
        let cache = URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent(".cache/voice-intents")
        let folder = cache.appendingPathComponent("false-wakes")
        let noiseFolder = cache.appendingPathComponent("noise")
        guard FileManager.default.fileExists(atPath: folder.appendingPathComponent("an4").path) else {
            throw BenchmarkFailure(
                "no audio in \(folder.path): run Scripts/false-wake-audio.sh first (it reads \(SharedData.variable))"
            )
        }
        let clock = ContinuousClock()
        let began = clock.now

        // Clean stretches.
        var stretches: [Stretch] = []
        let nearMissWords = ["amelia", "athena", "computer", "heycomputer", "heychatterbox"]
        var nearMissClips: [(word: String, name: String, audio: [Int16])] = []
        for word in nearMissWords {
            let clips = try wavs(in: folder.appendingPathComponent("near-misses/\(word)"))
            nearMissClips += clips.map { (word, $0.name, $0.audio) }
            var stretch = joined("\"\(word)\"", .nearMisses, clips.map(\.audio))
            stretch.names = clips.map(\.name)
            stretches.append(stretch)
        }
        let otherWords = try wavs(in: folder.appendingPathComponent("other-words")).map(\.audio)
        let an4 = try wavs(in: folder.appendingPathComponent("an4")).map(\.audio)
        let asterisk = try WakeWords.asteriskPrompts(cache: noiseFolder).map { [$0] } ?? []
        var commands: [[Int16]] = []
        for set in ["rhasspy-test-en", "speech-to-phrase-en"] {
            commands += try wavs(in: PeoplesRecordings.folder(set)).map(\.audio)
        }
        let librivox = try wavs(in: URL(fileURLWithPath: "/usr/share/pocketsphinx/test/data/librivox")).map(
            \.audio)
        let peoplesSpeech: [(String, [[Int16]])] = [
            ("other words and sentences (Precise's contributors)", otherWords),
            ("AN4 (84 people)", an4), ("Asterisk's prompts (one person)", asterisk),
            ("Rhasspy's and speech-to-phrase's commands", commands), ("LibriVox (Debian)", librivox),
        ]
        for (name, clips) in peoplesSpeech where !clips.isEmpty {
            stretches.append(joined(name, .people, clips))
        }
        let music = try wavs(in: folder.appendingPathComponent("music"))
        stretches.append(joined("hold music and game soundtracks", .music, music.map(\.audio)))
        for synthesized in try wavs(in: folder.appendingPathComponent("synthesized")) {
            stretches.append(joined(synthesized.name, .synthesized, [synthesized.audio]))
        }
        // Noise alone, and babble of AN4's people four at a time.
        var noises: [String: [Float]] = [:]
        for name in ["people-babble", "restaurant", "city-street", "rain", "machine-hum"] {
            let url = noiseFolder.appendingPathComponent("\(name).wav")
            guard FileManager.default.fileExists(atPath: url.path) else {
                throw BenchmarkFailure("no \(url.path): run Scripts/false-wake-audio.sh first")
            }
            noises[name] = try WAVFile.read(from: url).resampled(to: rate).samples
            stretches.append(
                Stretch(
                    name: name, group: .noise,
                    audio: AudioBuffer(samples: noises[name]!, sampleRate: rate).int16Samples))
        }
        let an4Babble = babble(of: an4, talkers: 4, seconds: 900)
        stretches.append(Stretch(name: "AN4 babble (four people at once)", group: .noise, audio: an4Babble))
        noises["an4-babble"] = an4Babble.map { Float($0) / 32_768 }

        // People's speech under noise, and the near-misses under babble.
        let speech = otherWords + an4 + asterisk + commands
        let mixes: [(noise: String, snr: Double)] = [
            ("an4-babble", 10), ("restaurant", 10), ("city-street", 0), ("music", 5),
        ]
        noises["music"] = music.flatMap(\.audio).map { Float($0) / 32_768 }
        var mixed: [Stretch] = []
        for (noise, snr) in mixes {
            mixed.append(
                under(
                    joined("people's speech under \(noise) at \(Int(snr)) dB", .peopleInNoise, speech),
                    noise: noises[noise]!, snr: snr, seed: UInt64(mixed.count + 1)))
        }
        for (index, stretch) in stretches.enumerated() where stretch.group == .nearMisses {
            var noisy = under(stretch, noise: noises["people-babble"]!, snr: 10, seed: UInt64(100 + index))
            noisy = Stretch(
                name: "\(stretch.name) under people's babble at 10 dB", group: .nearMisses,
                audio: noisy.audio,
                clips: stretch.clips)
            mixed.append(noisy)
        }
        stretches += mixed
        let hours = stretches.reduce(0) { $0 + $1.seconds } / 3_600
        print(
            String(
                format: "false wakes: %.1f hours of audio with no wake word in it (%.0f s to gather)", hours,
                (clock.now - began).inSeconds))
        for group in Group.allCases {
            let seconds = stretches.filter { $0.group == group }.reduce(0) { $0 + $1.seconds }
            print(String(format: "  %@: %.2f hours", group.rawValue, seconds / 3_600))
        }
        let positives = try wakeWordsSaid(models: models, noises: noises)
        try measure(
            models: models, stretches: stretches, positives: positives, nearMissClips: nearMissClips,
            output: output)
        print(String(format: "(%.0f s in all)", (clock.now - began).inSeconds))
    }

    // MARK: - Audio

    /// Every WAV in `folder`, by name, at 16 kHz.
    static func wavs(in folder: URL) throws -> [(name: String, audio: [Int16])] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            $0.hasSuffix(".wav")
        }.sorted()
        return try names.map { name in
            (
                String(name.dropLast(4)),
                try WAVFile.read(from: folder.appendingPathComponent(name)).resampled(to: rate)
                    .int16Samples
            )
        }
    }

    /// `clips` one after another, half a second of silence after each.
    static func joined(_ name: String, _ group: Group, _ clips: [[Int16]]) -> Stretch {
        var audio: [Int16] = []
        var ranges: [Range<Int>] = []
        audio.reserveCapacity(clips.reduce(0) { $0 + $1.count + gap })
        for clip in clips {
            ranges.append(audio.count..<(audio.count + clip.count))
            audio += clip
            audio += [Int16](repeating: 0, count: gap)
        }
        return Stretch(name: name, group: group, audio: audio, clips: ranges)
    }

    /// `stretch` with `noise` under it throughout, `snr` dB below each clip's active level (the
    /// silence after a clip gets the clip's noise level), from an offset drawn from `seed`.
    static func under(_ stretch: Stretch, noise: [Float], snr: Double, seed: UInt64) -> Stretch {
        var generator = SplitMix64(seed: seed)
        let level = max(NoiseMixer.activeLevel(noise), 1e-9)
        let offset = Int(generator.next() % UInt64(noise.count))
        var audio = stretch.audio.map { Float($0) / 32_768 }
        let ranges = stretch.clips.isEmpty ? [0..<audio.count] : stretch.clips
        for (index, clip) in ranges.enumerated() {
            let gain =
                NoiseMixer.activeLevel(Array(audio[clip])) / level / Float(pow(10, snr / 20))
            let end = index + 1 < ranges.count ? ranges[index + 1].lowerBound : audio.count
            for sample in clip.lowerBound..<end {
                audio[sample] = min(1, max(-1, audio[sample] + noise[(offset + sample) % noise.count] * gain))
            }
        }
        return Stretch(
            name: stretch.name, group: stretch.group,
            audio: AudioBuffer(samples: audio, sampleRate: rate).int16Samples, clips: stretch.clips)
    }

    /// `talkers` streams of `clips` at once (each its own order and start), `seconds` long,
    /// each talker at the same level.
    static func babble(of clips: [[Int16]], talkers: Int, seconds: Int) -> [Int16] {
        let count = seconds * rate
        var sum = [Float](repeating: 0, count: count)
        var generator = SplitMix64(seed: 7)
        for _ in 0..<talkers {
            var position = Int(generator.next() % UInt64(rate * 3))
            while position < count {
                let clip = clips[Int(generator.next() % UInt64(clips.count))]
                let floats = clip.map { Float($0) / 32_768 }
                let gain = 0.1 / max(NoiseMixer.activeLevel(floats), 1e-6)
                for (index, sample) in floats.enumerated() where position + index < count {
                    sum[position + index] += sample * gain
                }
                position += clip.count + Int(generator.next() % UInt64(rate / 4))
            }
        }
        return AudioBuffer(samples: NoiseMixer.belowClipping(sum), sampleRate: rate).int16Samples
    }

    // MARK: - Measuring

    /// Two seconds: after a wake the loop hears the command, not the wake word.
    static let refractory = 2 * rate

    /// The cutoffs the sweep tries, with each model's own added.
    static let cutoffs = [0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.93, 0.95, 0.97, 0.98, 0.99]
    /// The margins the check is tried at.
    static let margins = [0.0, -10.0, -20.0, -30.0, -40.0, -50.0, -60.0, -80.0]

    /// Where the detector wakes in its probabilities at `cutoff`: the indices of the runs at which
    /// the mean of the last `window` went over it, the window starting afresh ``refractory``
    /// samples after each (the loop is listening for a command then; ``WakeWordDetector`` also
    /// resets the model's own state).
    static func wakes(_ probabilities: [(end: Int, probability: Float)], window: Int, cutoff: Double) -> [Int]
    {
        var wakes: [Int] = []
        var sum: Float = 0
        var count = 0
        var quietUntil = 0
        for index in probabilities.indices {
            // After a wake the loop listens for the command, not for the word.
            if probabilities[index].end < quietUntil { continue }
            sum += probabilities[index].probability
            count += 1
            if count > window {
                sum -= probabilities[index - window].probability
                count = window
            }
            if count == window, Double(sum / Float(window)) > cutoff {
                wakes.append(index)
                sum = 0
                count = 0
                quietUntil = probabilities[index].end + refractory
            }
        }
        return wakes
    }

    /// The audio the check hears for a wake at sample `end` of `audio`.
    static func window(_ audio: [Int16], at end: Int) -> [Int16] {
        let from = max(0, end - Int(WakeWordCheck.secondsBefore * Double(rate)))
        let to = min(audio.count, end + Int(WakeWordCheck.secondsAfter * Double(rate)))
        return Array(audio[from..<to])
    }

    /// A wake word said, with a command after it.
    struct Take {
        let label: String
        let model: String
        let isPerson: Bool
        let audio: [Int16]
    }

    /// Each model's phrase said by eSpeak NG in eight voices at two rates, then a command, clean
    /// and under AN4 babble and the restaurant at 10 dB; and Rhasspy's person's "hey mycroft".
    static func wakeWordsSaid(models: [WakeWordDetector.Model], noises: [String: [Float]]) throws -> [Take] {
        let voices = [
            "en-us", "en-us+f2", "en+m7", "en-us+m3", "en-us+f4", "en-us+f3", "en-us+m1", "en-us+m6",
        ]
        var takes: [Take] = []
        func conditions(_ label: String, _ model: String, person: Bool, _ samples: [Int16]) {
            let padded = [Int16](repeating: 0, count: gap) + samples + [Int16](repeating: 0, count: gap)
            let clean = Stretch(
                name: label, group: .people, audio: padded, clips: [gap..<(gap + samples.count)])
            takes.append(Take(label: "\(label), clean", model: model, isPerson: person, audio: padded))
            for (noise, seed) in [("an4-babble", 11), ("restaurant", 12)] {
                let noisy = under(clean, noise: noises[noise]!, snr: 10, seed: UInt64(seed + takes.count))
                takes.append(
                    Take(
                        label: "\(label), \(noise) 10 dB", model: model, isPerson: person, audio: noisy.audio)
                )
            }
        }
        for model in models {
            for voice in voices {
                for speed in [140, 175] {
                    let speech = try SpeechSynthesizer(voice: voice, rate: speed).speak(
                        "\(model.phrase), turn on the kitchen light")
                    let samples = AudioBuffer(int16: speech.samples, sampleRate: speech.sampleRate)
                        .resampled(to: rate).int16Samples
                    conditions("eSpeak NG \(voice) at \(speed)", model.name, person: false, samples)
                }
            }
        }
        let person = try WAVFile.read(
            from: PeoplesRecordings.file("rhasspy-test-en", "wake/precise_turn_on_the_living_room_lamp.wav")
        ).resampled(to: rate).int16Samples
        conditions("a person (Rhasspy's)", "hey_mycroft", person: true, person)
        return takes
    }

    static func measure(
        models: [WakeWordDetector.Model], stretches: [Stretch], positives: [Take],
        nearMissClips: [(word: String, name: String, audio: [Int16])], output: URL?
    ) throws {
        let clock = ContinuousClock()
        let recognizer = try SpeechRecognizer(SpeechRecognizer.Configuration.installed())
        let hours = { (group: Group?) in
            stretches.filter { group == nil ? $0.group != .nearMisses : $0.group == group }
                .reduce(0) { $0 + $1.seconds } / 3_600
        }
        let otherHours = hours(nil)
        var curves: [(model: String, checked: Bool, points: [(falseWakes: Double, missed: Double)])] = []

        // The check's own misses on people first: it chooses the margin.
        let kept = try checkOnPeople(nearMissClips, recognizer: recognizer)
        // The check as `listen --wake-word-check` runs it.
        let checkMargin = WakeWordCheck.standardMargin
        var nearMissCurves: [(model: String, points: [(margin: Double, woken: Double)])] = []

        for model in models {
            var modelSeconds = 0.0
            let detector = try WakeWordDetector(model: model)
            let check = WakeWordCheck(phrase: model.phrase, minimumMargin: checkMargin)
            var traces: [[(end: Int, probability: Float)]] = []
            var exact = 0
            for stretch in stretches {
                traces.append(detector.probabilities(of: stretch.audio))
                detector.reset()
                var start = 0
                let started = clock.now
                defer { modelSeconds += (clock.now - started).inSeconds }
                while start < stretch.audio.count, stretch.group != .nearMisses {
                    let end = min(stretch.audio.count, start + 1_600)
                    if detector.process(Array(stretch.audio[start..<end])) != nil {
                        exact += 1
                        // The loop listens for the command now, then for the word afresh.
                        start = end + refractory
                        detector.reset()
                        continue
                    }
                    start = end
                }
            }
            // The check's margin at every wake the lowest cutoff makes; a wake at a higher cutoff
            // takes the margin of the nearest one at or before it.
            var found: [[(index: Int, margin: Double)]] = []
            var checks = 0
            let checkStarted = clock.now
            for (trace, stretch) in zip(traces, stretches) {
                recognizer.forgetChannel()
                var here: [(index: Int, margin: Double)] = []
                for index in wakes(trace, window: model.slidingWindow, cutoff: cutoffs[0]) {
                    let verdict = try recognizer.check(
                        window(stretch.audio, at: trace[index].end), wakeWord: check)
                    here.append((index, verdict.margin))
                    checks += 1
                }
                found.append(here)
            }
            let checkSeconds = (clock.now - checkStarted).inSeconds
            func margin(_ stretch: Int, _ index: Int) -> Double {
                found[stretch].last { $0.index <= index }?.margin ?? -.infinity
            }
            /// Wakes outside the near-misses, and near-miss clips woken, at `cutoff`, with the
            /// check at `minimum` (none: `nil`).
            func count(_ cutoff: Double, _ minimum: Double?) -> (
                other: Int, byGroup: [Group: Int], clips: Int, woken: [String]
            ) {
                var other = 0
                var byGroup: [Group: Int] = [:]
                var clips = 0
                var woken: [String] = []
                for (number, stretch) in stretches.enumerated() {
                    let found = wakes(traces[number], window: model.slidingWindow, cutoff: cutoff).filter {
                        minimum == nil || margin(number, $0) >= minimum!
                    }
                    if stretch.group == .nearMisses {
                        let ends = found.map { traces[number][$0].end }
                        let hit = stretch.clips.indices.filter { clip in
                            ends.contains {
                                $0 >= stretch.clips[clip].lowerBound
                                    && $0 < stretch.clips[clip].upperBound + gap
                            }
                        }
                        clips += hit.count
                        if !stretch.names.isEmpty { woken += hit.map { stretch.names[$0] } }
                    } else {
                        other += found.count
                        byGroup[stretch.group, default: 0] += found.count
                    }
                }
                return (other, byGroup, clips, woken)
            }
            // The wake words said, at each cutoff.
            let said = positives.filter { $0.model == model.name }
            var saidMargins: [String: [(index: Int, margin: Double)]] = [:]
            // Each take's probabilities, once: every row of the sweep reads them.
            let saidTraces = Dictionary(
                uniqueKeysWithValues: said.map { ($0.label, detector.probabilities(of: $0.audio)) })
            func heard(_ take: Take, _ cutoff: Double, _ minimum: Double?) throws -> Bool {
                let trace = saidTraces[take.label]!
                guard let index = wakes(trace, window: model.slidingWindow, cutoff: cutoff).first else {
                    return false
                }
                guard let minimum else { return true }
                if let known = saidMargins[take.label]?.first(where: { $0.index == index }) {
                    return known.margin >= minimum
                }
                recognizer.forgetChannel()
                let verdict = try recognizer.check(window(take.audio, at: trace[index].end), wakeWord: check)
                saidMargins[take.label, default: []].append((index, verdict.margin))
                return verdict.margin >= minimum
            }
            let nearMissTakes = stretches.filter { $0.group == .nearMisses }.reduce(0) { $0 + $1.clips.count }
            print(
                String(
                    format:
                        "\n%@ (cutoff %.2f, window %d): %d false wakes in %.1f hours heard as the loop hears (%.2f an hour); model %.4f of real time, %d checks in %.0f s",
                    model.name, model.probabilityCutoff, model.slidingWindow, exact, otherHours,
                    Double(exact) / otherHours,
                    modelSeconds / (otherHours * 3_600), checks, checkSeconds))
            print(
                "| cutoff | check | false wakes an hour | near-miss takes woken | eSpeak NG takes missed | the person's takes missed |"
            )
            print("|---|---|---|---|---|---|")
            for checked in [false, true] {
                var points: [(falseWakes: Double, missed: Double)] = []
                for cutoff in Set(cutoffs + [model.probabilityCutoff]).sorted() {
                    let minimum = checked ? checkMargin : nil
                    let counted = count(cutoff, minimum)
                    let synthetic = said.filter { !$0.isPerson }
                    let people = said.filter(\.isPerson)
                    let missedSynthetic = try synthetic.filter { try !heard($0, cutoff, minimum) }.count
                    let missedPeople = try people.filter { try !heard($0, cutoff, minimum) }.count
                    let perHour = Double(counted.other) / otherHours
                    points.append((perHour, Double(missedSynthetic) / Double(max(synthetic.count, 1))))
                    let row = String(
                        format: "| %.2f%@ | %@ | %.2f (%d) | %d of %d | %d of %d | %@ |", cutoff,
                        cutoff == model.probabilityCutoff ? " (its own)" : "",
                        checked ? String(format: "%.0f", checkMargin) : "none",
                        perHour, counted.other, counted.clips, nearMissTakes, missedSynthetic,
                        synthetic.count,
                        people.isEmpty ? "—" : "\(missedPeople) of \(people.count)")
                    print(row)
                    if cutoff == model.probabilityCutoff {
                        let groups = Group.allCases.filter { $0 != .nearMisses }.map {
                            String(
                                format: "%@ %.2f", $0.rawValue, Double(counted.byGroup[$0] ?? 0) / hours($0))
                        }
                        print("|  | by group, an hour: \(groups.joined(separator: "; ")) | | | | |")
                        print(
                            "|  | clean near-misses woken: \(counted.woken.joined(separator: " ")) | | | | |")
                    }
                }
                curves.append((model.name, checked, points))
            }
            // The check's margins, at the model's own cutoff.
            var points: [(margin: Double, woken: Double)] = []
            for minimum in margins {
                let counted = count(model.probabilityCutoff, minimum)
                points.append((minimum, Double(counted.clips) / Double(max(nearMissTakes, 1))))
                print(
                    String(
                        format: "  check at %.0f: %.2f false wakes an hour, %d of %d near-miss takes",
                        minimum,
                        Double(counted.other) / otherHours, counted.clips, nearMissTakes))
            }
            nearMissCurves.append((model.name, points))
        }
        if let output {
            try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
            let plot = output.appendingPathComponent("false-wakes.svg")
            try plotCurves(curves, hours: otherHours).write(to: plot, atomically: true, encoding: .utf8)
            print("\nwrote \(plot.path)")
            let tradeOff = output.appendingPathComponent("wake-word-check.svg")
            try plotCheck(kept, nearMissCurves).write(to: tradeOff, atomically: true, encoding: .utf8)
            print("wrote \(tradeOff.path)")
        }
    }

    /// The contributor whose takes choose the check's margin: "athena", "hey chatterbox" and
    /// some of "computer" and "hey computer"; the others ("amelia", most of "computer") test it.
    static let tuningSpeaker = "el-tocino"

    /// Who said each near-miss clip, by file name without its extension, from the contributors'
    /// waivers in `wake-word-negatives/licenses/`, which list their files.
    static func contributors() throws -> [String: String] {
        let folder = try SharedData.require("wake-word-negatives/licenses")
        var speakers: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path)
        where name.hasPrefix("license-2") {
            let lines = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
                .split(whereSeparator: \.isNewline)
            guard let first = lines.first, first.hasPrefix("I, ") else { continue }
            let speaker = first.dropFirst(3).prefix { $0 != " " && $0 != "," }
            for line in lines where line.hasSuffix(".wav") || line.hasSuffix(".flac") {
                let file = line.split(separator: "/").last!
                speakers[String(file.prefix { $0 != "." })] = String(speaker)
            }
        }
        return speakers
    }

    /// The check's margins on people saying a phrase (the near-miss clips, each checked for its
    /// own phrase): how many of a person's own phrase it keeps as the margin moves (what it lets
    /// through of other phrases is the false wakes, measured with each model).
    /// Speaker-disjoint, in two folds, it prints the highest margin that keeps 99% of one
    /// contributor's clips (``tuningSpeaker``) and what that keeps of the others', and the other
    /// way round. Returns the share kept at each of ``margins``, on each side.
    static func checkOnPeople(
        _ clips: [(word: String, name: String, audio: [Int16])], recognizer: SpeechRecognizer
    ) throws -> [(margin: Double, one: Double, others: Double)] {
        let phrases = [
            "amelia": "amelia", "athena": "athena", "computer": "computer", "heycomputer": "hey computer",
            "heychatterbox": "hey chatterbox",
        ]
        var own: [(tuning: Bool, margin: Double)] = []
        let clock = ContinuousClock()
        let began = clock.now
        let speakers = try contributors()
        for clip in clips {
            // Speaker-disjoint: one contributor's takes (most of them) choose, the others' test.
            let tuning = speakers[clip.name] == tuningSpeaker
            let padded =
                [Int16](repeating: 0, count: gap / 2) + clip.audio + [Int16](repeating: 0, count: gap / 2)
            recognizer.forgetChannel()
            own.append(
                (
                    tuning,
                    try recognizer.check(padded, wakeWord: WakeWordCheck(phrase: phrases[clip.word]!)).margin
                ))
        }
        let seconds = (clock.now - began).inSeconds
        /// The highest margin that keeps 99% of one side's clips.
        func chosen(_ tuning: Bool) -> Double {
            let margins = own.filter { $0.tuning == tuning }.map(\.margin).sorted()
            return margins[Int(Double(margins.count) * 0.01)]
        }
        func share(_ values: [(tuning: Bool, margin: Double)], _ tuning: Bool, _ minimum: Double) -> Double {
            let part = values.filter { $0.tuning == tuning }
            return Double(part.filter { $0.margin >= minimum }.count) / Double(max(part.count, 1))
        }
        // Two folds, speaker-disjoint: one contributor's clips choose and the others' test, then
        // the other way round.
        let folds = (chosen(true), chosen(false))
        let margin = WakeWordCheck.standardMargin
        print(
            String(
                format:
                    "\nthe check on people (%d clips of five phrases, each checked for its own phrase; %.3f s a check): %d clips of one contributor, %d of the others",
                clips.count, seconds / Double(own.count), own.filter(\.tuning).count,
                own.filter { !$0.tuning }.count))
        print(
            String(
                format:
                    "  chosen on the one contributor (99%% kept): %.1f, keeping %.1f%% of the others' clips; chosen on the others: %.1f, keeping %.1f%% of the one's; --wake-word-check asks for %.1f",
                folds.0, 100 * share(own, false, folds.0), folds.1, 100 * share(own, true, folds.1),
                WakeWordCheck.standardMargin))
        for word in Set(clips.map(\.word)).sorted() {
            let margins = zip(clips, own).filter { $0.0.word == word }.map(\.1.margin).sorted()
            print(
                String(
                    format: "  \"%@\" (%d clips): margins 1st percentile %.1f, 10th %.1f, median %.1f", word,
                    margins.count, margins[Int(Double(margins.count) * 0.01)],
                    margins[Int(Double(margins.count) * 0.1)],
                    margins[margins.count / 2]))
        }
        print("| margin | own phrase kept (the one contributor / the others) |")
        print("|---|---|")
        for minimum in Set(margins + [margin]).sorted(by: >) {
            print(
                String(
                    format: "| %.1f%@ | %.1f%% / %.1f%% |", minimum,
                    minimum == margin ? " (the check's)" : "",
                    100 * share(own, true, minimum), 100 * share(own, false, minimum)))
        }
        return margins.map { ($0, share(own, true, $0), share(own, false, $0)) }
    }

    /// Misses (of eSpeak NG's takes) against false wakes an hour, one panel per model, with and
    /// without the check, as the cutoff moves.
    static func plotCurves(
        _ curves: [(model: String, checked: Bool, points: [(falseWakes: Double, missed: Double)])],
        hours: Double
    ) -> String {
        let models = Array(Set(curves.map(\.model))).sorted()
        let panel = 260.0
        let left = 70.0
        let top = 70.0
        let gapBetween = 60.0
        var body = SVG.text(
            x: 20, y: 24, "False wakes against misses as the cutoff moves", size: 15, bold: true)
        body += SVG.text(
            x: 20, y: 44,
            String(
                format:
                    "false wakes an hour over %.1f hours with no wake word; misses of eSpeak NG's takes (not people)",
                hours),
            size: 12, color: "#555")
        // x: log10 of false wakes an hour from 0.01 to 100; none is drawn at 0.01.
        func x(_ value: Double, _ origin: Double) -> Double {
            origin + (log10(max(value, 0.01)) + 2) / 4 * panel
        }
        func y(_ share: Double) -> Double { top + panel - share * panel }
        for (number, model) in models.enumerated() {
            let origin = left + Double(number) * (panel + gapBetween)
            body += SVG.rectangle(x: origin, y: top, width: panel, height: panel, stroke: "#333")
            body += SVG.text(x: origin + panel / 2, y: top - 8, model, anchor: "middle", size: 13, bold: true)
            for tick in [0.01, 0.1, 1, 10, 100] {
                body += SVG.line(x(tick, origin), top, x(tick, origin), top + panel, color: "#eee")
                body += SVG.text(
                    x: x(tick, origin), y: top + panel + 16,
                    tick < 0.1 ? "≤0.01" : SVG.number(tick).replacingOccurrences(of: ".0", with: ""),
                    anchor: "middle", size: 11)
            }
            for share in stride(from: 0.0, through: 1.0, by: 0.25) {
                body += SVG.line(origin, y(share), origin + panel, y(share), color: "#eee")
                if number == 0 {
                    body += SVG.text(
                        x: origin - 6, y: y(share) + 4, "\(Int(share * 100))%", anchor: "end", size: 11)
                }
            }
            body += SVG.text(
                x: origin + panel / 2, y: top + panel + 34, "false wakes an hour", anchor: "middle", size: 12)
            for curve in curves where curve.model == model {
                let points = curve.points.map { (x: x($0.falseWakes, origin), y: y($0.missed)) }
                body += SVG.polyline(
                    points, color: curve.checked ? SVG.colors[1] : SVG.colors[0],
                    dash: curve.checked ? "" : "5 3",
                    dots: true)
            }
        }
        body += SVG.text(x: 22, y: top + panel / 2, "takes missed", anchor: "middle", rotate: true)
        let legend = top + panel + 56
        body += SVG.line(left, legend, left + 30, legend, color: SVG.colors[0], dash: "5 3", thickness: 2)
        body += SVG.text(x: left + 36, y: legend + 4, "the model alone", size: 12)
        body += SVG.line(left + 160, legend, left + 190, legend, color: SVG.colors[1], thickness: 2)
        body += SVG.text(x: left + 196, y: legend + 4, "with the recognizer's check", size: 12)
        let width = left + Double(models.count) * (panel + gapBetween)
        return SVG.document(width: width, height: legend + 24, body)
    }

    /// The check's trade-off as its margin moves: people's own phrases kept (the one contributor
    /// and the others) and each model's near-miss takes woken at its own cutoff.
    static func plotCheck(
        _ kept: [(margin: Double, one: Double, others: Double)],
        _ nearMisses: [(model: String, points: [(margin: Double, woken: Double)])]
    ) -> String {
        let panel = 300.0
        let left = 70.0
        let top = 70.0
        let margins = kept.map(\.margin)
        let lowest = margins.min() ?? -80
        let highest = margins.max() ?? 0
        func x(_ margin: Double, _ origin: Double) -> Double {
            origin + (margin - lowest) / max(highest - lowest, 1) * panel
        }
        func y(_ share: Double, top: Double = top) -> Double { top + panel - share * panel }
        var body = SVG.text(x: 20, y: 24, "The wake-word check as its margin moves", size: 15, bold: true)
        body += SVG.text(
            x: 20, y: 44,
            "left: people's takes of their own phrase kept; right: near-miss takes woken (each model at its own cutoff)",
            size: 12, color: "#555")
        for (number, title) in ["people's own phrase kept", "near-miss takes woken"].enumerated() {
            let origin = left + Double(number) * (panel + 90)
            body += SVG.rectangle(x: origin, y: top, width: panel, height: panel, stroke: "#333")
            body += SVG.text(x: origin + panel / 2, y: top - 8, title, anchor: "middle", size: 13, bold: true)
            let ceiling =
                number == 0
                ? 1.0 : max(0.02, SVG.niceCeiling(nearMisses.flatMap(\.points).map(\.woken).max() ?? 0.02))
            for step in 0...4 {
                let share = Double(step) / 4
                body += SVG.line(origin, y(share), origin + panel, y(share), color: "#eee")
                body += SVG.text(
                    x: origin - 6, y: y(share) + 4, String(format: "%.1f%%", share * ceiling * 100),
                    anchor: "end",
                    size: 11)
            }
            for margin in margins {
                body += SVG.line(x(margin, origin), top, x(margin, origin), top + panel, color: "#eee")
                body += SVG.text(
                    x: x(margin, origin), y: top + panel + 16, "\(Int(margin))", anchor: "middle", size: 11)
            }
            body += SVG.text(x: origin + panel / 2, y: top + panel + 34, "margin", anchor: "middle", size: 12)
            let standard = x(WakeWordCheck.standardMargin, origin)
            body += SVG.line(standard, top, standard, top + panel, color: "#999", dash: "4 3")
            if number == 0 {
                body += SVG.polyline(
                    kept.map { (x($0.margin, origin), y($0.one)) }, color: SVG.colors[0], dots: true)
                body += SVG.polyline(
                    kept.map { (x($0.margin, origin), y($0.others)) }, color: SVG.colors[1], dots: true)
                body += SVG.text(
                    x: origin + 8, y: top + panel - 24, "one contributor (chooses)", size: 11,
                    color: SVG.colors[0])
                body += SVG.text(
                    x: origin + 8, y: top + panel - 10, "the others (test)", size: 11, color: SVG.colors[1])
            } else {
                for (index, curve) in nearMisses.enumerated() {
                    let color = SVG.colors[(index + 2) % SVG.colors.count]
                    body += SVG.polyline(
                        curve.points.map { (x($0.margin, origin), y($0.woken / ceiling)) }, color: color,
                        dots: true)
                    body += SVG.text(
                        x: origin + 8, y: top + 16 + Double(index) * 14, curve.model, size: 11, color: color)
                }
            }
        }
        body += SVG.text(
            x: left, y: top + panel + 56, "dashed: the margin --wake-word-check asks for", size: 11,
            color: "#555")
        return SVG.document(width: left + 2 * panel + 120, height: top + panel + 70, body)
    }
}
