import SmartHome
import Testing
import VoiceIntents
import VoiceIntentsTesting
import VoiceLoop
import VoiceTestSupport

/// Free text heard by voice that is none of its parameter's suggestions is read back before the
/// intent runs (issue 69): the conversation logic, with a scripted person. Whether speech is
/// heard so is `FreeTextTests`' and the voice loop test's business. What is added once is a
/// suggestion from then on, in the one house the tests share: each test adds items of its own.
@Suite("Free text read back")
struct FreeTextReadBackTests {
    static func turn(
        heard sentence: String, _ replies: [ConversationReply]
    ) async throws -> (TurnPipeline.Turn, ScriptedConversation) {
        _ = SmartHomeApp()  // its house, for the shopping list
        let pipeline = try await TurnPipelineTests.smartHome()
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
        #expect(turn.replies(voiceOnly: true) == ["Added toothpaste to your Shopping List."])
    }

    @Test func aSuggestionRunsWithoutAQuestion() async throws {
        let (turn, conversation) = try await Self.turn(heard: "add eggs to my shopping list", [])
        #expect(conversation.questions.isEmpty)
        #expect(turn.replies(voiceOnly: true) == ["Added eggs to your Shopping List."])
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
        #expect(turn.replies(voiceOnly: true) == ["Added dog food to your Shopping List."])
    }

    /// A suggestion given the second time is heard as well as any name: not read back again.
    @Test func aSuggestionGivenAgainRuns() async throws {
        let (turn, conversation) = try await Self.turn(
            heard: "add birdseed to my shopping list", [.no, .text("milk")])
        #expect(conversation.prompts == ["Add birdseed to your shopping list?", "What should I add?"])
        #expect(turn.replies(voiceOnly: true) == ["Added milk to your Shopping List."])
    }

    @Test func aSecondNoCancelsAndNothingIsAdded() async throws {
        let (turn, conversation) = try await Self.turn(
            heard: "add lightbulbs to my shopping list", [.no, .text("cat litter"), .no])
        #expect(conversation.prompts.count == 3)
        #expect(turn.outcome?.status == .cancelled)
    }

    /// Typed, the words are what was meant: nothing is read back.
    @Test func aTypedItemRunsWithoutAQuestion() async throws {
        _ = SmartHomeApp()
        let pipeline = try await TurnPipelineTests.smartHome()
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
