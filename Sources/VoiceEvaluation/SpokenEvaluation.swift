import Foundation
import PhraseMatching
import VoiceAudio
import VoiceIntents
import VoiceRecognition
import VoiceUnderstanding

/// Hears an app's phrase tests spoken: each sentence in several eSpeak NG voices and rates, or
/// as recorded, with noise mixed in, through the same path as `listen --input` (100 ms chunks,
/// the end of speech found by the recognizer's voice activity detection, the app's grammar).
///
/// ```swift
/// let evaluation = SpokenEvaluation(voices: ["en-us", "en-us+f2"], conditions: [.clean, .noise(.pink, snr: 10)])
/// let heard = try evaluation.hear(evaluation.items(for: suite.cases), grammar: grammar)
/// let report = await EvaluationReport(app: "Travel Tracking", heard: heard, matcher: matcher)
/// ```
///
/// Clips are heard on every core, each worker with its own recognizer. Nothing is performed:
/// what the matcher makes of each transcript is compared with the test's expectation
/// (``EvaluationReport``).
package struct SpokenEvaluation: Sendable {
    /// Who says a sentence.
    package enum Speaker: Sendable, Hashable, Codable, CustomStringConvertible {
        /// An eSpeak NG voice at a rate in words a minute.
        case voice(String, rate: Int)
        /// A person, in a recording the test names.
        case recording

        package var description: String {
            switch self {
            case .voice(let voice, let rate): "\(voice) \(rate)"
            case .recording: "recorded"
            }
        }

        /// The voice's name ("recorded" for recordings), for grouping by voice.
        package var voiceName: String {
            if case .voice(let voice, _) = self { return voice }
            return "recorded"
        }
    }

    /// One clip to hear: a test's sentence, said by a speaker, in a noise condition, under one
    /// stretch of its noise (``take``).
    package struct Item: Sendable {
        package let testCase: PhraseTestSuite.Case
        package let speaker: Speaker
        package let condition: NoiseCondition
        /// Which stretch of the condition's noise goes under the clip: 0 for the first, and one more
        /// for each further hearing of the same clip in the same condition (``SpokenEvaluation/takes``).
        package var take = 0

        package init(
            testCase: PhraseTestSuite.Case, speaker: Speaker, condition: NoiseCondition, take: Int = 0
        ) {
            self.testCase = testCase
            self.speaker = speaker
            self.condition = condition
            self.take = take
        }

        /// The seed of the clip's noise: the same clip gets the same noise on every run, and each
        /// take another stretch of it.
        var seed: UInt64 {
            let key = "\(testCase.sentence)|\(speaker)|\(condition)" + (take == 0 ? "" : "|take \(take)")
            return UInt64(SpeechCache.hash(key), radix: 16) ?? 0
        }
    }

    /// What the recognizer made of one clip.
    package struct Heard: Sendable {
        package let item: Item
        /// Whether the grammar can say the sentence word for word (a sentence with a filler
        /// word, or a name the app does not know, can only be heard as something else).
        package let isSayable: Bool
        /// The words of the first utterance heard; empty when nothing was.
        package let transcript: String
        /// Utterances with words in the clip: more than one means the sentence was cut in two.
        package let utterances: Int
        /// Words said that were heard as something else, or not at all (`heard` is `nil`).
        package let misheard: [(said: String, heard: String?)]
        /// Word errors (substitutions, deletions, insertions) and words said.
        package let wordErrors: Int
        package let wordsSaid: Int
        /// Seconds of audio, seconds spent decoding it, and seconds from the end of the audio
        /// that ended the utterance to its transcript.
        package let duration: Double
        package let decodeTime: Double
        package let latency: Double
        /// The recognizer's confidence in the first utterance heard (0 when nothing was).
        package var confidence: Double? = nil
        /// How long the first utterance heard went on outside its words
        /// (``RecognitionResult/secondsOutsideWords``); `nil` when nothing was heard.
        package var secondsOutsideWords: Double? = nil
        /// The first utterance heard, word by word, for the check of its values' fit
        /// (``Understanding/checkingValues(of:heard:margin:)``); `nil` when nothing was heard.
        package var recognition: RecognitionResult? = nil
    }

    /// eSpeak NG voices, male and female.
    package var voices: [String]
    /// Speaking rates in words a minute.
    package var rates: [Int]
    /// Clean, and noise at signal-to-noise ratios.
    package var conditions: [NoiseCondition]
    /// How many times each clip is heard in each noise condition, each time under another stretch
    /// of the noise (clean clips once). Where the noise falls decides many a clip: under eight
    /// stretches of people's babble at 10 dB, HomeLights' 49 recordings were heard right 43 to 47
    /// times. Several takes average that out.
    package var takes = 1
    /// Recordings of noise by name, for ``NoiseCondition/recorded(_:snr:)`` (16 kHz).
    package var noiseFiles: [String: [Float]] = [:]
    /// Recordings heard before a recording, by its file, in the same condition; what is heard in
    /// them is not counted. In the voice loop an answer follows the command that asked for it,
    /// so by the time the answer comes the recognizer has learnt the speaker's channel from the
    /// command: hear an answer after the same speaker's other speech to hear it as the loop does.
    package var heardBefore: [URL: [URL]] = [:]
    /// The recognizer's model and settings.
    package var configuration: SpeechRecognizer.Configuration
    /// Where synthesised speech is kept between runs; `nil` speaks every sentence anew.
    package var cache: SpeechCache?
    /// How many recognizers decode at once.
    package var workers: Int
    /// Seconds of room noise before and after each synthesised sentence (a recording is heard
    /// as it is).
    package var leadIn = 0.5
    package var tail = 0.8
    /// Seconds of the condition's noise (nothing else) before each recording heard in noise: a
    /// live stream has heard the room before anyone speaks, and a detector that learns the
    /// noise floor (``SpeechRecognizer/Configuration/voiceActivity``) needs it. 0 (the default):
    /// the recording as it is, which `listen --input` hears. A clean recording never gets one.
    package var recordingLead = 0.0
    /// A quiet room's own noise under every synthesised sentence, in dB below the speech: pink
    /// room tone, as a person speaking at a metre from the microphone gives in a quiet room
    /// (about 60 dBA of speech over 30 dBA of room). eSpeak NG's speech with nothing but
    /// digital quiet around it is no room at all, and the recognizer hears it worse than at 30 dB
    /// (`Benchmarks/Recognition/README.md`, "eSpeak NG's speech in a quiet room"). Recordings
    /// keep their own room.
    package var roomNoise = 30.0
    /// The noise floor of the microphone under every clip (RMS, share of full scale): about
    /// −70 dBFS, so no stretch of a clip is digital silence.
    package var noiseFloor = 0.0003
    /// What happens to each clip between the microphone and the recognizer (the clip as
    /// ``clip(_:mixer:)`` makes it in, 16 kHz): a loudspeaker's echo mixed in and cancelled, say.
    /// `nil` hears the clip as it is.
    package var microphone: (@Sendable (Item, [Int16]) throws(SpeechError) -> [Int16])?

    /// Five voices: American male and female, a rough male, and two more variants.
    package static let defaultVoices = ["en-us", "en-us+f2", "en+m7", "en-us+m3", "en-us+f4"]

    package init(
        voices: [String] = defaultVoices, rates: [Int] = [175], conditions: [NoiseCondition] = [.clean],
        configuration: SpeechRecognizer.Configuration = .englishUS, cache: SpeechCache? = nil,
        workers: Int = ProcessInfo.processInfo.activeProcessorCount
    ) {
        self.voices = voices
        self.rates = rates
        self.conditions = conditions
        self.configuration = configuration
        self.cache = cache
        self.workers = max(1, workers)
    }

    /// The clips of `cases`: a test with a recording is heard as recorded in every condition;
    /// any other is spoken in every voice and rate, in every condition.
    package func items(for cases: [PhraseTestSuite.Case]) -> [Item] {
        cases.flatMap { testCase -> [Item] in
            let speakers: [Speaker] =
                testCase.audio != nil
                ? [.recording] : voices.flatMap { voice in rates.map { Speaker.voice(voice, rate: $0) } }
            return speakers.flatMap { speaker in
                conditions.flatMap { condition in
                    (0..<(condition == .clean ? 1 : max(takes, 1))).map {
                        Item(testCase: testCase, speaker: speaker, condition: condition, take: $0)
                    }
                }
            }
        }
    }

    /// Hears every item under `grammar`.
    ///
    /// - Parameter progress: Called after each clip with the number heard and the total.
    /// - Throws: ``SpeechError`` when a voice is unknown or a recording cannot be read (naming
    ///   the file and why).
    package func hear(
        _ items: [Item], grammar: SpeechGrammar,
        progress: @Sendable (_ done: Int, _ total: Int) -> Void = { _, _ in }
    ) throws(SpeechError) -> [Heard] {
        let mixer = NoiseMixer(
            babble: items.contains { $0.condition.kind == .babble } ? try babbleTrack() : nil)
        return try SpeechRecognizer.inParallel(
            items.count, workers: workers, configuration: configuration, grammar: grammar, progress: progress
        ) { recognizer, index throws(SpeechError) in
            let item = items[index]
            let before = try (item.testCase.audio.flatMap { heardBefore[$0] } ?? []).map {
                url throws(SpeechError) in
                let earlier = PhraseTestSuite.Case(
                    sentence: url.lastPathComponent, expectation: .noMatch, source: item.testCase.source,
                    audio: url)
                return try clip(
                    Item(testCase: earlier, speaker: .recording, condition: item.condition, take: item.take),
                    mixer: mixer)
            }
            var heard = try clip(item, mixer: mixer)
            if let microphone { heard = try microphone(item, heard) }
            return try Self.listen(
                to: heard, after: before, item: item,
                isSayable: grammar.canSay(item.testCase.sentence),
                recognizer: recognizer)
        }
    }

    /// The audio of one item as a microphone would give it, 16-bit at 16 kHz: a synthesised
    /// sentence gets a room around it (``leadIn``, ``tail``, ``roomNoise``, ``noiseFloor``); a
    /// recording has its own room and is heard as recorded, sample for sample what
    /// `listen --input` hears. The condition's noise goes under all of it.
    package func clip(_ item: Item, mixer: NoiseMixer) throws(SpeechError) -> [Int16] {
        let speech: [Float]
        switch item.speaker {
        case .voice(let voice, let rate):
            speech = try spoken(item.testCase.sentence, voice: voice, rate: rate)
        case .recording:
            guard let url = item.testCase.audio else {
                throw SpeechError(.invalidInput, "\"\(item.testCase.sentence)\" has no recording")
            }
            speech = try Self.recording(url)
        }
        let rate = Double(AudioFormat.recognizerSampleRate)
        let isRecording = item.speaker == .recording
        let lead = isRecording && item.condition != .clean ? Int(recordingLead * rate) : 0
        var samples =
            isRecording
            ? [Float](repeating: 0, count: lead) + speech
            : [Float](repeating: 0, count: Int(leadIn * rate)) + speech
                + [Float](repeating: 0, count: Int(tail * rate))
        // Levels are the speech's own, measured before any noise is added.
        let level = NoiseMixer.activeLevel(speech)
        var noises: [(NoiseKind, Double, UInt64)] = []
        if case .voice = item.speaker { noises.append((.pink, roomNoise, item.seed &+ 2)) }
        if case .noise(let kind, let snr) = item.condition { noises.append((kind, snr, item.seed)) }
        for (kind, snr, seed) in noises {
            let noise = mixer.noise(kind, count: samples.count, seed: seed)
            let gain = level / Float(pow(10, snr / 20))
            for index in samples.indices { samples[index] += noise[index] * gain }
        }
        if !isRecording {
            let floor = mixer.noise(.white, count: samples.count, seed: item.seed &+ 1)
            let floorGain = Float(noiseFloor)
            for index in samples.indices { samples[index] += floor[index] * floorGain }
        }
        // Recorded noise last, over the room and the floor, scaled down whole where it would clip.
        if case .recorded(let name, let snr) = item.condition {
            guard let noise = noiseFiles[name] else {
                throw SpeechError(.invalidInput, "no noise recording named \(name) was loaded")
            }
            samples = NoiseMixer.mixRecorded(samples, speech: speech, noise: noise, snr: snr, seed: item.seed)
        }
        return AudioBuffer(samples: samples, sampleRate: AudioFormat.recognizerSampleRate).int16Samples
    }

    /// `text` spoken at 16 kHz, from the cache when there is one.
    func spoken(_ text: String, voice: String, rate: Int) throws(SpeechError) -> [Float] {
        if let cache { return try cache.speech(text, voice: voice, rate: rate) }
        // In a process of its own, as the cache speaks: the same samples whatever came before.
        return try SpeechCache.speakInOwnProcess(text, voice: voice, rate: rate).resampled(
            to: AudioFormat.recognizerSampleRate
        ).samples
    }

    /// A recording at 16 kHz: a WAV file, or raw 16 kHz 16-bit mono PCM (`.raw`, `.pcm`), as
    /// Debian's PocketSphinx test data has it.
    package static func recording(_ url: URL) throws(SpeechError) -> [Float] {
        do throws(AudioFileError) {
            if ["raw", "pcm"].contains(url.pathExtension.lowercased()) {
                var reader = try RawPCMReader(url: url)
                defer { try? reader.fileHandle.close() }
                return try reader.readAll().atRecognizerRate.samples
            }
            return try WAVFile.read(from: url).atRecognizerRate.samples
        } catch {
            throw SpeechError(.invalidInput, error.description)
        }
    }

    /// Feeds `clip` in 100 ms chunks as `listen --input` does, until the clip ends, on a fresh
    /// channel or on the one learnt from the clips heard `after`.
    static func listen(
        to clip: [Int16], after earlier: [[Int16]] = [], item: Item, isSayable: Bool,
        recognizer: SpeechRecognizer
    )
        throws(SpeechError)
        -> Heard
    {
        let chunk = AudioFormat.recognizerSampleRate / 10
        /// The utterances with words in `clip`, and how long after the audio that ended the first
        /// one its transcript came.
        func hear(_ clip: [Int16]) throws(SpeechError) -> (utterances: [RecognitionResult], latency: Double) {
            var offset = 0
            var lastRead = ContinuousClock.now
            var utterances: [RecognitionResult] = []
            var latency = 0.0
            while offset < clip.count {
                let result = try recognizer.listen(timeout: SpeechRecognizer.utteranceTimeout) {
                    () -> [Int16]? in
                    guard offset < clip.count else { return nil }
                    let end = min(offset + chunk, clip.count)
                    defer { offset = end }
                    lastRead = ContinuousClock.now
                    return Array(clip[offset..<end])
                }
                // Nothing heard for a while: listen again, as the voice loop does, until the clip ends.
                guard let result else { continue }
                if !result.spokenWords.isEmpty {
                    if utterances.isEmpty { latency = (ContinuousClock.now - lastRead).inSeconds }
                    utterances.append(result)
                }
            }
            return (utterances, latency)
        }
        recognizer.forgetChannel()
        for earlierClip in earlier { _ = try hear(earlierClip) }
        let started = ContinuousClock.now
        let (utterances, latency) = try hear(clip)
        let decodeTime = (ContinuousClock.now - started).inSeconds
        // Without garbage phone-words: what the voice loop's matcher is given.
        let transcript = utterances.first?.commandText ?? ""
        let confidence = utterances.first?.confidence?.value ?? 0
        let said = SpeechGrammar.spokenWords(item.testCase.sentence)
        let heardWords = SpeechGrammar.spokenWords(transcript)
        let alignment = WordAlignment(said: said, heard: heardWords) { said, heard in
            said == heard
                || recognizer.pronunciation(of: said).map { $0 == recognizer.pronunciation(of: heard) }
                    == true
        }
        return Heard(
            item: item, isSayable: isSayable, transcript: transcript, utterances: utterances.count,
            misheard: alignment.misheard,
            wordErrors: alignment.errors, wordsSaid: said.count,
            duration: Double(clip.count) / Double(AudioFormat.recognizerSampleRate), decodeTime: decodeTime,
            latency: latency, confidence: confidence,
            secondsOutsideWords: utterances.first?.secondsOutsideWords, recognition: utterances.first)
    }

    // MARK: Babble

    /// Sentences for babble: everyday speech, none of it a command.
    static let babbleSentences = [
        "I told her we would be there by six but the traffic on the bridge was terrible",
        "did you see the game last night it went into extra time",
        "the soup needs more salt and maybe a little pepper",
        "my sister is moving to a new flat near the station next month",
        "we could take the early train and have breakfast when we get there",
        "he said the meeting was moved to thursday afternoon",
        "there is a new bakery on the corner that sells wonderful bread",
        "can you remember where we parked the car this morning",
        "the children were playing in the garden until it started to rain",
        "I think the printer on the second floor is out of paper again",
        "they are painting the kitchen yellow which seems a bold choice",
        "the concert was sold out so we listened to it on the radio",
    ]

    /// Six talkers in other voices, each saying the babble sentences in their own order, summed
    /// at equal levels: thirty seconds or more of a room full of conversation.
    package func babbleTrack() throws(SpeechError) -> [Float] {
        let talkers = ["en", "en-us+m1", "en+f3", "en-us+m5", "en+f1", "en-us+m2"]
        var track: [Float] = []
        for (number, voice) in talkers.enumerated() {
            var talker: [Float] = []
            let pause = [Float](repeating: 0, count: AudioFormat.recognizerSampleRate / 5)
            for offset in 0..<Self.babbleSentences.count {
                let sentence = Self.babbleSentences[(offset + number * 5) % Self.babbleSentences.count]
                let speech = try spoken(sentence, voice: voice, rate: 170)
                let level = NoiseMixer.activeLevel(speech)
                talker += (level > 0 ? speech.map { $0 / level } : speech) + pause
            }
            if track.isEmpty {
                track = talker
            } else {
                let count = min(track.count, talker.count)
                track = (0..<count).map { track[$0] + talker[$0] }
            }
        }
        return track
    }
}

/// The word-level alignment of what was said with what was heard (Levenshtein), with the words
/// said that were not heard as themselves.
struct WordAlignment {
    let errors: Int
    let misheard: [(said: String, heard: String?)]

    init(said: [String], heard: [String], same: (String, String) -> Bool) {
        let rows = said.count + 1
        let columns = heard.count + 1
        var cost = [[Int]](repeating: [Int](repeating: 0, count: columns), count: rows)
        for i in 0..<rows { cost[i][0] = i }
        for j in 0..<columns { cost[0][j] = j }
        for i in 1..<rows {
            for j in 1..<columns {
                cost[i][j] = min(
                    cost[i - 1][j - 1] + (same(said[i - 1], heard[j - 1]) ? 0 : 1), cost[i - 1][j] + 1,
                    cost[i][j - 1] + 1)
            }
        }
        errors = cost[said.count][heard.count]
        var misheard: [(said: String, heard: String?)] = []
        var i = said.count
        var j = heard.count
        while i > 0 || j > 0 {
            if i > 0, j > 0, cost[i][j] == cost[i - 1][j - 1] + (same(said[i - 1], heard[j - 1]) ? 0 : 1) {
                if !same(said[i - 1], heard[j - 1]) { misheard.append((said[i - 1], heard[j - 1])) }
                i -= 1
                j -= 1
            } else if i > 0, cost[i][j] == cost[i - 1][j] + 1 {
                misheard.append((said[i - 1], nil))
                i -= 1
            } else {
                j -= 1
            }
        }
        self.misheard = misheard.reversed()
    }
}
