import Foundation
import Synchronization

/// A book in the catalogue or on a shelf.
public struct Book: Sendable, Hashable, Identifiable {
    public let id: UUID
    public let title: String
    public let authorName: String
    public let published: Int
    public let price: Int

    public init(id: UUID = UUID(), title: String, authorName: String, published: Int, price: Int) {
        self.id = id
        self.title = title
        self.authorName = authorName
        self.published = published
        self.price = price
    }
}

/// The bookshop catalogue the sample searches, with titles that several authors share.
public struct BookCatalogue: Sendable {
    public let books: [Book]

    public init(books: [Book] = BookCatalogue.standard) {
        self.books = books
    }

    /// Books titled `title` (ignoring case); if none, books whose title contains it. With an
    /// `author`, only the books whose author's name contains it.
    public func findBooks(named title: String, author: String? = nil) -> [Book] {
        let exact = books.filter { $0.title.caseInsensitiveCompare(title) == .orderedSame }
        let titled = exact.isEmpty ? books.filter { $0.title.localizedCaseInsensitiveContains(title) } : exact
        guard let author else { return titled }
        return titled.filter { $0.authorName.localizedCaseInsensitiveContains(author) }
    }

    public static let standard: [Book] = [
        Book(title: "Persuasion", authorName: "Jane Austen", published: 1817, price: 9),
        Book(title: "Emma", authorName: "Jane Austen", published: 1815, price: 10),
        Book(title: "Dune", authorName: "Frank Herbert", published: 1965, price: 12),
        Book(title: "The Road", authorName: "Cormac McCarthy", published: 2006, price: 14),
        Book(title: "The Road", authorName: "Jack London", published: 1907, price: 8),
        Book(title: "Middlemarch", authorName: "George Eliot", published: 1871, price: 11),
        Book(title: "Beloved", authorName: "Toni Morrison", published: 1987, price: 13),
        Book(title: "Kindred", authorName: "Octavia Butler", published: 1979, price: 12),
        Book(title: "The Hobbit", authorName: "J. R. R. Tolkien", published: 1937, price: 10),
        Book(title: "Rebecca", authorName: "Daphne du Maurier", published: 1938, price: 9),
        Book(title: "Solaris", authorName: "Stanisław Lem", published: 1961, price: 11),
        Book(title: "Nostromo", authorName: "Joseph Conrad", published: 1904, price: 8),
    ]
}

/// The reader's library: books on shelves.
public final class LibraryModel: Sendable {
    private struct State {
        var books: [UUID: (book: Book, shelf: Shelf, recommendedBy: String?)] = [:]
        var opened: [String] = []
        var orders: [(Book, Int)] = []
    }

    public let catalogue: BookCatalogue
    private let state = Mutex(State())

    /// Creates a library with a few books already on its shelves.
    public init(catalogue: BookCatalogue = BookCatalogue()) {
        self.catalogue = catalogue
        let start: [(String, Shelf)] = [
            ("Persuasion", .currentlyReading), ("Dune", .wantToRead), ("Middlemarch", .read),
            ("Beloved", .read),
        ]
        state.withLock { state in
            for (title, shelf) in start {
                if let book = catalogue.books.first(where: { $0.title == title }) {
                    state.books[book.id] = (book, shelf, nil)
                }
            }
        }
    }

    public var books: [Book] {
        state.withLock { $0.books.values.map(\.book) }.sorted { $0.title < $1.title }
    }

    public func book(for id: UUID) -> Book? {
        state.withLock { $0.books[id]?.book }
    }

    public func books(on shelf: Shelf) -> [Book] {
        state.withLock { $0.books.values.filter { $0.shelf == shelf }.map(\.book) }
            .sorted { $0.title < $1.title }
    }

    public func add(_ book: Book, recommendedBy: String?) {
        state.withLock { $0.books[book.id] = (book, .wantToRead, recommendedBy) }
    }

    public func recommender(of book: Book) -> String? {
        state.withLock { $0.books[book.id]?.recommendedBy ?? nil }
    }

    /// What was opened, in order ("shelf:Read", "book:Dune"): the sample has no screen to change.
    public func recordOpened(_ what: String) {
        state.withLock { $0.opened.append(what) }
    }

    public var opened: [String] { state.withLock { $0.opened } }

    public func order(_ book: Book, count: Int) {
        state.withLock { $0.orders.append((book, count)) }
    }

    public var orderCount: Int { state.withLock { $0.orders.count } }
}
