import PhraseMatching
import Testing
import VoiceIntents
import VoiceIntentsTesting
import VoiceLoop
import VoiceTestSupport

/// Groceries that are always the same: what is added is not suggested afterwards, so the tests
/// share no state (SmartHome's house, shared by every test in the process, would learn items).
private struct UsualGroceries: DynamicOptionsProvider {
    func results() async throws -> [String] { ["apples", "eggs", "milk"] }
}

private struct AddGroceryIntent: AppIntent {
    static let title: LocalizedStringResource = "Add Grocery"
    @Parameter(title: "Item", requestValueDialog: "What should I add?", optionsProvider: UsualGroceries())
    var item: String
    func perform() async throws -> some IntentResult & ProvidesDialog {
        .result(dialog: "Added \(item) to your shopping list.")
    }
}

private struct GroceryShortcuts: AppShortcutsProvider {
    static var appShortcuts: [AppShortcut] {
        AppShortcut(
            intent: AddGroceryIntent(), phrases: ["Add \(\.$item) to my shopping list"], shortTitle: "Add",
            systemImageName: "cart")
    }
}

/// Free text heard by voice that is none of its parameter's suggestions is read back before the
/// intent runs (issue 69): the conversation logic, with a scripted person. Whether speech is
/// heard so is `FreeTextTests`' and the voice loop test's business.
@Suite("Free text read back")
struct FreeTextReadBackTests {
    static func pipeline() async throws -> TurnPipeline {
        let description = AppDescription(
            name: "Groceries", shortcuts: GroceryShortcuts.self, isAddressedByName: false)
        return TurnPipeline(description: description, matcher: try await PhraseMatcher(app: description))
    }

    static func turn(
        heard sentence: String, _ replies: [ConversationReply]
    ) async throws -> (TurnPipeline.Turn, ScriptedConversation) {
        let pipeline = try await Self.pipeline()
        let conversation = ScriptedConversation(replies)
        let runner = IntentRunner(conversation: conversation, isAuthenticated: false)
        let (turn, _) = await pipeline.turn(
            heard: TestSpeech.heard(sentence), addressed: true, runner: runner)
        return (turn, conversation)
    }

    @Test func anItemOutsideTheSuggestionsIsReadBackAndRunsOnYes() async throws {
        let (turn, conversation) = try await Self.turn(heard: "add toothpaste to my shopping list", [.yes])
        #expect(conversation.prompts == ["Add toothpaste to your shopping list?"])
        #expect(conversation.questions.first?.kind == .confirmation)
        #expect(turn.outcome?.status == .completed)
        #expect(turn.replies(voiceOnly: true) == ["Added toothpaste to your shopping list."])
    }

    @Test func aSuggestionRunsWithoutAQuestion() async throws {
        let (turn, conversation) = try await Self.turn(heard: "add eggs to my shopping list", [])
        #expect(conversation.questions.isEmpty)
        #expect(turn.replies(voiceOnly: true) == ["Added eggs to your shopping list."])
    }

    /// "No": the item is asked for again, and the command read back with the new one.
    @Test func noAsksForTheItemAgainAndReadsItBack() async throws {
        let (turn, conversation) = try await Self.turn(
            heard: "add shoe polish to my shopping list", [.no, .text("dog food"), .yes])
        #expect(
            conversation.prompts == [
                "Add shoe polish to your shopping list?", "What should I add?",
                "Add dog food to your shopping list?",
            ])
        #expect(turn.replies(voiceOnly: true) == ["Added dog food to your shopping list."])
    }

    /// A suggestion given the second time is heard as well as any name: not read back again.
    @Test func aSuggestionGivenAgainRuns() async throws {
        let (turn, conversation) = try await Self.turn(
            heard: "add birdseed to my shopping list", [.no, .text("milk")])
        #expect(conversation.prompts == ["Add birdseed to your shopping list?", "What should I add?"])
        #expect(turn.replies(voiceOnly: true) == ["Added milk to your shopping list."])
    }

    @Test func aSecondNoCancelsAndNothingIsAdded() async throws {
        let (turn, conversation) = try await Self.turn(
            heard: "add lightbulbs to my shopping list", [.no, .text("cat litter"), .no])
        #expect(conversation.prompts.count == 3)
        #expect(turn.outcome?.status == .cancelled)
    }

    /// Typed, the words are what was meant: nothing is read back.
    @Test func aTypedItemRunsWithoutAQuestion() async throws {
        let pipeline = try await Self.pipeline()
        let conversation = ScriptedConversation()
        let (turn, _) = await pipeline.turn(
            typed: "add sponges to my shopping list",
            runner: IntentRunner(conversation: conversation, isAuthenticated: false))
        #expect(conversation.questions.isEmpty)
        #expect(turn.outcome?.status == .completed)
    }

    @Test(arguments: [
        (
            "add toothpaste to my shopping list", ["item": "toothpaste"], [:],
            "Add toothpaste to your shopping list?"
        ),
        (
            "add toothpaste to my shopping list", ["item": "toothpaste"], ["item": "dog food"],
            "Add dog food to your shopping list?"
        ),
        // The person's own words inside a value stay theirs.
        ("remind me to call my mother", ["task": "call my mother"], [:], "Remind you to call my mother?"),
    ])
    func theSentenceIsSaidBackToThePerson(
        _ sentence: String, _ values: [String: String], _ current: [String: String], _ question: String
    ) {
        #expect(ReadBack(sentence: sentence, values: values).question(with: current) == question)
    }

    @Test func aValueNotInTheSentenceHasNoQuestion() {
        #expect(ReadBack(sentence: "add it", values: ["item": "toothpaste"]).question(with: [:]) == nil)
        #expect(ReadBack(sentence: nil, values: ["item": "toothpaste"]).question(with: [:]) == nil)
    }
}
