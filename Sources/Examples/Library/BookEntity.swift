import Foundation
import VoiceIntents

/// A shelf of the reader's library.
public enum Shelf: String, AppEnum {
    case currentlyReading
    case wantToRead
    case read

    public static let typeDisplayRepresentation: TypeDisplayRepresentation = "Shelf"
    public static let caseDisplayRepresentations: [Shelf: DisplayRepresentation] = [
        .currentlyReading: DisplayRepresentation(title: "Currently Reading", synonyms: ["reading"]),
        .wantToRead: DisplayRepresentation(title: "Want to Read", synonyms: ["to read", "reading list"]),
        .read: DisplayRepresentation(title: "Read", synonyms: ["finished", "finished books"]),
    ]
}

/// A book, in the library or the catalogue, as intents see it.
public struct BookEntity: AppEntity {
    public let id: UUID
    @Property(title: "Title") public var title: String
    @Property(title: "Author") public var authorName: String
    @Property(title: "Published") public var published: Int

    public init(_ book: Book) {
        self.id = book.id
        self.title = book.title
        self.authorName = book.authorName
        self.published = book.published
    }

    public static let typeDisplayRepresentation: TypeDisplayRepresentation = "Book"
    public var displayRepresentation: DisplayRepresentation {
        DisplayRepresentation(title: "\(title)", subtitle: "by \(authorName)")
    }

    public static let defaultQuery = BookQuery()
}

/// Finds books in the catalogue by identifier or by the words of a title.
public struct BookQuery: EntityStringQuery {
    @Dependency var library: LibraryModel

    public init() {}

    public func entities(for identifiers: [UUID]) async throws -> [BookEntity] {
        library.catalogue.books.filter { identifiers.contains($0.id) }.map(BookEntity.init)
    }

    /// Every book in the catalogue: the titles a listener must be able to hear.
    public func suggestedEntities() async throws -> [BookEntity] {
        library.catalogue.books.map(BookEntity.init)
    }

    public func entities(matching string: String) async throws -> [BookEntity] {
        library.catalogue.books.filter { $0.title.localizedCaseInsensitiveContains(string) }
            .map(BookEntity.init)
    }
}

/// An order of copies of a book.
public struct OrderEntity: AppEntity {
    public let id: UUID
    public let book: BookEntity
    public let count: Int

    public init(book: BookEntity, count: Int) {
        self.id = UUID()
        self.book = book
        self.count = count
    }

    public static let typeDisplayRepresentation: TypeDisplayRepresentation = "Order"
    public var displayRepresentation: DisplayRepresentation {
        "\(count) \(count == 1 ? "copy" : "copies") of \(book)"
    }

    public static let defaultQuery = OrderQuery()
}

/// Orders are never looked up by voice; the query finds none.
public struct OrderQuery: EntityQuery {
    public init() {}
    public func entities(for identifiers: [UUID]) async throws -> [OrderEntity] { [] }
}
