import Foundation
import Testing
import VoiceAudio
import VoiceIntents
import VoiceRecognition
import VoiceTestSupport
import VoiceUnderstanding

@testable import PhraseMatching

/// Two commands or more said in one breath ("turn off the kitchen light and lock the front door"),
/// read by the matcher as each command on its own, in the order said.
@Suite("Joined commands")
struct JoinedCommandsTests {
    /// The pairs a test run checks: every ordered pair for the two houses; for the larger
    /// samples, each sentence once first and once second (`phrase-benchmark --joined` joins
    /// every pair of them, with its figures in its README).
    static func pairs(_ name: String, _ count: Int) -> [(Int, Int)] {
        guard name == "travel-tracking" || name == "library" else {
            return (0..<count).flatMap { first in (0..<count).map { (first, $0) } }
        }
        return (0..<count).flatMap { [($0, ($0 * 7 + 3) % count), (($0 * 11 + 5) % count, $0)] }
    }

    /// Each pair of a sample's own test sentences, joined by "and", reaches both commands in
    /// order, each with the values it reaches alone.
    @Test(arguments: ["smart-home", "home-lights", "travel-tracking", "library"])
    func pairsOfTheSamplesCommandsAreBothCommands(_ name: String) async throws {
        let matcher = try await TestModels.matcher(sample: name)
        // Each as the matcher reads it alone (a test may fail alone; its pairs then say nothing).
        let alone = await matcher.commandsThatPassAlone(
            try PhraseTestSuite.cases(in: "Phrases/en/tests/\(name).yaml"))
        #expect(alone.count > 20)
        var failures: [String] = []
        let pairs = Self.pairs(name, alone.count)
        for (first, second) in pairs {
            let joined = await matcher.joinedAsBoth(alone[first], alone[second])
            if !joined.isBoth { failures.append("\(joined.sentence) → \(joined.got.map(\.description))") }
        }
        #expect(
            failures.isEmpty,
            "\(failures.count) of \(pairs.count):\n\(failures.prefix(30).joined(separator: "\n"))")
    }

    /// A single command stays one, "and" inside it or not; a sentence whose part is no command
    /// is not cut.
    @Test(arguments: [
        "set a timer for 3 hours and 10 minutes", "add eggs and butter to the shopping list",
        "turn on the kitchen lights", "turn on the kitchen lights and sing me a song",
    ])
    func aSingleCommandIsNotCut(_ sentence: String) async throws {
        let matcher = try await TestModels.matcher(sample: "smart-home")
        #expect(await matcher.matchJoined(sentence) == nil)
    }

    /// "then" and "and then" join too, up to three commands, and a pronoun takes what the
    /// command before named.
    @Test func joinersThreeCommandsAndPronouns() async throws {
        let matcher = try await TestModels.matcher(sample: "smart-home")
        func read(_ sentence: String) async -> [String] {
            await matcher.matchJoined(sentence)?.map { matcher.outcome(of: $0).0.description } ?? []
        }
        #expect(
            await read("lock the front door then what time is it")
                == ["LockIntent(lock: Front Door)", "TimeIntent()"])
        #expect(
            await read("turn on standing light and then turn off the bed light and lock the front door")
                == [
                    "TurnOnLightIntent(light: Standing Light)", "TurnOffLightIntent(light: Bed Light)",
                    "LockIntent(lock: Front Door)",
                ])
        #expect(
            await read("turn on the lights in the office and set them to blue")
                == ["TurnOnAreaLightsIntent(area: Office)", "SetLightColorIntent(area: Office, color: Blue)"])
        #expect(
            await read("turn off the bed light and then turn it on")
                == ["TurnOffLightIntent(light: Bed Light)", "TurnOnLightIntent(light: Bed Light)"])
    }

    /// By voice, with `--joined-commands`: two commands said by eSpeak NG (not a person; people's
    /// figures are in Benchmarks/Recognition/README.md, "Two commands in one breath") are heard
    /// and read as both; without it, the grammar holds one command, as before.
    @Test func twoCommandsAreHeardInOneUtteranceWhenJoined() async throws {
        try await offThePool {
            let folder = try temporaryFolder("joined")
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("said.wav")
            let sentence = "turn off the bed light and lock the front door"
            try WAVFile.write(
                AudioBuffer(
                    int16: try TestSpeech.spoken(sentence, voice: "en-us", rate: 160), sampleRate: 16_000),
                to: file)
            let joined = try Executables.run(
                "voice-intents",
                ["transcribe", "--app", "smart-home", "--joined-commands", "--match", file.path])
            #expect(joined.status == 0, "\(joined.errors)")
            #expect(joined.output.hasPrefix(sentence + "\n"), "\(joined.output)")
            #expect(joined.output.contains("2 commands, run in order"), "\(joined.output)")
            #expect(joined.output.contains("light = Bed Light"), "\(joined.output)")
            #expect(joined.output.contains("lock = Front Door"), "\(joined.output)")
            let single = try Executables.run(
                "voice-intents", ["transcribe", "--app", "smart-home", "--match", file.path])
            #expect(!single.output.hasPrefix(sentence + "\n"), "\(single.output)")
        }
    }

    /// A grammar that joins commands says them through a jump of its own, unlikelier than any
    /// command, which is no word to pronounce; a whole command's end of speech reads as without.
    @Test func theJoinIsAJumpOfItsOwn() async throws {
        let matcher = try await TestModels.matcher(sample: "home-lights")
        let joined = SpeechGrammar(matcher.spokenForms, name: "home_lights", joinsCommands: true)
        let plain = SpeechGrammar(matcher.spokenForms, name: "home_lights")
        #expect(joined.canSay("turn on the garage light and what time is it"))
        #expect(joined.canSay("what time is it then tell me the time"))
        #expect(!plain.canSay("turn on the garage light and what time is it"))
        #expect(!joined.words.contains(WordGraph.joinMarker))
        #expect(joined.fsg.contains(" \(WordGraph.joinProbability)\n"))
        for sentence in ["what time is it", "turn on the garage light", "turn on the"] {
            #expect(joined.reading(of: sentence) == plain.reading(of: sentence), "\(sentence)")
        }
    }
}
