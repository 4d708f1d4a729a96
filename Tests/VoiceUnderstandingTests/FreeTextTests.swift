import Foundation
import PhraseMatching
import Testing
import VoiceAudio
import VoiceIntents
import VoiceTestSupport

@testable import VoiceEvaluation
@testable import VoiceRecognition
@testable import VoiceUnderstanding

private struct RemindIntent: AppIntent {
    static let title: LocalizedStringResource = "Remind Me"
    @Parameter(title: "Task") var task: String
    func perform() async throws -> some IntentResult { .result() }
}

private struct AddToShoppingListIntent: AppIntent {
    static let title: LocalizedStringResource = "Add to the Shopping List"
    @Parameter(title: "Item") var item: String
    func perform() async throws -> some IntentResult { .result() }
}

private struct LightsOnIntent: AppIntent {
    static let title: LocalizedStringResource = "Turn On the Lights"
    func perform() async throws -> some IntentResult { .result() }
}

private struct FreeTextShortcuts: AppShortcutsProvider {
    static var appShortcuts: [AppShortcut] {
        AppShortcut(
            intent: RemindIntent(), phrases: ["Remind me to \(\.$task)"], shortTitle: "Remind",
            systemImageName: "bell")
        AppShortcut(
            intent: AddToShoppingListIntent(), phrases: ["Add \(\.$item) to my shopping list"],
            shortTitle: "Shopping", systemImageName: "cart")
        AppShortcut(
            intent: LightsOnIntent(), phrases: ["Turn on the lights"], shortTitle: "Lights",
            systemImageName: "lightbulb")
    }
}

/// Free text inside a command (issue 69 item 1): a `String` parameter with no suggestions heard
/// by voice, its slot a loop of the installed free-text words (`Models/en/free-text.txt`) between
/// the phrase's own words, as `listen --free-text` hears them.
@Suite("Free text heard", .serialized)
struct FreeTextTests {
    static func matcher() async throws -> PhraseMatcher {
        try await PhraseMatcher(app: AppDescription(name: "Errands", shortcuts: FreeTextShortcuts.self))
    }

    static func words() throws -> FreeTextWords {
        try #require(try FreeTextWords.installed(), "no Models/en/free-text.txt")
    }

    /// Without the words, the phrases with a free-text slot are left out of the grammar, as
    /// before; with them, they are in it, the slot one arc of the graph and a loop in the FSG.
    @Test func aFreeTextSlotIsInTheGrammarWithTheWords() async throws {
        let forms = try await Self.matcher().spokenForms
        let without = SpeechGrammar(forms, name: "errands")
        #expect(without.freeTextPhrases == 2)
        #expect(!without.canSay("remind me to buy toothpaste"))
        let words = try Self.words()
        let with = SpeechGrammar(forms, name: "errands", freeText: words)
        #expect(with.freeTextPhrases == 0)
        for sentence in [
            "remind me to buy toothpaste", "remind me to call the dentist on friday",
            "add toothpaste to my shopping list", "turn on the lights",
        ] {
            #expect(with.canSay(sentence), "\(sentence)")
        }
        #expect(!with.canSay("add to my shopping list"), "a slot takes one word or more")
        #expect(with.words.isSuperset(of: words.words.prefix(100)))
        #expect(with.jsgf.contains("<free_text> = ( the | to |"), "\(with.jsgf.prefix(2_000))")
        // One loop for both slots would let "add" go on to "… to my shopping list" after
        // "remind me to": they end differently, so each has its own.
        let loops = with.fsg.split(separator: "\n").filter { $0.hasSuffix(" toothpaste") }
        #expect(loops.count == 2, "\(loops)")
        #expect(without.fsg.split(separator: "\n").count < 100)
    }

    /// A list that cannot be read is named, line and column.
    /// Asked for a free-text value ("What should I add?"), the answer is heard as the loop too:
    /// beside the suggestions when there are some, alone when there are none.
    @Test func aFreeTextAnswerIsTheLoopBesideTheSuggestions() throws {
        let words = try Self.words()
        let suggested = SpokenForms.Values.suggestedText([["milk"], ["eggs"]])
        let besides = SpeechGrammar(answers: [.values(suggested)], name: "answer", freeText: words)
        #expect(besides.canSay("milk"))
        #expect(besides.canSay("toothpaste"))
        #expect(besides.canSay("cancel"))
        let only = SpeechGrammar(answers: [.values(suggested)], name: "answer")
        #expect(only.canSay("milk"))
        #expect(!only.canSay("toothpaste"))
        let open = SpeechGrammar(answers: [.values(.freeText)], name: "answer", freeText: words)
        #expect(open.canSay("call the dentist"))
        #expect(open.fsg.split(separator: "\n").count > words.words.count)
    }

    @Test func aBadListIsNamedWithItsLine() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("free-text-\(UUID()).txt")
        defer { try? FileManager.default.removeItem(at: file) }
        try "# words\nthe -1.4\ntoothpaste five\n".write(to: file, atomically: true, encoding: .utf8)
        #expect {
            try FreeTextWords(contentsOf: file)
        } throws: { error in
            "\(error)".contains("\(file.path):3:12: expected a word and its log 10 probability")
        }
    }

    /// Said by eSpeak NG and heard under the app's grammar with the free-text words: each
    /// reaches its intent, and the command without a slot is not taken into one. eSpeak NG is
    /// not a person: this shows the slot can be heard, not how often people's are; a person's
    /// one take is heard last.
    @Test func theSlotIsHeardFromESpeakNGAndAPerson() async throws {
        let matcher = try await Self.matcher()
        let grammar = SpeechGrammar(matcher.spokenForms, name: "errands", freeText: try Self.words())
        let recognizer = try SpeechRecognizer(try TestModels.grammarConfiguration())
        try recognizer.useGrammar(grammar)
        let roundTrip = RoundTrip()
        let said: [(sentence: String, parameter: String?, value: String?)] = [
            ("remind me to buy toothpaste", "task", "buy toothpaste"),
            ("remind me to call the dentist", "task", "call the dentist"),
            ("remind me to take out the trash", "task", "take out the trash"),
            ("add toothpaste to my shopping list", "item", "toothpaste"),
            ("add batteries to my shopping list", "item", "batteries"),
            ("add milk to my shopping list", "item", "milk"),
            ("turn on the lights", nil, nil),
        ]
        var misheard: [String] = []
        var wrongIntent: [String] = []
        for (index, (sentence, parameter, value)) in said.enumerated() {
            for voice in ["en-us"] {  // `en-us+m3` too measured the same (below)
                let speech = try TestSpeech.said(sentence, voice: voice, rate: 160)
                let heard = try recognizer.recognize(roundTrip.heard(speech, seed: UInt64(index))).text
                let match = await matcher.match(heard).best
                let expected =
                    parameter == nil
                    ? "LightsOnIntent"
                    : sentence.hasPrefix("add") ? "AddToShoppingListIntent" : "RemindIntent"
                if match?.intent != expected {
                    wrongIntent.append("\(voice): \(sentence) → \(heard)")
                } else if let parameter, "\(match?.values[parameter]?.value ?? "")" != value {
                    misheard.append("\(voice): \(sentence) → \(heard)")
                }
            }
        }
        // Measured 2026-12-03: every clip reached its intent, the fixed command was never taken
        // into a slot, and 1 of the 6 slots came out word for word ("batteries"; with `en-us+m3`
        // too, 2 of 12): a loop of 20,000 words weighted as English uses them hears eSpeak NG's
        // "milk" as "we okay". 5,000 words heard none of 12; weights flattened (square root) 3.
        // Held so that the mechanism keeps working; the aim (80%, or read back) wants more.
        #expect(wrongIntent.isEmpty, "\(wrongIntent.joined(separator: "\n"))")
        #expect(misheard.count <= 5, "\(misheard.joined(separator: "\n"))")

        // A person's "add apples to my shopping list" (speech-to-phrase's recording, the one
        // free-text item among people's recordings here) reaches its intent; its slot was heard
        // as "who's".
        let take = try WAVFile.read(
            from: PeoplesRecordings.file("speech-to-phrase-en", "add apples to my Shopping List.wav"))
        // Heard afresh: after eSpeak NG's clips the recognizer's channel is eSpeak NG's.
        let fresh = try SpeechRecognizer(try TestModels.grammarConfiguration())
        try fresh.useGrammar(grammar)
        let person = try fresh.recognize(take.forRecognizer).text
        let personsIntent = await matcher.match(person).best?.intent
        #expect(personsIntent == "AddToShoppingListIntent", "heard as: \(person)")
    }
}
