import Foundation
import Library
import PhraseMatching
import Testing
import TravelTracking
import VoiceIntents
import VoiceTestSupport

@testable import VoiceAudio
@testable import VoiceEvaluation
@testable import VoiceRecognition
@testable import VoiceSynthesis
@testable import VoiceUnderstanding

/// Real speech in and out: eSpeak NG speaks, PocketSphinx listens. No stand-ins.
@Suite("Speech round trip", .serialized)
struct RoundTripTests {
    @Test func synthesizerSpeaksAtItsOwnRate() throws {
        let speech = try SpeechSynthesizer().speak("Opening the map.")
        #expect(speech.sampleRate == 22_050)
        #expect((0.4...3).contains(speech.duration))
        #expect(speech.samples.contains { abs(Int($0)) > 1_000 })
        let faster = try SpeechSynthesizer(rate: 300).speak("Opening the map.")
        #expect(faster.duration < speech.duration)
    }

    @Test func unknownVoicesAreNamed() {
        #expect(throws: SpeechError.self) { try SpeechSynthesizer(voice: "no-such-voice").speak("hello") }
    }

    @Test func pronunciationsAreGuessedForNamesTheDictionaryLacks() throws {
        #expect(try PronunciationGuesser.phones(for: "machu") == "M AE CH UW")
        #expect(
            PronunciationGuesser.cmuPhones(fromESpeak: "l_'aI_b_r_e@_r_i") == [
                "L", "AY", "B", "R", "EH", "R", "IY",
            ])
        let recognizer = try SpeechRecognizer()
        #expect(recognizer.knows("kyoto"))
        #expect(!recognizer.knows("uluru"))
    }

    @Test func theGrammarCoversPhrasesValuesAndNames() async throws {
        let grammar = SpeechGrammar(
            try await TestModels.travelTrackingMatcher().spokenForms, name: "travel-tracking")
        #expect(grammar.jsgf.hasPrefix("#JSGF V1.0;"))
        #expect(grammar.jsgf.contains("grammar travel_tracking;"))
        #expect(
            grammar.jsgf.contains(
                "<app> = travel tracking | travel tracker;"))
        #expect(grammar.jsgf.contains("public <utterance> = [ <hesitation> ] <command>;"))
        #expect(grammar.jsgf.contains("<command> = ( navigate in <app> )"))
        #expect(grammar.jsgf.contains("<hesitation> = uh | um;"))
        #expect(grammar.words.isSuperset(of: ["navigate", "machu", "picchu", "uluru", "twenty", "tickets"]))
        #expect(grammar.freeTextPhrases == 0)
    }

    /// Every sentence of an app's phrase suite that its grammar can say, spoken in one of three
    /// voices at one of two rates and recognised under the grammar. The aim is every clip (issue 4); the floors
    /// hold the measured rates (Benchmarks/Recognition/README.md) against regressions while the recognizer is
    /// tuned. "Understood" is what matters to users: the words heard reach the intent and values
    /// the suite expects ("tickets to" heard for "tickets for" is understood, not word for word).
    ///
    /// The clips are spoken by processes of their own (``RoundTrip``), so every run hears the same
    /// audio and gets the same figures; spoken in this process, they moved with whatever else the
    /// tests had said before (TravelTracking understood 0.897 to 0.913 from run to run). Measured
    /// 2026-11-25, with commands that may begin with a hesitation (more suite sentences the
    /// grammar can say): TravelTracking 0.801 word for word and 0.911 understood of 191 clips,
    /// Library 0.802 and 0.934 of 106 (before: 0.766 and 0.902 of 184, 0.784 and 0.931 of 102).
    /// Each floor is a clip or two below. WebRTC's end of speech, which decodes every frame of
    /// the clip, cost Library two clips understood (0.915, 2026-11-26).
    @Test(arguments: [
        ("travel-tracking", 0.79, 0.90), ("library", 0.78, 0.90),
    ])
    func suiteSentencesAreHeardInThreeVoicesAndTwoRates(
        app: String, wordForWordFloor: Double, understoodFloor: Double
    ) async throws {
        let matcher =
            try await app == "library" ? TestModels.libraryMatcher() : TestModels.travelTrackingMatcher()
        let grammar = SpeechGrammar(matcher.spokenForms, name: app)
        let cases = try PhraseTestSuite.cases(in: "Phrases/en/tests/\(app).yaml")
        let sayable = cases.filter { $0.expectation != .noMatch && grammar.canSay($0.sentence) }
        #expect(sayable.count > cases.count / 3, "most suite sentences should be in the grammar")
        var roundTrip = RoundTrip(configuration: try TestModels.grammarConfiguration())
        // Each sentence once, voices and rates taking turns: the full sweep (every sentence in
        // every voice and rate) takes ten minutes of a debug build and is the speech benchmark's
        // `--suites` run, whose figures are in Benchmarks/Recognition/README.md.
        roundTrip.everyCombination = false
        let report = try roundTrip.run(sayable.map(\.sentence), grammar: grammar)
        let expectations = Dictionary(
            sayable.map { ($0.sentence, $0) }, uniquingKeysWith: { first, _ in first })
        var misunderstood: [String] = []
        for clip in report.clips {
            let expected = try #require(expectations[clip.sentence])
            let result = await matcher.run(
                PhraseTestSuite.Case(
                    sentence: clip.heard, expectation: expected.expectation, source: expected.source))
            if !result.passed { misunderstood.append("\(clip): \(result.got)") }
        }
        let understood = 1 - Double(misunderstood.count) / Double(report.clips.count)
        print(
            "round trip \(app): \(report.clips.count) clips, word for word \(report.heardRate), understood \(understood)"
        )
        #expect(
            report.heardRate >= wordForWordFloor,
            "misheard:\n\(report.misses.map(\.description).joined(separator: "\n"))")
        #expect(understood >= understoodFloor, "misunderstood:\n\(misunderstood.joined(separator: "\n"))")
    }

    /// What may be said over a reply: the app's commands or a cancel word, nothing else, heard as
    /// answers are (no waiting for more words) and with no garbage path.
    @Test func overAReplyTheCommandsOrACancelWord() async throws {
        let matcher = try await TestModels.travelTrackingMatcher()
        let grammar = SpeechGrammar.commandsOrCancel(matcher.spokenForms, name: "over_reply")
        for sentence in ["how busy is uluru in travel tracking", "never mind", "stop", "uh cancel"] {
            #expect(grammar.canSay(sentence), "\(sentence)")
        }
        #expect(!grammar.canSay("archive"))
        #expect(!grammar.isCommands)
        #expect(grammar.garbage == nil)
        #expect(grammar.canSay("hey travel tracking how busy is uluru in travel tracking") == false)
    }

    /// The wake phrase is folded into the grammar: heard alone, before a command, and commands
    /// without it are still heard.
    @Test func aWakePhraseIsHeardAloneOrBeforeACommand() async throws {
        let matcher = try await TestModels.travelTrackingMatcher()
        let grammar = SpeechGrammar(matcher.spokenForms, name: "wake", wakePhrase: "Hey Travel Tracking")
        #expect(grammar.wakePhrase == ["hey", "travel", "tracking"])
        #expect(grammar.canSay("hey travel tracking"))
        #expect(grammar.canSay("hey travel tracking how busy is uluru in travel tracking"))
        #expect(grammar.canSay("how busy is uluru in travel tracking"))
        #expect(!grammar.canSay("hey"))
        #expect(
            grammar.jsgf.contains(
                "public <utterance> = hey travel tracking [ [ <hesitation> ] <command> ] | [ <hesitation> ] <command>;"
            ))
        #expect(grammar.canSay("hey travel tracking uh how busy is uluru in travel tracking"))
        let recognizer = try SpeechRecognizer(try TestModels.grammarConfiguration())
        try recognizer.useGrammar(grammar)
        let roundTrip = RoundTrip()
        var heard: [String] = []
        for (index, sentence) in [
            "hey travel tracking", "hey travel tracking, how busy is uluru in travel tracking",
            "how busy is uluru in travel tracking",
        ].enumerated() {
            let speech = try TestSpeech.said(sentence, voice: "en-us", rate: 160)
            heard.append(try recognizer.recognize(roundTrip.heard(speech, seed: UInt64(index))).text)
        }
        #expect(
            heard == [
                "hey travel tracking", "hey travel tracking how busy is uluru in travel tracking",
                "how busy is uluru in travel tracking",
            ])
    }

    /// One grammar per dialog state: the app's commands, then the answers to "which landmark?",
    /// then yes or no, switched on one recognizer without reloading the model; cancel words are
    /// heard at every prompt.
    @Test func answerGrammarsAreSwitchedWithoutReloading() async throws {
        let matcher = try await TestModels.travelTrackingMatcher()
        let commands = SpeechGrammar(matcher.spokenForms, name: "commands")
        let landmarks = SpeechGrammar(
            answers: [.values(.names([["eiffel", "tower"], ["machu", "picchu"], ["uluru"]])), .ordinals],
            name: "which-landmark")
        let confirmation = SpeechGrammar(answers: [.yesOrNo], name: "confirm")
        #expect(landmarks.canSay("the second one"))
        #expect(landmarks.canSay("the eiffel tower"))
        #expect(landmarks.canSay("never mind"))
        #expect(!landmarks.canSay("yes"))
        #expect(confirmation.canSay("go ahead"))
        #expect(confirmation.canSay("no thanks"))
        #expect(confirmation.canSay("cancel"))
        #expect(landmarks.jsgf.contains("\n<answer> = ( [ the ] <value0> [ one ] )"))

        let recognizer = try SpeechRecognizer(try TestModels.grammarConfiguration())
        let roundTrip = RoundTrip()
        func hear(_ sentence: String, under grammar: SpeechGrammar) throws -> String {
            try recognizer.useGrammar(grammar)
            let speech = try TestSpeech.said(sentence, voice: "en-us", rate: 160)
            return try recognizer.recognize(roundTrip.heard(speech)).text
        }
        #expect(
            try hear("find tickets for uluru with travel tracking", under: commands)
                == "find tickets for uluru with travel tracking")
        #expect(try hear("the eiffel tower", under: landmarks) == "the eiffel tower")
        #expect(try hear("the second one", under: landmarks) == "the second one")
        #expect(try hear("never mind", under: landmarks) == "never mind")
        #expect(try hear("yes", under: confirmation) == "yes")
        #expect(try hear("no thanks", under: confirmation) == "no thanks")
        #expect(
            try hear("how busy is uluru in travel tracking", under: commands)
                == "how busy is uluru in travel tracking")

        // What the recognizer can tell a second opinion: the n-best list, best first, and the lattice.
        let alternatives = recognizer.alternatives(5)
        #expect(alternatives.first?.text == "how busy is uluru in travel tracking")
        #expect(Set(alternatives.map(\.text)).count == alternatives.count)
        let lattice = FileManager.default.temporaryDirectory.appendingPathComponent("lattice-\(UUID()).lat")
        defer { try? FileManager.default.removeItem(at: lattice) }
        try recognizer.writeLattice(to: lattice.path)
        #expect(try String(contentsOf: lattice, encoding: .utf8).contains("uluru"))
    }

    /// Dictation on Debian's other real recordings: read speech from LibriVox (five sentences of
    /// "Sense and Sensibility", 25 s) and the two short commands. The word error rate is what the
    /// general language model gives; the bar holds it against regressions.
    @Test func dictationTranscribesDebiansOtherRecordings() throws {
        let folder = URL(fileURLWithPath: "/usr/share/pocketsphinx/test/data/librivox")
        let transcription = try String(
            contentsOf: folder.appendingPathComponent("transcription"), encoding: .utf8)
        let recognizer = try SpeechRecognizer(try TestModels.configuration())
        try recognizer.useDictation()
        var errors = 0
        var words = 0
        for line in transcription.split(separator: "\n") {
            // "<s> he was not an ill disposed young man </s> (sense_and_sensibility_01_austen_64kb-0880)"
            let parts = line.split(separator: " ").map(String.init)
            let expected = parts.filter { !["<s>", "</s>"].contains($0) && !$0.hasPrefix("(") }
            let file = String(parts.last!.dropFirst().dropLast()) + ".wav"
            let audio = try WAVFile.read(from: folder.appendingPathComponent(file)).forRecognizer
            let heard = try recognizer.recognize(audio).text.split(separator: " ").map(String.init)
            errors += Self.editDistance(heard, expected)
            words += expected.count
            print("librivox \(file): \"\(heard.joined(separator: " "))\"")
        }
        let wordErrorRate = Double(errors) / Double(words)
        print("dictation word error rate on LibriVox: \(wordErrorRate) (\(errors) of \(words) words)")
        #expect(wordErrorRate < 0.35)

        let something = try Data(
            contentsOf: URL(fileURLWithPath: "/usr/share/pocketsphinx/test/data/something.raw"))
        let samples = something.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        #expect(try recognizer.recognize(samples).text == "go somewhere and do something")
    }

    /// Word-level edit distance: substitutions, insertions and deletions.
    static func editDistance(_ a: [String], _ b: [String]) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j] + (x == y ? 0 : 1), previous[j + 1] + 1, current[j] + 1))
            }
            previous = current
        }
        return previous[b.count]
    }

    /// A name is one word of the graph, with no silence between its words there; its paused
    /// pronunciation hears someone who stops inside it for a moment.
    @Test func aPauseInsideANameIsHeard() async throws {
        let recognizer = try SpeechRecognizer(try TestModels.grammarConfiguration())
        try recognizer.useGrammar(
            SpeechGrammar(try await TestModels.travelTrackingMatcher().spokenForms, name: "pauses"))
        for (voice, before, after) in [
            ("en-us", "add machu", "picchu to my favorites in travel tracking"),
            ("en-us+f2", "find two tickets for the great wall", "of china in travel tracking"),
        ] {
            let first = try TestSpeech.said(before, voice: voice, rate: 170)
            let second = try TestSpeech.said(after, voice: voice, rate: 170)
            let pause = [Int16](repeating: 0, count: first.sampleRate * 3 / 10)
            let speech = SynthesizedSpeech(
                samples: first.samples + pause + second.samples, sampleRate: first.sampleRate)
            recognizer.forgetChannel()
            let heard = try recognizer.recognize(RoundTrip().heard(speech, seed: 7))
            #expect(heard.text == "\(before) \(after)", "\(voice)")
        }
    }

    /// A command may begin with "uh" or "um": the grammar hears the hesitation as a word of its
    /// own, and the matcher ignores it. Without the hesitations, the grammar covered the "um"
    /// with a command's word or a number ("book five tickets to the uluru").
    @Test func aCommandAfterAHesitationIsHeard() async throws {
        let matcher = try await TestModels.travelTrackingMatcher()
        let recognizer = try SpeechRecognizer(try TestModels.grammarConfiguration())
        let sentences = [
            "um find tickets for the uluru with travel tracking", "um find tickets with travel tracking",
        ]
        var heard: [Bool: [String]] = [:]
        for hesitations in [SpeechGrammar.hesitations, []] {
            try recognizer.useGrammar(
                SpeechGrammar(matcher.spokenForms, name: "hesitations", hesitations: hesitations))
            for (index, sentence) in sentences.enumerated() {
                recognizer.forgetChannel()
                let speech = try TestSpeech.said(sentence, voice: "en-us", rate: 175)
                heard[!hesitations.isEmpty, default: []].append(
                    try recognizer.recognize(RoundTrip().heard(speech, seed: UInt64(index))).text)
            }
        }
        for (sentence, text) in zip(sentences, heard[true] ?? []) {
            #expect(text.hasPrefix("um find tickets"), "\(sentence): \(text)")
            let match = try #require(await matcher.match(text).best, "\(text)")
            #expect(match.intent == "FindTicketsIntent", "\(text)")
            #expect(match.values["ticketCount"] == nil, "\(text)")
        }
        // Measured without them: "buy tickets to the uluru …", "buy tickets with travel tracking".
        for text in heard[false] ?? [] { #expect(!text.hasPrefix("um find tickets"), "\(text)") }
    }

    /// Names as one word (``CompoundWord``) on real speech, not only eSpeak NG's: Debian's five
    /// card recordings under a grammar of the 52 cards' names ("ten of clubs"), a rank before a
    /// card, or two ranks, or three cards in a row, are heard word for word with the names as one
    /// word at least as often as with the names word by word. Measured: four of five both ways,
    /// the same transcripts ("ten of clubs" heard as "five ten of clubs").
    @Test func debiansCardRecordingsAreHeardWithNamesAsOneWord() throws {
        let folder = "/usr/share/pocketsphinx/test/data/cards"
        let ranks = [
            "ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen",
            "king",
        ]
        let cards = ranks.flatMap { rank in
            ["clubs", "diamonds", "hearts", "spades"].map { [rank, "of", $0] }
        }
        let phrases: [[PhraseElement]] = [
            [.placeholder("card")], [.placeholder("rank"), .placeholder("card")],
            [.placeholder("rank"), .placeholder("rank")],
            [.placeholder("card"), .placeholder("card"), .placeholder("card")],
        ]
        let forms = SpokenForms(
            phrases: phrases.map {
                SpokenForms.Phrase(
                    intent: "play", elements: $0,
                    placeholders: ["card": .names(cards), "rank": .names(ranks.map { [$0] })])
            })
        let recordings = [
            "001": "ten of clubs", "002": "four queen of clubs", "003": "seven of clubs", "004": "five five",
            "005": "eight of spades four of clubs seven of hearts",
        ]
        let recognizer = try SpeechRecognizer(try TestModels.configuration())
        var heard: [Bool: [String: String]] = [:]
        for namesAsOneWord in [true, false] {
            let grammar = SpeechGrammar(forms, name: "cards", namesAsOneWord: namesAsOneWord)
            #expect(grammar.compounds.count == (namesAsOneWord ? 52 : 0))
            try recognizer.useGrammar(grammar)
            for file in recordings.keys.sorted() {
                let audio = try WAVFile.read(from: URL(fileURLWithPath: "\(folder)/\(file).wav"))
                    .forRecognizer
                recognizer.forgetChannel()
                heard[namesAsOneWord, default: [:]][file] = try recognizer.recognize(audio).text
            }
        }
        print("cards, names as one word: \(heard[true]!.sorted { $0.key < $1.key }.map(\.value))")
        print("cards, names word by word: \(heard[false]!.sorted { $0.key < $1.key }.map(\.value))")
        let right = heard.mapValues { texts in recordings.filter { texts[$0.key] == $0.value }.count }
        #expect(right[true]! >= 4, "\(heard[true]!)")
        #expect(right[true]! >= right[false]!, "\(heard)")
    }

    @Test func dictationTranscribesRealRecordedSpeech() throws {
        let recording = URL(fileURLWithPath: "/usr/share/pocketsphinx/test/data/goforward.raw")
        let data = try Data(contentsOf: recording)
        let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }.map {
            Int16(littleEndian: $0)
        }
        let recognizer = try SpeechRecognizer()
        try recognizer.useDictation()
        let result = try recognizer.recognize(samples)
        #expect(result.text == "go forward ten meters")
        #expect(result.spokenWords.map(\.word) == ["go", "forward", "ten", "meters"])
        #expect(result.spokenWords.first.map { $0.start > 0 && $0.end > $0.start } == true)
    }

    /// The same recording with a quiet room's noise floor around it, as a recording made with
    /// `record` has: the channel is learnt from the speech, not from the quiet (learnt from the
    /// whole recording, "ten meters" was heard as "ten years" with most of these paddings).
    @Test(arguments: [(0.3, 0.6), (0.8, 1.0), (1.2, 0.2)])
    func dictationHearsARecordingWithQuietAroundIt(before: Double, after: Double) throws {
        let recording = URL(fileURLWithPath: "/usr/share/pocketsphinx/test/data/goforward.raw")
        let data = try Data(contentsOf: recording)
        let speech = data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }.map {
            Int16(littleEndian: $0)
        }
        var noise = SplitMix64(seed: 3)
        func quiet(_ seconds: Double) -> [Int16] {
            (0..<Int(seconds * 16_000)).map { _ in Int16(Int(noise.next() % 21) - 10) }
        }
        let recognizer = try SpeechRecognizer()
        try recognizer.useDictation()
        let result = try recognizer.recognize(quiet(before) + speech + quiet(after))
        #expect(result.text == "go forward ten meters")
    }
}
