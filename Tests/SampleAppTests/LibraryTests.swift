import Library
import Testing
import VoiceIntents
import VoiceIntentsTesting

/// The Library sample's intents, through scripted conversations.
@Suite("Library sample")
struct LibraryTests {
    let dependencies = AppDependencyManager()
    var library: LibraryModel { dependencies.resolve(LibraryModel.self)! }

    init() {
        LibraryApp.registerDependencies(in: dependencies)
    }

    func run(
        _ intent: any AppIntent.Type, _ parameters: [String: any Sendable] = [:],
        replies: [ConversationReply] = []
    ) async -> (IntentOutcome, ScriptedConversation) {
        let conversation = ScriptedConversation(replies)
        let runner = IntentRunner(conversation: conversation, dependencies: dependencies)
        return (await runner.run(intent, parameters: parameters), conversation)
    }

    @Test func declarationIsValid() throws {
        #expect(try AppDescription(LibraryApp.self).validated().isEmpty)
    }

    @Test func openShelfReadsItsBooks() async {
        let (outcome, _) = await run(OpenShelf.self, ["shelf": "finished books"])
        #expect(outcome.dialog?.full.defaultValue == "Read has Beloved and Middlemarch.")
        #expect(outcome.dialog?.supporting.defaultValue == "Here is Read.")
        #expect(outcome.snippetText == "• Beloved\n• Middlemarch")
        #expect(library.opened == ["shelf:read"])
        let shelf = OpenShelf()
        shelf.shelf = .wantToRead
        #expect(shelf.summaryText == "Open Want to Read")
    }

    @Test func addBookOpensItNext() async {
        let (outcome, conversation) = await run(AddBook.self, ["title": "Dune"])
        #expect(conversation.questions.isEmpty)
        #expect(outcome.valueText == "Dune")
        #expect(outcome.dialog?.full.defaultValue == "Added Dune by Frank Herbert to your library.")
        #expect(outcome.next.first?.dialog?.full.defaultValue == "Opening Dune by Frank Herbert.")
        #expect(library.opened == ["book:Dune"])
    }

    @Test func ambiguousTitleAsksForTheAuthor() async {
        let (outcome, conversation) = await run(
            AddBook.self, ["title": "the road"], replies: [.text("Jack London")])
        #expect(conversation.prompts == ["There are 2 books called the road. Who wrote it?"])
        #expect(outcome.dialog?.full.defaultValue == "Added The Road by Jack London to your library.")
    }

    @Test func unknownAuthorIsDisambiguatedByOrdinal() async {
        let (outcome, conversation) = await run(
            AddBook.self, ["title": "The Road", "authorName": "Tolkien"], replies: [.text("the first one")])
        #expect(conversation.questions.map(\.kind) == [.disambiguation])
        #expect(conversation.questions.first?.options == ["Cormac McCarthy", "Jack London"])
        #expect(outcome.dialog?.full.defaultValue == "Added The Road by Cormac McCarthy to your library.")
    }

    @Test func vagueTitleIsConfirmed() async {
        let (yes, conversation) = await run(AddBook.self, ["title": "hobbit"], replies: [.yes])
        #expect(conversation.prompts == ["Did you mean The Hobbit?"])
        #expect(yes.valueText == "The Hobbit")
        let (no, _) = await run(AddBook.self, ["title": "hobbit"], replies: [.no])
        #expect(no.status == .failed)
        #expect(no.errorMessage == "Sorry, I couldn't find a book called hobbit.")
        #expect(!library.books.contains { $0.title == "The Hobbit" && no.status == .completed })
    }

    /// A suggested title said as people answer from a list ("the dune") is that title.
    @Test func aSuggestedTitleIsTakenWithTheAndOneAroundIt() async {
        for answer in ["dune", "the dune", "the dune one", "Dune"] {
            let (outcome, _) = await run(AddBook.self, replies: [.text(answer)])
            #expect(
                outcome.dialog?.full.defaultValue == "Added Dune by Frank Herbert to your library.",
                "\(answer)")
        }
        let (hobbit, _) = await run(AddBook.self, replies: [.text("the hobbit one")])
        #expect(hobbit.parameters["title"] == "The Hobbit")
        // Part of a title is no suggestion: the intent asks what was meant.
        let (part, conversation) = await run(AddBook.self, replies: [.text("hobbit"), .yes])
        #expect(conversation.prompts.last == "Did you mean The Hobbit?")
        #expect(part.status == .completed)
    }

    @Test func missingTitleIsAskedAndUnknownTitleIsAnError() async {
        let (outcome, conversation) = await run(AddBook.self, replies: [.text("The Lord of the Flies")])
        #expect(conversation.prompts == ["What's the title of the book?"])
        // The catalogue's titles are suggested (once each), yet any title may be answered.
        #expect(conversation.questions.first?.options.count == 11)
        #expect(conversation.questions.first?.options.prefix(3) == ["Persuasion", "Emma", "Dune"])
        #expect(outcome.status == .failed)
        #expect(
            outcome.dialog?.full.defaultValue == "Sorry, I couldn't find a book called The Lord of the Flies."
        )
    }

    @Test func buyBookConfirmsTheOrder() async {
        let (bought, conversation) = await run(
            BuyBook.self, ["book": "kindred", "count": 2], replies: [.text("yes")])
        #expect(conversation.prompts == ["2 copies of Kindred costs 24 dollars. Are you ready to order?"])
        #expect(conversation.questions.first?.snippet == "2 × Kindred (Octavia Butler)\nTotal: $24")
        #expect(bought.dialog?.full.defaultValue == "Thank you for your order!")
        #expect(library.orderCount == 1)

        let (declined, _) = await run(BuyBook.self, ["book": "kindred"], replies: [.no])
        #expect(declined.status == .cancelled)
        #expect(library.orderCount == 1)
    }

    @Test func openBookBySuggestedName() async {
        let (outcome, _) = await run(OpenBook.self, replies: [.text("persuasion")])
        #expect(outcome.dialog?.full.defaultValue == "Opening Persuasion by Jane Austen.")
    }
}
