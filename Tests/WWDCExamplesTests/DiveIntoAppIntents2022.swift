// WWDC22 session 10032, "Dive into App Intents".
//
// These declarations reproduce the API usage shown in that session, as a source-compatibility
// check: they are the session's code with `import VoiceIntents` instead of `import AppIntents`,
// reformatted onto lines. Only the import and the places marked `ADAPTED` differ. SwiftUI views
// are text `SnippetView`s (in Support.swift); the NSPredicate-based `EntityPropertyQuery` is
// Apple-only and left out.
//
// The session builds AddBook up step by step; each version sits in a caseless enum named after
// what it shows, so that all of them can live in one module. The same goes for the first,
// EntityQuery-only BookQuery. The first BookEntity (before it had properties) does not compile on
// its own in the session either (it reads an undeclared `title`), so only the one with
// `@Property`s is here.

import VoiceIntents

// MARK: - Open Currently Reading

struct OpenCurrentlyReading: AppIntent {
    static var title: LocalizedStringResource = "Open Currently Reading"

    @MainActor
    func perform() async throws -> some IntentResult {
        Navigator.shared.openShelf(.currentlyReading)
        return .result()
    }

    static var openAppWhenRun: Bool = true
}

// MARK: - App Shortcuts

struct LibraryAppShortcuts: AppShortcutsProvider {
    static var appShortcuts: [AppShortcut] {
        AppShortcut(
            intent: OpenCurrentlyReading(),
            phrases: ["Open Currently Reading in \(.applicationName)"],
            systemImageName: "books.vertical.fill"
        )
    }
}

// MARK: - Shelf enum and Open Shelf

enum Shelf: String {
    case currentlyReading
    case wantToRead
    case read
}

extension Shelf: AppEnum {
    static var typeDisplayRepresentation: TypeDisplayRepresentation = "Shelf"

    static var caseDisplayRepresentations: [Shelf: DisplayRepresentation] = [
        .currentlyReading: "Currently Reading",
        .wantToRead: "Want to Read",
        .read: "Read",
    ]
}

struct OpenShelf: AppIntent {
    static var title: LocalizedStringResource = "Open Shelf"

    @Parameter(title: "Shelf")
    var shelf: Shelf

    @MainActor
    func perform() async throws -> some IntentResult {
        Navigator.shared.openShelf(shelf)
        return .result()
    }

    static var parameterSummary: some ParameterSummary {
        Summary("Open \(\.$shelf)")
    }

    static var openAppWhenRun: Bool = true
}

// MARK: - Book entity and queries

struct BookEntity: AppEntity, Identifiable {
    var id: UUID

    @Property(title: "Title")
    var title: String

    @Property(title: "Publishing Date")
    var datePublished: Date

    @Property(title: "Read Date")
    var dateRead: Date?

    var recommendedBy: String?

    var displayRepresentation: DisplayRepresentation { "\(title)" }

    static var typeDisplayRepresentation: TypeDisplayRepresentation = "Book"

    static var defaultQuery = BookQuery()

    init(id: UUID) {
        self.id = id
    }

    init(id: UUID, title: String) {
        self.id = id
        self.title = title
    }
}

// ADAPTED: namespace only; the session's first BookQuery, before it became a string query.
enum BookQueryByIdentifier {
    struct BookQuery: EntityQuery {
        func entities(for identifiers: [UUID]) async throws -> [BookEntity] {
            identifiers.compactMap { identifier in
                Database.shared.book(for: identifier)
            }
        }
    }
}

struct BookQuery: EntityStringQuery {
    func entities(for identifiers: [UUID]) async throws -> [BookEntity] {
        identifiers.compactMap { identifier in
            Database.shared.book(for: identifier)
        }
    }

    func suggestedEntities() async throws -> [BookEntity] {
        Database.shared.books
    }

    func entities(matching string: String) async throws -> [BookEntity] {
        Database.shared.books.filter { book in
            book.title.lowercased().contains(string.lowercased())
        }
    }
}

// MARK: - Open Book

struct OpenBook: AppIntent {
    @Parameter(title: "Book")
    var book: BookEntity

    static var title: LocalizedStringResource = "Open Book"

    static var openAppWhenRun = true

    @MainActor
    func perform() async throws -> some IntentResult {
        guard
            try await $book.requestConfirmation(
                for: book,
                dialog: "Are you sure you want to clear read state for \(book)?"
            )
        else {
            return .result()
        }
        Navigator.shared.openBook(book)
        return .result()
    }

    static var parameterSummary: some ParameterSummary {
        Summary("Open \(\.$book)")
    }

    init() {}

    init(book: BookEntity) {
        self.book = book
    }
}

// MARK: - Add Book, returning a value and opening it

// ADAPTED: namespace only (one of the session's versions of AddBook).
enum AddBookOpensIntent {
    struct AddBook: AppIntent {
        static var title: LocalizedStringResource = "Add Book"

        @Parameter(title: "Title")
        var title: String

        @Parameter(title: "Author Name")
        var authorName: String?

        @Parameter(title: "Recommended By")
        var recommendedBy: String?

        func perform() async throws -> some IntentResult & ReturnsValue<BookEntity> & OpensIntent {
            guard var book = await BooksAPI.shared.findBooks(named: title, author: authorName).first else {
                throw Error.notFound
            }
            book.recommendedBy = recommendedBy
            Database.shared.add(book: book)
            return .result(
                value: book,
                openIntent: OpenBook(book: book)
            )
        }

        enum Error: Swift.Error, CustomLocalizedStringResourceConvertible {
            case notFound

            var localizedStringResource: LocalizedStringResource {
                switch self {
                case .notFound: return "Book Not Found"
                }
            }
        }
    }
}

// MARK: - Dialog

// ADAPTED: namespace only (one of the session's versions of AddBook).
enum AddBookProvidesDialog {
    struct AddBook: AppIntent {
        static var title: LocalizedStringResource = "Add Book"

        @Parameter(title: "Title")
        var title: String

        @Parameter(title: "Author Name")
        var authorName: String?

        @Parameter(title: "Recommended By")
        var recommendedBy: String?

        func perform() async throws -> some IntentResult & ReturnsValue<BookEntity> & ProvidesDialog {
            guard var book = await BooksAPI.shared.findBooks(named: title, author: authorName).first else {
                throw Error.notFound
            }
            book.recommendedBy = recommendedBy
            Database.shared.add(book: book)
            return .result(
                value: book,
                dialog: "Added \(book) to Library!"
            )
        }

        enum Error: Swift.Error, CustomLocalizedStringResourceConvertible {
            case notFound

            var localizedStringResource: LocalizedStringResource {
                switch self {
                case .notFound: return "Book Not Found"
                }
            }
        }
    }
}

// MARK: - Snippet

// ADAPTED: namespace only (one of the session's versions of AddBook).
enum AddBookShowsSnippetView {
    struct AddBook: AppIntent {
        static var title: LocalizedStringResource = "Add Book"

        @Parameter(title: "Title")
        var title: String

        @Parameter(title: "Author Name")
        var authorName: String?

        @Parameter(title: "Recommended By")
        var recommendedBy: String?

        func perform() async throws -> some IntentResult & ShowsSnippetView {
            guard var book = await BooksAPI.shared.findBooks(named: title, author: authorName).first else {
                throw Error.notFound
            }
            book.recommendedBy = recommendedBy
            Database.shared.add(book: book)
            return .result(value: book) {
                CoverView(book: book)
            }
        }

        enum Error: Swift.Error, CustomLocalizedStringResourceConvertible {
            case notFound

            var localizedStringResource: LocalizedStringResource {
                switch self {
                case .notFound: return "Book Not Found"
                }
            }
        }
    }
}

// MARK: - Request value

// ADAPTED: namespace only (one of the session's versions of AddBook).
enum AddBookRequestValue {
    struct AddBook: AppIntent {
        static var title: LocalizedStringResource = "Add Book"

        @Parameter(title: "Title")
        var title: String

        @Parameter(title: "Author Name")
        var authorName: String?

        @Parameter(title: "Recommended By")
        var recommendedBy: String?

        func perform() async throws -> some IntentResult {
            let books = await BooksAPI.shared.findBooks(named: title, author: authorName)
            guard !books.isEmpty else { throw Error.notFound }
            if books.count > 1 && authorName == nil {
                throw $authorName.requestValue("Who wrote the book?")
            }
            return .result()
        }

        enum Error: Swift.Error, CustomLocalizedStringResourceConvertible {
            case notFound

            var localizedStringResource: LocalizedStringResource {
                switch self {
                case .notFound: return "Book Not Found"
                }
            }
        }
    }
}

// MARK: - Request disambiguation

// ADAPTED: namespace only (one of the session's versions of AddBook).
enum AddBookRequestDisambiguation {
    struct AddBook: AppIntent {
        static var title: LocalizedStringResource = "Add Book"

        @Parameter(title: "Title")
        var title: String

        @Parameter(title: "Author Name")
        var authorName: String?

        @Parameter(title: "Recommended By")
        var recommendedBy: String?

        func perform() async throws -> some IntentResult {
            let books = await BooksAPI.shared.findBooks(named: title, author: authorName)
            guard !books.isEmpty else { throw Error.notFound }
            if books.count > 1 {
                let chosenAuthor = try await $authorName.requestDisambiguation(
                    among: books.map { $0.authorName },
                    dialog: "Which author?"
                )
            }
            return .result()
        }

        enum Error: Swift.Error, CustomLocalizedStringResourceConvertible {
            case notFound

            var localizedStringResource: LocalizedStringResource {
                switch self {
                case .notFound: return "Book Not Found"
                }
            }
        }
    }
}

// MARK: - Request parameter confirmation

// ADAPTED: namespace only (one of the session's versions of AddBook).
enum AddBookRequestConfirmation {
    struct AddBook: AppIntent {
        static var title: LocalizedStringResource = "Add Book"

        @Parameter(title: "Title")
        var title: String

        @Parameter(title: "Author Name")
        var authorName: String?

        @Parameter(title: "Recommended By")
        var recommendedBy: String?

        func perform() async throws -> some IntentResult & ReturnsValue<BookEntity> {
            guard var book = await BooksAPI.shared.findBooks(named: title, author: authorName).first else {
                throw Error.notFound
            }
            let confirmed = try await $title.requestConfirmation(
                for: book.title,
                dialog: "Did you mean \(book)?"
            )
            book.recommendedBy = recommendedBy
            Database.shared.add(book: book)
            return .result(value: book)
        }

        enum Error: Swift.Error, CustomLocalizedStringResourceConvertible {
            case notFound

            var localizedStringResource: LocalizedStringResource {
                switch self {
                case .notFound: return "Book Not Found"
                }
            }
        }
    }
}

// MARK: - Request result confirmation

struct BuyBook: AppIntent {
    @Parameter(title: "Book")
    var book: BookEntity

    @Parameter(title: "Count")
    var count: Int

    static var title: LocalizedStringResource = "Buy Book"

    func perform() async throws -> some IntentResult & ShowsSnippetView & ProvidesDialog {
        let order = OrderEntity(book: book, count: count)
        try await requestConfirmation(
            output: .result(value: order, dialog: "Are you ready to order?") {
                OrderPreview(order: order)
            })
        return .result(value: order, dialog: "Thank you for your order!") {
            OrderConfirmation(order: order)
        }
    }
}
