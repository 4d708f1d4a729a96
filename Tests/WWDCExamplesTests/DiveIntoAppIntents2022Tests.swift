// Runs the examples of WWDC22 session 10032, "Dive into App Intents".

import Foundation
import Testing
import VoiceIntents
import VoiceIntentsTesting

@Suite("Dive into App Intents (WWDC22 10032)")
struct DiveIntoAppIntents2022Tests {
    static let emmaID = UUID(uuidString: "00000000-0000-0000-0000-000000000001")!

    // MARK: Open Currently Reading and App Shortcuts

    @Test func openCurrentlyReading() async {
        let world = Harness()
        let outcome = await world.run(OpenCurrentlyReading(), hasScreen: true)

        #expect(outcome.status == .completed)
        #expect(outcome.ranInForeground)
        #expect(world.navigator.history == ["shelf currentlyReading"])
    }

    @Test func libraryShortcutIsTitledAfterItsIntent() throws {
        let shortcut = try #require(LibraryAppShortcuts.appShortcuts.first)
        #expect(shortcut.phrases.map(\.description) == ["Open Currently Reading in ${applicationName}"])
        #expect(shortcut.shortTitle.defaultValue == "Open Currently Reading")
        #expect(shortcut.systemImageName == "books.vertical.fill")
        #expect(shortcut.intentType == OpenCurrentlyReading.self)
    }

    // MARK: Open Shelf

    @Test func openShelfByName() async {
        let world = Harness()
        let outcome = await world.run(OpenShelf(), parameters: ["shelf": "want to read"])

        #expect(outcome.status == .completed)
        #expect(outcome.parameters["shelf"] == "Want to Read")
        #expect(world.navigator.history == ["shelf wantToRead"])
        #expect(world.conversation.questions.isEmpty)
    }

    @Test func openShelfAsksWhichShelf() async {
        let world = Harness([.text("read")])
        let outcome = await world.run(OpenShelf())

        #expect(outcome.status == .completed)
        #expect(world.conversation.prompts == ["Which shelf?"])
        #expect(world.conversation.questions.first?.options == ["Currently Reading", "Want to Read", "Read"])
        #expect(world.navigator.history == ["shelf read"])
    }

    @Test func openShelfSummary() {
        let intent = OpenShelf()
        #expect(intent.summaryText == "Open shelf")
        intent.shelf = .wantToRead
        #expect(intent.summaryText == "Open Want to Read")
        #expect(IntentDefinition(OpenShelf.self).supportedModes == .foreground)
    }

    // MARK: BookEntity and BookQuery

    @Test func bookEntityProperties() {
        let book = BookEntity(id: Self.emmaID, title: "Emma")
        #expect(book.title == "Emma")
        #expect(book.dateRead == nil)
        #expect(book.recommendedBy == nil)
        #expect(book.$title.title?.defaultValue == "Title")
        #expect(book.$datePublished.title?.defaultValue == "Publishing Date")
        #expect(book.$dateRead.title?.defaultValue == "Read Date")
        #expect(book.displayRepresentation.title.defaultValue == "Emma")
        #expect(BookEntity.typeDisplayRepresentation.name.defaultValue == "Book")

        let untitled = BookEntity(id: Self.emmaID)
        untitled.title = "Persuasion"
        #expect(untitled.title == "Persuasion")
    }

    @Test func bookQueryFindsBooksByIdentifier() async throws {
        let world = Harness()
        let unknown = UUID(uuidString: "FFFFFFFF-0000-0000-0000-000000000000")!
        let titles = try await world.insideIntent {
            try await BookQuery().entities(for: [Self.emmaID, unknown]).map(\.title)
        }
        #expect(titles == ["Emma"])

        let byIdentifierOnly = try await world.insideIntent {
            let query = BookQueryByIdentifier.BookQuery()
            return try await (
                query.entities(for: [Self.emmaID]).map(\.title), query.suggestedEntities().count
            )
        }
        #expect(byIdentifierOnly.0 == ["Emma"])
        #expect(byIdentifierOnly.1 == 0)
    }

    @Test func bookQuerySuggestsAndSearches() async throws {
        let world = Harness()
        let suggested = try await world.insideIntent {
            try await BookQuery().suggestedEntities().map(\.title)
        }
        #expect(suggested == ["Emma", "Where the Crawdads Sing"])

        let found = try await world.insideIntent {
            try await BookQuery().entities(matching: "CRAWDADS").map(\.title)
        }
        #expect(found == ["Where the Crawdads Sing"])
    }

    // MARK: Open Book: parameter confirmation

    @Test func openBookConfirmedYes() async {
        let world = Harness([.yes])
        let outcome = await world.run(OpenBook(), parameters: ["book": "Emma"])

        #expect(outcome.status == .completed)
        let questions = world.conversation.questions
        #expect(questions.map(\.kind) == [.confirmation])
        #expect(world.conversation.prompts == ["Are you sure you want to clear read state for Emma?"])
        #expect(questions.first?.parameter?.name == "book")
        #expect(world.navigator.history == ["book Emma"])
    }

    @Test func openBookConfirmedNo() async {
        let world = Harness([.no])
        let outcome = await world.run(OpenBook(), parameters: ["book": "Emma"])

        // The session returns an empty result when the person says no.
        #expect(outcome.status == .completed)
        #expect(world.conversation.questions.map(\.kind) == [.confirmation])
        #expect(world.navigator.history.isEmpty)
    }

    @Test func openBookConfirmedInWords() async {
        let world = Harness([.text("yes please")])
        let outcome = await world.run(OpenBook(), parameters: ["book": "Emma"])

        #expect(outcome.status == .completed)
        #expect(world.navigator.history == ["book Emma"])
    }

    @Test func openBookAsksWhichBookThenConfirms() async {
        let world = Harness([.text("crawdads"), .yes])
        let outcome = await world.run(OpenBook())

        #expect(outcome.status == .completed)
        let questions = world.conversation.questions
        #expect(questions.map(\.kind) == [.value, .confirmation])
        #expect(questions.first?.prompt == "Which book?")
        #expect(questions.first?.options == ["Emma", "Where the Crawdads Sing"])
        #expect(outcome.parameters["book"] == "Where the Crawdads Sing")
        #expect(world.navigator.history == ["book Where the Crawdads Sing"])
    }

    @Test func openBookSummaryAndInitializer() {
        let intent = OpenBook(book: BookEntity(id: Self.emmaID, title: "Emma"))
        #expect(intent.book.title == "Emma")
        #expect(intent.summaryText == "Open Emma")
        #expect(OpenBook().summaryText == "Open book")
    }

    // MARK: Add Book: result value and open intent

    @Test func addBookOpensTheBookItAdded() async {
        let world = Harness([.yes])
        let outcome = await world.run(
            AddBookOpensIntent.AddBook(),
            parameters: ["title": "Persuasion", "recommendedBy": "Anne"])

        #expect(outcome.status == .completed)
        #expect(outcome.intent == "AddBook")
        #expect(outcome.valueText == "Persuasion")
        #expect((outcome.value as? BookEntity)?.recommendedBy == "Anne")
        #expect(world.database.books.map(\.title) == ["Emma", "Where the Crawdads Sing", "Persuasion"])

        // The open intent runs next, and asks its own confirmation.
        #expect(outcome.chain.map(\.intent) == ["AddBook", "OpenBook"])
        #expect(outcome.next.first?.status == .completed)
        #expect(outcome.next.first?.parameters["book"] == "Persuasion")
        #expect(world.conversation.prompts == ["Are you sure you want to clear read state for Persuasion?"])
        #expect(world.navigator.history == ["book Persuasion"])
    }

    @Test func addBookWhoseOpenIntentIsDeclined() async {
        let world = Harness([.no])
        let outcome = await world.run(AddBookOpensIntent.AddBook(), parameters: ["title": "Persuasion"])

        #expect(outcome.status == .completed)
        #expect(outcome.next.map(\.status) == [.completed])
        #expect(world.database.books.map(\.title).contains("Persuasion"))
        #expect(world.navigator.history.isEmpty)
    }

    @Test func addBookAsksForAMissingTitle() async {
        let world = Harness([.text("Persuasion"), .yes])
        let outcome = await world.run(AddBookOpensIntent.AddBook())

        #expect(outcome.status == .completed)
        #expect(world.conversation.questions.map(\.kind) == [.value, .confirmation])
        #expect(world.conversation.prompts.first == "What's the title?")
        #expect(outcome.valueText == "Persuasion")
    }

    @Test(
        "An unknown book fails with the intent's own error",
        arguments: [
            AddBookOpensIntent.AddBook(), AddBookProvidesDialog.AddBook(),
            AddBookShowsSnippetView.AddBook(), AddBookRequestValue.AddBook(),
            AddBookRequestDisambiguation.AddBook(), AddBookRequestConfirmation.AddBook(),
        ] as [any AppIntent])
    func addBookNotFound(intent: any AppIntent) async {
        let world = Harness()
        let outcome = await world.run(intent, parameters: ["title": "Moby Dick"])

        #expect(outcome.status == .failed)
        #expect(outcome.errorMessage == "Book Not Found")
        #expect(outcome.dialog?.full.defaultValue == "Book Not Found")
        #expect(outcome.valueText == nil)
        #expect(outcome.next.isEmpty)
        #expect(world.conversation.questions.isEmpty)
        #expect(world.database.books.count == 2)
    }

    // MARK: Add Book: dialog and snippet

    @Test func addBookSaysWhatItAdded() async {
        let world = Harness()
        let outcome = await world.run(AddBookProvidesDialog.AddBook(), parameters: ["title": "persuasion"])

        #expect(outcome.status == .completed)
        #expect(outcome.dialog?.full.defaultValue == "Added Persuasion to Library!")
        #expect(outcome.valueText == "Persuasion")
        #expect(outcome.snippetText == nil)
    }

    @Test func addBookShowsTheCover() async {
        let world = Harness()
        let outcome = await world.run(AddBookShowsSnippetView.AddBook(), parameters: ["title": "Persuasion"])

        #expect(outcome.status == .completed)
        #expect(outcome.snippetText == "[Cover] Persuasion by Jane Austen")
        #expect(outcome.valueText == "Persuasion")
        #expect(outcome.dialog == nil)
        #expect(world.database.books.map(\.title).contains("Persuasion"))
    }

    // MARK: Add Book: request value

    @Test func addBookAsksWhoWroteIt() async {
        let world = Harness([.text("Cormac McCarthy")])
        let outcome = await world.run(AddBookRequestValue.AddBook(), parameters: ["title": "The Road"])

        // perform() throws the request, the runner asks, then runs perform() again.
        #expect(outcome.status == .completed)
        let questions = world.conversation.questions
        #expect(questions.map(\.kind) == [.value])
        #expect(world.conversation.prompts == ["Who wrote the book?"])
        #expect(questions.first?.parameter?.name == "authorName")
        #expect(questions.first?.options == [])
        #expect(outcome.parameters["authorName"] == "Cormac McCarthy")
    }

    @Test func addBookDoesNotAskWhenTheAuthorIsKnown() async {
        let world = Harness()
        let outcome = await world.run(
            AddBookRequestValue.AddBook(), parameters: ["title": "The Road", "authorName": "Jack London"])

        #expect(outcome.status == .completed)
        #expect(world.conversation.questions.isEmpty)
    }

    @Test func addBookDoesNotAskForAnUnambiguousTitle() async {
        let world = Harness()
        let outcome = await world.run(AddBookRequestValue.AddBook(), parameters: ["title": "Emma"])

        #expect(outcome.status == .completed)
        #expect(world.conversation.questions.isEmpty)
    }

    @Test func addBookCancelledWhileAskingForTheAuthor() async {
        let world = Harness([.text("never mind")])
        let outcome = await world.run(AddBookRequestValue.AddBook(), parameters: ["title": "The Road"])

        #expect(outcome.status == .cancelled)
        #expect(outcome.dialog?.full.defaultValue == "Okay, cancelled.")
    }

    // MARK: Add Book: request disambiguation

    @Test func addBookDisambiguatesByOrdinal() async {
        let world = Harness([.text("the second one")])
        let outcome = await world.run(
            AddBookRequestDisambiguation.AddBook(), parameters: ["title": "The Road"])

        #expect(outcome.status == .completed)
        let questions = world.conversation.questions
        #expect(questions.map(\.kind) == [.disambiguation])
        #expect(world.conversation.prompts == ["Which author?"])
        #expect(questions.first?.parameter?.name == "authorName")
        let options = questions.first?.options ?? []
        #expect(options == ["Cormac McCarthy", "Jack London"])
        #expect(OptionSelection.index(of: .text("the second one"), in: options) == 1)
        #expect(world.conversation.remainingReplies.isEmpty)
    }

    @Test func addBookDisambiguatesByName() async {
        let world = Harness([.text("Jack London")])
        let outcome = await world.run(
            AddBookRequestDisambiguation.AddBook(), parameters: ["title": "The Road"])

        #expect(outcome.status == .completed)
        #expect(world.conversation.questions.map(\.kind) == [.disambiguation])
        let options = world.conversation.questions.first?.options ?? []
        #expect(OptionSelection.index(of: .text("Jack London"), in: options) == 1)
        #expect(OptionSelection.index(of: .text("McCarthy"), in: options) == 0)
    }

    @Test func addBookDisambiguationAsksAgainAfterAnUnclearAnswer() async {
        let world = Harness([.text("Stephen King"), .text("first")])
        let outcome = await world.run(
            AddBookRequestDisambiguation.AddBook(), parameters: ["title": "The Road"])

        #expect(outcome.status == .completed)
        #expect(world.conversation.questions.map(\.attempt) == [1, 2])
        #expect(world.conversation.prompts == ["Which author?", "Sorry, I didn't catch that. Which author?"])
    }

    @Test func addBookDisambiguationGivesUpAfterTwoUnclearAnswers() async {
        let world = Harness([.text("Stephen King"), .text("Agatha Christie")])
        let outcome = await world.run(
            AddBookRequestDisambiguation.AddBook(), parameters: ["title": "The Road"])

        #expect(outcome.status == .cancelled)
        #expect(world.conversation.questions.count == 2)
    }

    @Test func addBookNeedsNoDisambiguationForOneBook() async {
        let world = Harness()
        let outcome = await world.run(
            AddBookRequestDisambiguation.AddBook(), parameters: ["title": "Emma"])

        #expect(outcome.status == .completed)
        #expect(world.conversation.questions.isEmpty)
    }

    // MARK: Add Book: parameter confirmation

    @Test func addBookConfirmsTheTitle() async {
        let world = Harness([.yes])
        let outcome = await world.run(
            AddBookRequestConfirmation.AddBook(),
            parameters: ["title": "Persuasion", "recommendedBy": "Anne"])

        #expect(outcome.status == .completed)
        let questions = world.conversation.questions
        #expect(questions.map(\.kind) == [.confirmation])
        #expect(world.conversation.prompts == ["Did you mean Persuasion?"])
        #expect(questions.first?.parameter?.name == "title")
        #expect(outcome.valueText == "Persuasion")
        #expect(world.database.books.last?.title == "Persuasion")
        #expect(world.database.books.last?.recommendedBy == "Anne")
    }

    @Test func addBookIgnoresANoToTheTitleConfirmation() async {
        // The session's code reads the answer into `confirmed` and does not use it.
        let world = Harness([.no])
        let outcome = await world.run(
            AddBookRequestConfirmation.AddBook(), parameters: ["title": "Persuasion"])

        #expect(outcome.status == .completed)
        #expect(outcome.valueText == "Persuasion")
    }

    @Test func addBookCancelledAtTheTitleConfirmation() async {
        let world = Harness([.cancel])
        let outcome = await world.run(
            AddBookRequestConfirmation.AddBook(), parameters: ["title": "Persuasion"])

        #expect(outcome.status == .cancelled)
        #expect(world.database.books.map(\.title) == ["Emma", "Where the Crawdads Sing"])
    }

    // MARK: Buy Book: result confirmation

    @Test func buyBookConfirmed() async {
        let world = Harness([.yes])
        let outcome = await world.run(BuyBook(), parameters: ["book": "Emma", "count": "two"])

        #expect(outcome.status == .completed)
        let questions = world.conversation.questions
        #expect(questions.map(\.kind) == [.confirmation])
        #expect(world.conversation.prompts == ["Are you ready to order?"])
        #expect(questions.first?.snippet == "Order preview: 2 copies of Emma, total $18")
        #expect(outcome.dialog?.full.defaultValue == "Thank you for your order!")
        #expect(outcome.snippetText == "Order placed: 2 copies of Emma")
        #expect(outcome.valueText == "2 copies of Emma")
        #expect((outcome.value as? OrderEntity)?.count == 2)
    }

    @Test func buyBookDeclined() async {
        let world = Harness([.no])
        let outcome = await world.run(BuyBook(), parameters: ["book": "Emma", "count": 2])

        #expect(outcome.status == .cancelled)
        #expect(outcome.dialog?.full.defaultValue == "Okay, cancelled.")
        #expect(outcome.errorMessage == nil)
        #expect(outcome.snippetText == nil)
        #expect(outcome.valueText == nil)
    }

    @Test func buyBookAsksForTheCount() async {
        let world = Harness([.text("3"), .text("yes")])
        let outcome = await world.run(BuyBook(), parameters: ["book": "Where the Crawdads Sing"])

        #expect(outcome.status == .completed)
        #expect(world.conversation.questions.map(\.kind) == [.value, .confirmation])
        #expect(world.conversation.prompts.first == "What's the count?")
        #expect(outcome.snippetText == "Order placed: 3 copies of Where the Crawdads Sing")
    }
}

extension ConversationQuestion {
    /// The full dialog of the question.
    var prompt: String { dialog.full.defaultValue }
}
