import Foundation
import PhraseMatching
import Testing
import VoiceEvaluation
import VoiceTestSupport

@testable import VoiceAudio
@testable import VoiceRecognition
@testable import VoiceUnderstanding

/// The decoy check's chain: a decoy beside the first word, and decoys beside each name.
@Suite("Decoy check graph")
struct DecoyCheckGraphTests {
    @Test func theFirstWordAndEachNameHaveDecoysBesideThem() throws {
        let grammar = SpeechGrammar(GarbageGraphTests.forms, name: "test")
        #expect(grammar.nameWords == ["kyoto", "machu_picchu"])
        // "kyoto" is the grammar's own word: no decoy.
        let check = DecoyCheck(words: ["sell", "kyoto", "house"])
        let (fsg, words) = try #require(check.fsg(["go", "to", "machu_picchu"], grammar: grammar))
        #expect(words == ["~~sell", "~~house", "~sell", "~house", "uh", "um", "er", "ah"])
        let arcs = GarbageGraphTests.transitions(fsg)
        #expect(fsg.contains("FINAL_STATE 3"))
        // The first word: 0.99 for "go", 0.01 into a choice of one decoy that goes on to state 1.
        #expect(
            arcs.contains {
                $0.from == 0 && $0.to == 1 && $0.word == "go" && abs($0.probability - 0.99) < 1e-4
            })
        // Or a hesitation, as unlikely as a decoy, and then "go" only.
        let hesitations = arcs.filter { $0.from == 0 && ["uh", "um", "er", "ah"].contains($0.word) }
        #expect(hesitations.count == 4 && hesitations.allSatisfy { $0.probability == 1e-5 })
        let hesitated = try #require(hesitations.first?.to)
        #expect(hesitations.allSatisfy { $0.to == hesitated })
        #expect(arcs.filter { $0.from == hesitated }.map(\.word) == ["go"])
        #expect(arcs.filter { $0.from == hesitated }.map(\.to) == [1])
        let first = try #require(arcs.first { $0.from == 0 && $0.word == nil })
        #expect(first.probability == 0.01)
        #expect(Set(arcs.filter { $0.from == first.to }.map(\.word)) == ["~~sell", "~~house"])
        #expect(arcs.filter { $0.from == first.to }.allSatisfy { $0.to == 1 && $0.probability == 1e-3 })
        // The name: decoys one after another in place of "machu_picchu", then on to the end.
        let name = try #require(arcs.first { $0.from == 2 && $0.word == nil })
        #expect(name.probability == 0.05)
        let loop = arcs.filter { $0.from == name.to }
        #expect(Set(loop.map(\.word)) == ["~sell", "~house"])
        let exit = loop[0].to
        #expect(arcs.contains { $0.from == exit && $0.to == name.to && $0.word == nil })
        #expect(arcs.contains { $0.from == exit && $0.to == 3 && $0.word == nil })
        #expect(arcs.contains { $0.from == 2 && $0.to == 3 && $0.word == "machu_picchu" })
        // Words that are no names get nothing beside them.
        #expect(!arcs.contains { $0.from == 1 && $0.word == nil })
    }

    @Test func afterAWakePhraseTheCommandsFirstWordHasTheDecoy() throws {
        let grammar = SpeechGrammar(GarbageGraphTests.forms, name: "test", wakePhrase: "hey there")
        let (fsg, _) = try #require(
            DecoyCheck(words: ["sell"]).fsg(["hey", "there", "stop"], grammar: grammar))
        let arcs = GarbageGraphTests.transitions(fsg)
        let first = try #require(arcs.first { $0.word == nil })
        #expect(first.from == 2 && first.probability == 0.01)
        #expect(arcs.contains { $0.from == first.to && $0.to == 3 && $0.word == "~~sell" })
    }

    /// A hesitation the grammar heard before the command ("um go to machu picchu") is not the
    /// first word: the decoy goes beside "go", and the chain's own hesitations before it.
    @Test func aHeardHesitationIsLeftToTheChain() throws {
        let grammar = SpeechGrammar(GarbageGraphTests.forms, name: "test")
        #expect(grammar.hesitationWords == Set(SpeechGrammar.hesitations))
        let check = DecoyCheck(words: ["sell"])
        let (hesitated, _) = try #require(check.fsg(["um", "go", "to", "machu_picchu"], grammar: grammar))
        let (plain, _) = try #require(check.fsg(["go", "to", "machu_picchu"], grammar: grammar))
        #expect(hesitated == plain)
        // A hesitation heard alone stays the word to check.
        let (alone, _) = try #require(check.fsg(["um"], grammar: grammar))
        #expect(
            GarbageGraphTests.transitions(alone).contains { $0.from == 0 && $0.to == 1 && $0.word == "um" })
    }

    @Test func answersAndEmptyResultsAreNotChecked() throws {
        let answers = SpeechGrammar(answers: [.yesOrNo], name: "answer")
        #expect(DecoyCheck(words: ["sell"]).fsg(["yes"], grammar: answers) == nil)
        let grammar = SpeechGrammar(GarbageGraphTests.forms, name: "test")
        #expect(DecoyCheck(words: ["sell"]).fsg([], grammar: grammar) == nil)
    }

    @Test func aDecoyFirstWordIsNoCommandAndADecoyNameIsLeftOut() {
        func result(_ words: [String]) -> RecognitionResult {
            RecognitionResult(
                text: words.joined(separator: " "), score: 0, frames: 10 * words.count,
                words: words.enumerated().map { index, word in
                    RecognizedWord(
                        word: word, startFrame: 10 * index, endFrame: 10 * index + 9, acousticScore: 0,
                        languageScore: 0, posterior: 0)
                })
        }
        let verb = result(["~~sell", "four", "tickets"])
        #expect(verb.garbage == .commandWord)
        #expect(verb.commandText.isEmpty)
        #expect(verb.readableText == "… four tickets")
        let name = result(["how", "busy", "is", "~got", "~you're", "in", "travel", "tracking"])
        #expect(name.garbage == .value)
        #expect(name.commandText == "how busy is in travel tracking")
        #expect(name.readableText == "how busy is … in travel tracking")
        #expect(
            GarbageModel.decoyWord(of: "~~sell") == "sell"
                && GarbageModel.decoyWord(of: "~you're") == "you're")
        #expect(GarbageModel.decoyWord(of: "~aa") == nil && GarbageModel.decoyWord(of: "sell") == nil)
    }

    @Test func theDecoyListIsReadAndEmptyListsAreRefused() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("decoys-\(UUID()).txt")
        defer { try? FileManager.default.removeItem(at: url) }
        try "# a comment\nsell\n\n  house \n".write(to: url, atomically: true, encoding: .utf8)
        #expect(try DecoyCheck(contentsOf: url).words == ["sell", "house"])
        try "# nothing\n".write(to: url, atomically: true, encoding: .utf8)
        #expect(throws: SpeechError.self) { try DecoyCheck(contentsOf: url) }
    }
}

/// The decoy check on real audio: eSpeak NG speech under the TravelTracking grammar, heard
/// with and without it. No stand-ins.
@Suite("Decoy check recognition", .serialized)
struct DecoyCheckRecognitionTests {
    static func recognizer(decoys: Bool) async throws -> SpeechRecognizer {
        var configuration = try TestModels.grammarConfiguration()
        // Decoded as the decoy list was chosen and measured, with PocketSphinx dropping the
        // frames it calls silence. Every frame decoded (WebRTC's end of speech, the default)
        // lets two of these eSpeak NG wrong verbs through; on people, see
        // Benchmarks/Recognition/README.md, "Decoys".
        configuration.voiceActivity = nil
        if decoys {
            configuration.decoyCheck = try DecoyCheck(
                contentsOf: URL(fileURLWithPath: try #require(configuration.decoys)))
        }
        let recognizer = try SpeechRecognizer(configuration)
        try recognizer.useGrammar(
            SpeechGrammar(
                try await TestModels.travelTrackingMatcher().spokenForms, name: "travel-tracking"))
        return recognizer
    }

    @Test func theManifestsListIsTheLanguageModelsFrequentWords() throws {
        let models = try SpeechRecognizer.Configuration.installed()
        let listed = try DecoyCheck(contentsOf: URL(fileURLWithPath: try #require(models.decoys))).words
        #expect(listed.count == 1_000)
        let frequent = try DecoyCheck.frequentWords(
            count: 50, languageModel: models.languageModel, dictionary: models.dictionary)
        #expect(Array(listed.prefix(50)) == frequent)
        #expect(frequent.prefix(3) == ["and", "that", "for"])
    }

    @Test func theDecoysCommandWritesTheList() throws {
        let models = try SpeechRecognizer.Configuration.installed()
        let listed = try DecoyCheck(contentsOf: URL(fileURLWithPath: try #require(models.decoys))).words
        let run = try Executables.run("voice-intents", ["decoys", "--count", "5"])
        #expect(run.status == 0, "\(run.errors)")
        let words = run.output.split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
        #expect(words == Array(listed.prefix(5)))
        #expect(run.output.hasPrefix("# The 5 most frequent words of en-us.lm.bin"), "\(run.output)")
        let none = try Executables.run("voice-intents", ["decoys", "--count", "0"])
        #expect(none.status != 0 && none.errors.contains("--count must be at least 1"), "\(none.errors)")
    }

    @Test func commandsKeepTheirWordsAndAWrongVerbOrAnUnknownNameDoesNot() async throws {
        let checked = try await Self.recognizer(decoys: true)
        let plain = try await Self.recognizer(decoys: false)
        func heard(_ sentence: String) throws -> (plain: RecognitionResult, checked: RecognitionResult) {
            let audio = try GarbageRecognitionTests.spoken(sentence)
            plain.forgetChannel()
            checked.forgetChannel()
            return (try plain.recognize(audio), try checked.recognize(audio))
        }
        for sentence in ["navigate to the map in travel tracking", "how busy is uluru in travel tracking"] {
            let result = try heard(sentence)
            #expect(result.checked.text == sentence && result.plain.text == sentence)
            #expect(result.checked.garbage == nil)
        }
        // Another verb: heard as some command without the check, as no command with it.
        let verbs = [
            "cancel my tickets for machu picchu in travel tracking", "close the map in travel tracking",
        ]
        for sentence in verbs {
            let result = try heard(sentence)
            #expect(result.plain.garbage == nil && !result.plain.commandText.isEmpty, "\(result.plain.text)")
            #expect(result.checked.garbage == .commandWord, "\(sentence): \(result.checked.text)")
            #expect(result.checked.commandText.isEmpty)
        }
        // A landmark the app does not know: forced onto one it knows, or left out.
        let unknown = try heard("book two tickets to big ben with travel tracking")
        #expect(
            unknown.plain.garbage == nil && unknown.plain.text != unknown.checked.text,
            "\(unknown.plain.text)")
        #expect(unknown.checked.garbage == .value, "\(unknown.checked.text)")
        #expect(unknown.checked.commandText == "book two tickets to with travel tracking")
    }
}
