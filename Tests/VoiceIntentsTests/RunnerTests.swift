import Foundation
import Synchronization
import Testing
import VoiceIntents
import VoiceIntentsTesting

@Suite("Running intents")
struct RunnerTests {
    @Test func opensIntentRunsNext() async {
        let runner = IntentRunner(conversation: ScriptedConversation())
        let outcome = await runner.run(CreateNoteIntent.self, parameters: ["text": "buy milk"])
        #expect(outcome.valueText == "buy milk")
        #expect(outcome.chain.map(\.intent) == ["CreateNoteIntent", "ShowNoteIntent"])
        let shown = outcome.next.first
        #expect(shown?.snippetText == "📝 buy milk")
        #expect(shown?.spokenText(voiceOnly: true) == "Your note says: buy milk.")
        #expect(shown?.spokenText(voiceOnly: false) == "Here is your note.")
    }

    @Test func aDialogAfterTheIntentToOpenIsSpokenBeforeItRuns() async {
        let outcome = await IntentRunner(conversation: ScriptedConversation()).run(
            SaveNoteIntent.self, parameters: ["text": "call mum"])
        #expect(outcome.spokenText(voiceOnly: true) == "Saved.")
        #expect(outcome.chain.map(\.intent) == ["SaveNoteIntent", "ShowNoteIntent"])
    }

    @Test func aNumberOutsideItsRangeIsExplainedAndAskedAgain() async {
        let conversation = ScriptedConversation([.text("150"), .text("40")])
        let outcome = await IntentRunner(conversation: conversation).run(
            DimIntent.self, parameters: ["brightness": 120])
        #expect(
            conversation.prompts == [
                "Sorry, 120 is more than the most, 100. What's the brightness?",
                "Sorry, 150 is more than the most, 100. What's the brightness?",
            ])
        #expect(outcome.dialog?.full.defaultValue == "Dimmed to 40.")
        #expect(
            IntentDefinition(DimIntent.self).parameters.first?.description
                == "brightness: Int \"Brightness\" in 0...100")
        #expect(IntentDefinition(DimIntent.self).parameters.last?.inclusiveRange == 0...10)
    }

    @Test func chainLengthIsBounded() async {
        let runner = IntentRunner(conversation: ScriptedConversation(), maximumChainLength: 1)
        let outcome = await runner.run(CreateNoteIntent.self, parameters: ["text": "x"])
        #expect(outcome.next.isEmpty)
    }

    @Test(arguments: [
        ("gold", "Sorry, gold is sold out."),
        ("tin", "Sorry, something went wrong."),
    ])
    func thrownErrorsBecomeTheirMessage(item: String, message: String) async {
        let outcome = await IntentRunner(conversation: ScriptedConversation())
            .run(BuyIntent.self, parameters: ["item": item])
        #expect(outcome.status == .failed)
        #expect(outcome.errorMessage == message)
        #expect(outcome.dialog?.full.defaultValue == message)
        #expect(outcome.errorDetail?.isEmpty == false)
    }

    @Test func localizedErrorsUseTheirDescription() async {
        let outcome = await IntentRunner(conversation: ScriptedConversation())
            .run(BuyIntent.self, parameters: ["item": "silver"])
        #expect(outcome.errorMessage == "The silver is tarnished.")
    }

    @Test func dependenciesAreInjectedFromTheRunnersManager() async {
        let manager = AppDependencyManager()
        let journal = Journal()
        manager.add { journal }
        let outcome = await IntentRunner(conversation: ScriptedConversation([.yes]), dependencies: manager)
            .run(EraseIntent.self)
        #expect(outcome.status == .completed)
        #expect(journal.all == ["erased"])
    }

    /// Apple's three ways to register: a value, a closure, and an asynchronous closure, which is
    /// awaited before an intent that reads its dependency runs.
    @Test func dependenciesRegisterAsApplesOverloadsDo() async throws {
        let manager = AppDependencyManager()
        let journal = Journal()
        manager.add(dependency: journal)
        #expect(manager.resolve(Journal.self) === journal)

        let waited = AppDependencyManager()
        waited.add { () async throws -> Journal in
            try await Task.sleep(for: .milliseconds(1))
            return journal
        }
        #expect(waited.contains(Journal.self) && waited.resolve(Journal.self) == nil, "not awaited yet")
        let outcome = await IntentRunner(conversation: ScriptedConversation([.yes]), dependencies: waited)
            .run(EraseIntent.self)
        #expect(outcome.status == .completed)
        #expect(journal.all == ["erased"] && waited.resolve(Journal.self) === journal)
    }

    /// Keys are any hashable value, so several dependencies of one type stand apart.
    @Test func aDependencyKeyIsAnyHashableValue() async {
        enum Shelf: Hashable { case read, unread }
        let manager = AppDependencyManager()
        let read = Journal()
        let unread = Journal()
        manager.add(key: Shelf.read) { read }
        manager.add(key: Shelf.unread) { unread }
        manager.add(key: "plain") { Journal() }
        #expect(manager.resolve(Journal.self, key: Shelf.unread) === unread)
        #expect(manager.resolve(Journal.self, key: Shelf.read) === read)
        #expect(manager.resolve(Journal.self) == nil && manager.contains(Journal.self, key: "plain"))
    }

    /// A dependency whose maker throws is not there: the intent that needs it is not run, and
    /// the error is said.
    @Test func aDependencyThatCannotBeMadeFailsTheIntent() async {
        struct Closed: Error, CustomLocalizedStringResourceConvertible {
            var localizedStringResource: LocalizedStringResource { "The journal is closed." }
        }
        let manager = AppDependencyManager()
        manager.add { () async throws -> Journal in throw Closed() }
        let outcome = await IntentRunner(conversation: ScriptedConversation([.yes]), dependencies: manager)
            .run(EraseIntent.self)
        #expect(outcome.status == .failed)
        #expect(outcome.dialog?.full.defaultValue == "The journal is closed.")

        // An intent that does not read it still runs.
        struct Archive: Sendable {}
        let other = AppDependencyManager()
        let journal = Journal()
        other.add { journal }
        other.add { () async throws -> Archive in throw Closed() }
        let unharmed = await IntentRunner(conversation: ScriptedConversation([.yes]), dependencies: other)
            .run(EraseIntent.self)
        #expect(unharmed.status == .completed && journal.all == ["erased"])
    }

    /// An options provider's suggestions are the question's options, found through the
    /// runner's dependencies when it asks; other answers are still taken.
    @Test func anOptionsProviderSuggestsTheAnswers() async {
        let manager = AppDependencyManager()
        let journal = Journal()
        journal.record("Ada")
        journal.record("Grace")
        manager.add { journal }
        let conversation = ScriptedConversation([.text("Alan")])
        let outcome = await IntentRunner(conversation: conversation, dependencies: manager)
            .run(NameIntent.self)
        #expect(conversation.questions.map(\.options) == [["Ada", "Grace"]])
        #expect(outcome.dialog?.full.defaultValue == "Hello, Alan.")
    }

    @Test func aDependencyIsMadeOnceAndShared() {
        let manager = AppDependencyManager()
        let made = Mutex(0)
        manager.add {
            made.withLock { $0 += 1 }
            return Journal()
        }
        let first = manager.resolve(Journal.self)
        let second = manager.resolve(Journal.self)
        #expect(first === second)
        #expect(made.withLock { $0 } == 1)
        #expect(manager.resolve(String.self) == nil)
    }

    @Test func missingDependencyFailsBeforePerformWithItsName() async {
        let conversation = ScriptedConversation([.yes])
        let outcome = await IntentRunner(conversation: conversation, dependencies: AppDependencyManager())
            .run(EraseIntent.self)
        #expect(outcome.status == .failed)
        #expect(outcome.errorDetail?.contains("Journal is not registered") == true)
        #expect(conversation.questions.isEmpty)
    }

    @Test func wrongTypesAndUnknownNamesAreReported() async {
        let runner = IntentRunner(conversation: ScriptedConversation())
        let wrongType = await runner.run(PaintIntent.self, parameters: ["color": 3])
        #expect(wrongType.errorDetail == "parameter 'color' takes Color, got Int")
        let unknown = await runner.run(PaintIntent.self, parameters: ["colour": "red"])
        #expect(unknown.errorDetail == "PaintIntent has no @Parameter named 'colour'")
    }

    @Test func aShortcutsPrefilledValuesAreKeptAndNotShared() async {
        let template = VisitIntent()
        template.city = City.all[2]
        let runner = IntentRunner(conversation: ScriptedConversation())
        let first = await runner.run(template, parameters: ["nights": 5])
        #expect(first.dialog?.full.defaultValue == "Booked 5 nights in Kyoto, Japan.")
        let second = await runner.run(template)
        #expect(second.dialog?.full.defaultValue == "Booked 2 nights in Kyoto, Japan.")
    }

    @Test func modesFollowTheScreen() async {
        let headless = await IntentRunner(conversation: ScriptedConversation()).run(ModesIntent.self)
        #expect(headless.dialog?.full.defaultValue == "background cannot continue, background")
        #expect(!headless.ranInForeground)
        let screen = await IntentRunner(conversation: ScriptedConversation(), hasScreen: true)
            .run(ModesIntent.self)
        #expect(screen.dialog?.full.defaultValue == "background can continue, foreground")
        #expect(screen.ranInForeground)
    }

    @Test func outcomeListsSpokenParameterValues() async {
        let outcome = await IntentRunner(conversation: ScriptedConversation())
            .run(VisitIntent.self, parameters: ["city": "lima"])
        #expect(outcome.parameters == ["city": "Lima", "nights": "2"])
    }
}
