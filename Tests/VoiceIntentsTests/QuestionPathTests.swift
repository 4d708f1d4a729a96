import Testing
import VoiceIntents
import VoiceIntentsTesting

/// Every kind of question an intent can ask, answered, misunderstood and cancelled.
@Suite("Question paths")
struct QuestionPathTests {
    let dependencies: AppDependencyManager
    let journal = Journal()

    init() {
        dependencies = AppDependencyManager()
        let journal = self.journal
        dependencies.add { journal }
    }

    func run(
        _ intent: any AppIntent.Type, _ parameters: [String: any Sendable] = [:],
        replies: [ConversationReply]
    ) async -> (IntentOutcome, ScriptedConversation) {
        let conversation = ScriptedConversation(replies)
        let runner = IntentRunner(conversation: conversation, dependencies: dependencies)
        return (await runner.run(intent, parameters: parameters), conversation)
    }

    // MARK: Values

    @Test func givenValueNeedsNoQuestion() async {
        let (outcome, conversation) = await run(PaintIntent.self, ["color": Color.blue], replies: [])
        #expect(outcome.status == .completed)
        #expect(outcome.dialog?.full.defaultValue == "Painted it Blue.")
        #expect(outcome.valueText == "Blue")
        #expect(conversation.questions.isEmpty)
    }

    @Test func wordsAreResolvedLikeAnAnswer() async {
        let (outcome, _) = await run(PaintIntent.self, ["color": "navy"], replies: [])
        #expect(outcome.value as? Color == .blue)
    }

    @Test func missingRequiredValueIsAskedWithItsDialog() async {
        let (outcome, conversation) = await run(PaintIntent.self, replies: [.text("crimson")])
        #expect(conversation.prompts == ["Which color?"])
        #expect(conversation.questions.first?.kind == .value)
        #expect(conversation.questions.first?.options.contains("Green") == true)
        #expect(outcome.value as? Color == .red)
        // Optional parameters are never asked for.
        #expect(conversation.questions.count == 1)
    }

    @Test func promptIsBuiltFromTheTitleWhenNoneIsDeclared() async {
        let (_, conversation) = await run(VisitIntent.self, replies: [.text("Kyoto")])
        #expect(conversation.prompts == ["Which city?"])
        let (_, measured) = await run(MeasureIntent.self, replies: [.text("two point five")])
        #expect(measured.prompts == ["What's the length in meters?"])
    }

    @Test func unknownAnswerIsAskedOnceMoreThenFails() async {
        let (outcome, conversation) = await run(
            PaintIntent.self, replies: [.text("purple"), .text("green")])
        #expect(conversation.prompts == ["Which color?", "Sorry, I don't know \"purple\". Which color?"])
        #expect(outcome.value as? Color == .green)

        let (failed, _) = await run(PaintIntent.self, replies: [.text("purple"), .text("mauve")])
        #expect(failed.status == .failed)
        #expect(failed.errorMessage == "Sorry, I don't know \"mauve\" as a color.")
    }

    @Test func unknownWordsInTheCommandAreAskedAbout() async {
        let (outcome, conversation) = await run(
            PaintIntent.self, ["color": "purple"], replies: [.text("red")])
        #expect(conversation.prompts == ["Sorry, I don't know \"purple\". Which color?"])
        #expect(outcome.value as? Color == .red)
    }

    @Test func silenceIsAskedAgain() async {
        let (outcome, conversation) = await run(PaintIntent.self, replies: [.silence, .text("blue")])
        #expect(conversation.prompts.last == "Sorry, I didn't catch that. Which color?")
        #expect(outcome.value as? Color == .blue)
    }

    @Test func thrownRequestValueAsksAndRunsPerformAgain() async {
        let (outcome, conversation) = await run(GreetIntent.self, replies: [.text("Ada")])
        #expect(conversation.prompts == ["Who should I greet?"])
        #expect(outcome.dialog?.full.defaultValue == "Hello, Ada!")
    }

    @Test func endlessRequestValueStops() async {
        let replies = Array(repeating: ConversationReply.text("again"), count: 20)
        let (outcome, conversation) = await run(LoopingIntent.self, replies: replies)
        #expect(outcome.status == .failed)
        #expect(conversation.questions.count == IntentRunner.maximumRequests)
    }

    @Test func defaultValueIsUsedWhenNotGiven() async {
        let (outcome, _) = await run(VisitIntent.self, ["city": "Lima"], replies: [])
        #expect(outcome.dialog?.full.defaultValue == "Booked 2 nights in Lima, Peru.")
        let (three, _) = await run(VisitIntent.self, ["city": "Lima", "nights": "three"], replies: [])
        #expect(three.dialog?.full.defaultValue == "Booked 3 nights in Lima, Peru.")
    }

    // MARK: Disambiguation

    @Test func ambiguousValueIsDisambiguatedByOrdinal() async {
        let (outcome, conversation) = await run(
            VisitIntent.self, ["city": "Paris"], replies: [.text("the second one")])
        #expect(conversation.questions.map(\.kind) == [.disambiguation])
        #expect(conversation.questions.first?.options == ["Paris", "Paris"])
        #expect((outcome.value as? City)?.id == "paris-tx")
    }

    @Test func disambiguationByPositionAndByName() async {
        let (byIndex, _) = await run(PickCityIntent.self, replies: [.option(0)])
        #expect((byIndex.value as? City)?.id == "paris-fr")
        let (byLast, _) = await run(PickCityIntent.self, replies: [.text("last")])
        #expect((byLast.value as? City)?.id == "paris-tx")
        let (unclear, conversation) = await run(
            PickCityIntent.self, replies: [.text("Berlin"), .text("first")])
        #expect(conversation.prompts == ["Which Paris?", "Sorry, I didn't catch that. Which Paris?"])
        #expect((unclear.value as? City)?.id == "paris-fr")
    }

    // MARK: Confirmation

    @Test func parameterConfirmationYesAndNo() async {
        let (yes, _) = await run(ConfirmColorIntent.self, ["color": "red"], replies: [.yes])
        #expect(yes.dialog?.full.defaultValue == "Keeping Red.")
        let (no, conversation) = await run(
            ConfirmColorIntent.self, ["color": "red"], replies: [.text("nope")])
        #expect(no.dialog?.full.defaultValue == "Not Red then.")
        #expect(conversation.prompts == ["Really Red?"])
    }

    @Test func intentConfirmationRunsOnlyOnYes() async {
        let (yes, conversation) = await run(EraseIntent.self, replies: [.text("yes please")])
        #expect(yes.status == .completed)
        #expect(conversation.questions.first?.isDestructive == true)
        #expect(journal.all == ["erased"])

        let (no, _) = await run(EraseIntent.self, replies: [.no])
        #expect(no.status == .cancelled)
        #expect(no.dialog?.full.defaultValue == "Okay, cancelled.")
        #expect(journal.all == ["erased"])
    }

    @Test func unclearConfirmationIsAskedOnceThenCancelled() async {
        let (outcome, conversation) = await run(EraseIntent.self, replies: [.silence, .text("maybe")])
        #expect(
            conversation.prompts == ["Erase everything?", "Sorry, was that a yes or a no? Erase everything?"])
        #expect(outcome.status == .cancelled)
        #expect(journal.all.isEmpty)
    }

    // MARK: Choice

    @Test func choiceByTitleAndByNumber() async {
        let (binned, conversation) = await run(TidyIntent.self, replies: [.text("throw away")])
        #expect(binned.dialog?.full.defaultValue == "Thrown away.")
        #expect(conversation.questions.first?.options == ["Cancel", "Keep", "Throw Away"])
        #expect(conversation.questions.first?.isDestructive == true)
        let (kept, _) = await run(TidyIntent.self, replies: [.option(1)])
        #expect(kept.dialog?.full.defaultValue == "Kept.")
        #expect(journal.all == ["binned", "kept"])
    }

    @Test func choosingTheCancelOptionCancels() async {
        let (outcome, _) = await run(TidyIntent.self, replies: [.text("cancel")])
        #expect(outcome.status == .cancelled)
        let (byIndex, _) = await run(TidyIntent.self, replies: [.option(0)])
        #expect(byIndex.status == .cancelled)
        #expect(journal.all.isEmpty)
    }

    // MARK: Cancel at every prompt

    @Test(arguments: [ConversationReply.cancel, .text("never mind"), .text("Stop"), .text("cancel.")])
    func cancelAtEveryKindOfPrompt(_ cancel: ConversationReply) async {
        let value = await run(PaintIntent.self, replies: [cancel]).0
        let disambiguation = await run(VisitIntent.self, ["city": "paris"], replies: [cancel]).0
        let parameterConfirmation = await run(ConfirmColorIntent.self, ["color": "red"], replies: [cancel]).0
        let confirmation = await run(EraseIntent.self, replies: [cancel]).0
        let choice = await run(TidyIntent.self, replies: [cancel]).0
        let thrownRequest = await run(GreetIntent.self, replies: [cancel]).0
        for outcome in [value, disambiguation, parameterConfirmation, confirmation, choice, thrownRequest] {
            #expect(outcome.status == .cancelled, "\(outcome.intent)")
            #expect(outcome.errorMessage == nil)
        }
        #expect(journal.all.isEmpty)
    }

    @Test func askingOutsideARunnerIsAnError() async {
        await #expect(throws: AppIntentError.noConversation) {
            _ = try await PickCityIntent().perform()
        }
    }
}
