import Foundation
import VoiceIntents

/// Opens one shelf.
public struct OpenShelf: AppIntent {
    public static let title: LocalizedStringResource = "Open Shelf"
    public static let openAppWhenRun = true

    public static var parameterSummary: some ParameterSummary {
        Summary("Open \(\.$shelf)")
    }

    @Parameter(title: "Shelf", requestValueDialog: "Which shelf?")
    public var shelf: Shelf

    @Dependency var library: LibraryModel

    public init() {}

    public func perform() async throws -> some IntentResult & ProvidesDialog & ShowsSnippetView {
        library.recordOpened("shelf:\(shelf.rawValue)")
        let books = library.books(on: shelf)
        let titles = books.map(\.title)
        let list = titles.isEmpty ? "no books" : titles.formatted(.list(type: .and))
        return .result(
            dialog: IntentDialog(
                full: "\(shelf) has \(list).",
                supporting: "Here is \(shelf)."),
            view: Text(titles.isEmpty ? "(empty)" : titles.map { "• \($0)" }.joined(separator: "\n")))
    }
}

/// Opens one book.
public struct OpenBook: AppIntent {
    public static let title: LocalizedStringResource = "Open Book"
    public static let openAppWhenRun = true

    public static var parameterSummary: some ParameterSummary {
        Summary("Open \(\.$book)")
    }

    @Parameter(title: "Book", requestValueDialog: "Which book?")
    public var book: BookEntity

    @Dependency var library: LibraryModel

    public init() {}

    public init(book: BookEntity) {
        self.book = book
    }

    public func perform() async throws -> some IntentResult & ProvidesDialog {
        library.recordOpened("book:\(book.title)")
        return .result(dialog: "Opening \(book) by \(book.authorName).")
    }
}

/// Adds a book from the catalogue to the library, asking for the author when the title is
/// ambiguous, and opens it.
public struct AddBook: AppIntent {
    public static let title: LocalizedStringResource = "Add Book"

    @Parameter(
        title: "Title", requestValueDialog: "What's the title of the book?",
        optionsProvider: CatalogueTitles())
    public var title: String

    @Parameter(title: "Author Name")
    public var authorName: String?

    @Parameter(title: "Recommended By")
    public var recommendedBy: String?

    @Dependency var library: LibraryModel

    public init() {}

    public func perform() async throws
        -> some IntentResult & ReturnsValue<BookEntity> & ProvidesDialog & OpensIntent
    {
        let titled = library.catalogue.findBooks(named: title)
        guard !titled.isEmpty else { throw Error.notFound(title: title) }
        var books = authorName.map { library.catalogue.findBooks(named: title, author: $0) } ?? titled
        if titled.count > 1 && authorName == nil {
            throw $authorName.requestValue("There are \(titled.count) books called \(title). Who wrote it?")
        }
        if books.count != 1 {
            // The author fits none of the books with that title, or several: let the reader pick.
            let author = try await $authorName.requestDisambiguation(
                among: titled.map(\.authorName), dialog: "Which author?")
            books = titled.filter { $0.authorName == author }
        }
        let book = books[0]
        if book.title.caseInsensitiveCompare(title) != .orderedSame {
            guard try await $title.requestConfirmation(for: book.title, dialog: "Did you mean \(book.title)?")
            else { throw Error.notFound(title: title) }
        }
        library.add(book, recommendedBy: recommendedBy)
        let entity = BookEntity(book)
        return .result(
            value: entity, opensIntent: OpenBook(book: entity),
            dialog: "Added \(entity) by \(book.authorName) to your library.")
    }

    public enum Error: Swift.Error, CustomLocalizedStringResourceConvertible {
        case notFound(title: String)

        public var localizedStringResource: LocalizedStringResource {
            switch self {
            case .notFound(let title): "Sorry, I couldn't find a book called \(title)."
            }
        }
    }
}

/// The titles in the catalogue: what people most likely answer when asked for a title (any
/// title may still be typed).
public struct CatalogueTitles: DynamicOptionsProvider {
    @Dependency var library: LibraryModel

    public init() {}

    public func results() async throws -> [String] {
        var seen = Set<String>()
        return library.catalogue.books.map(\.title).filter { seen.insert($0).inserted }
    }
}

/// Orders copies of a book, after confirming the order.
public struct BuyBook: AppIntent {
    public static let title: LocalizedStringResource = "Buy Book"

    public static var parameterSummary: some ParameterSummary {
        Summary("Buy \(\.$count) copies of \(\.$book)")
    }

    @Parameter(title: "Book", requestValueDialog: "Which book would you like to buy?")
    public var book: BookEntity

    @Parameter(title: "Count", default: 1)
    public var count: Int

    @Dependency var library: LibraryModel

    public init() {}

    public func perform() async throws -> some IntentResult & ReturnsValue<OrderEntity> & ProvidesDialog
        & ShowsSnippetView
    {
        guard let catalogued = library.catalogue.books.first(where: { $0.id == book.id }) else {
            throw AddBook.Error.notFound(title: book.title)
        }
        let order = OrderEntity(book: book, count: count)
        let total = catalogued.price * count
        try await requestConfirmation(
            output: .result(value: order, dialog: "\(order) costs \(total) dollars. Are you ready to order?")
            {
                OrderPreview(order: order, total: total)
            })
        library.order(catalogued, count: count)
        return .result(value: order, dialog: "Thank you for your order!") {
            OrderPreview(order: order, total: total)
        }
    }
}

/// An order summary on a terminal.
public struct OrderPreview: SnippetView {
    public let order: OrderEntity
    public let total: Int

    public var text: String {
        "\(order.count) × \(order.book.title) (\(order.book.authorName))\nTotal: $\(total)"
    }
}
