// App-side helpers that the WWDC session examples assume but do not show: the model, the
// navigator, the book database and web API, the order and collection entities, and text stand-ins
// for the SwiftUI snippet views. They are small, deterministic (no randomness, no network) and
// Sendable, so that intents and queries can share them across tasks.
//
// `Navigator.shared` and `Database.shared` are what the session code calls. So that tests running
// in parallel never see each other's navigation or books, `shared` is the instance bound to the
// current task with `Navigator.$current.withValue(…)` (see `Harness` in TestSupport.swift), and a
// process-wide instance otherwise.

import Foundation
import Synchronization
import VoiceIntents

// MARK: - Landmarks (Get to know App Intents, Explore new advances in App Intents)

/// A landmark in the Travel Tracking sample's model.
struct Landmark: Sendable, Hashable, Identifiable {
    let id: Int
    let name: String
    let description: String
    let continent: String
    let latitude: Double
    let longitude: Double
    let isOpen: Bool
    /// How full the landmark is, in percent.
    let crowdLevel: Int
}

/// A collection of landmarks that a person made.
struct LandmarkCollection: Sendable, Hashable {
    let id: Int
    let name: String
    let landmarkIDs: [Int]
    var isArchived = false
}

/// The Travel Tracking model, registered with `AppDependencyManager.shared.add { ModelData() }`.
final class ModelData: Sendable {
    /// Every landmark, in a fixed order.
    let landmarks: [Landmark] = [
        Landmark(
            id: 1, name: "Golden Gate Bridge",
            description: "A suspension bridge spanning the Golden Gate strait.",
            continent: "North America", latitude: 37.8199, longitude: -122.4783, isOpen: true,
            crowdLevel: 40),
        Landmark(
            id: 2, name: "Grand Canyon",
            description: "A steep-sided canyon carved by the Colorado River.",
            continent: "North America", latitude: 36.1069, longitude: -112.1129, isOpen: true,
            crowdLevel: 70),
        Landmark(
            id: 3, name: "Mount Fuji", description: "An active volcano and the highest peak in Japan.",
            continent: "Asia", latitude: 35.3606, longitude: 138.7274, isOpen: true, crowdLevel: 55),
        Landmark(
            id: 4, name: "Machu Picchu", description: "A fifteenth-century Inca citadel in the Andes.",
            continent: "South America", latitude: -13.1631, longitude: -72.5450, isOpen: false,
            crowdLevel: 0),
        Landmark(
            id: 5, name: "Niagara Falls", description: "Three waterfalls on the Niagara River.",
            continent: "North America", latitude: 43.0962, longitude: -79.0377, isOpen: true,
            crowdLevel: 85),
    ]

    /// Where the person is: San Francisco.
    let userLocation = (latitude: 37.7749, longitude: -122.4194)

    private struct State {
        var favoriteIDs: [Int] = [1, 3]
        var collections: [LandmarkCollection] = [
            LandmarkCollection(id: 1, name: "Bridges", landmarkIDs: [1]),
            LandmarkCollection(id: 2, name: "Road Trip", landmarkIDs: [1, 2, 5]),
        ]
    }

    private let state = Mutex(State())

    init() {}

    func landmarks(for identifiers: [Int]) -> [Landmark] {
        identifiers.compactMap { id in landmarks.first { $0.id == id } }
    }

    func favoriteLandmarks() -> [Landmark] {
        landmarks(for: state.withLock { $0.favoriteIDs })
    }

    func addFavorite(_ landmark: LandmarkEntity) {
        state.withLock { state in
            if !state.favoriteIDs.contains(landmark.id) { state.favoriteIDs.append(landmark.id) }
        }
    }

    func isFavorite(_ landmark: LandmarkEntity) async -> Bool {
        state.withLock { $0.favoriteIDs.contains(landmark.id) }
    }

    /// The landmark nearest to ``userLocation``.
    func findClosestLandmark() async throws -> LandmarkEntity {
        let nearest = landmarks.min { distance(to: $0) < distance(to: $1) }!
        return LandmarkEntity(landmark: nearest)
    }

    func isOpen(_ landmark: LandmarkEntity) async -> Bool {
        landmark.landmark.isOpen
    }

    /// How full the landmark is now, in percent.
    func crowdStatus(of landmark: LandmarkEntity) async -> Int {
        landmark.landmark.crowdLevel
    }

    private func distance(to landmark: Landmark) -> Double {
        let dLat = landmark.latitude - userLocation.latitude
        let dLon = landmark.longitude - userLocation.longitude
        return dLat * dLat + dLon * dLon
    }

    // MARK: Collections

    /// The collections that are neither archived nor deleted.
    var collections: [CollectionEntity] {
        state.withLock { $0.collections }.filter { !$0.isArchived }.map(CollectionEntity.init)
    }

    /// The archived collections.
    var archivedCollections: [CollectionEntity] {
        state.withLock { $0.collections }.filter(\.isArchived).map(CollectionEntity.init)
    }

    /// Archives a collection and returns it as archived; `nil` when there is no such collection.
    func archive(_ collection: CollectionEntity) -> CollectionEntity? {
        state.withLock { state in
            guard let index = state.collections.firstIndex(where: { $0.id == collection.id }) else {
                return nil
            }
            state.collections[index].isArchived = true
            return CollectionEntity(state.collections[index])
        }
    }

    /// Deletes a collection and returns what was deleted, so it can be restored.
    @discardableResult
    func delete(_ collection: CollectionEntity) -> [LandmarkCollection] {
        state.withLock { state in
            let removed = state.collections.filter { $0.id == collection.id }
            state.collections.removeAll { $0.id == collection.id }
            return removed
        }
    }

    /// Puts deleted collections back.
    func restore(_ collections: [LandmarkCollection]) {
        state.withLock { $0.collections.append(contentsOf: collections) }
    }
}

/// A person's landmark collection as an entity.
struct CollectionEntity: AppEntity {
    let id: Int
    let name: String
    let landmarkCount: Int
    let isArchived: Bool

    init(_ collection: LandmarkCollection) {
        self.id = collection.id
        self.name = collection.name
        self.landmarkCount = collection.landmarkIDs.count
        self.isArchived = collection.isArchived
    }

    static let typeDisplayRepresentation: TypeDisplayRepresentation = "Collection"
    var displayRepresentation: DisplayRepresentation { "\(name)" }
    static let defaultQuery = CollectionEntityQuery()
}

struct CollectionEntityQuery: EntityQuery {
    @Dependency var modelData: ModelData

    func entities(for identifiers: [CollectionEntity.ID]) async throws -> [CollectionEntity] {
        modelData.collections.filter { identifiers.contains($0.id) }
    }

    func suggestedEntities() async throws -> [CollectionEntity] {
        modelData.collections
    }
}

extension ClosestLandmarkIntent {
    /// The helper the 2025 "Explore new advances" version calls as `self.findClosestLandmark()`.
    func findClosestLandmark() async -> LandmarkEntity {
        // The model's search cannot fail for a fixed list of landmarks.
        (try? await modelData.findClosestLandmark()) ?? LandmarkEntity(landmark: modelData.landmarks[0])
    }
}

// MARK: - Snippet views (text stand-ins for the sessions' SwiftUI views)

/// Stands in for the SwiftUI `ClosestLandmarkView` of "Get to know App Intents".
struct ClosestLandmarkView: SnippetView {
    let landmark: LandmarkEntity
    var text: String { "Closest landmark: \(landmark.name)" }
}

/// Stands in for the SwiftUI `LandmarkView` of "Explore new advances in App Intents" (its
/// buttons, which run other intents, are left out).
struct LandmarkView: SnippetView {
    let landmark: LandmarkEntity
    let isFavorite: Bool
    var text: String {
        "\(landmark.name)\n\(landmark.landmark.continent)\nFavorite: \(isFavorite ? "yes" : "no")"
    }
}

/// Stands in for the view that `collectionSnippetView(_:)` builds in the session.
struct CollectionSnippetView: SnippetView {
    let collection: CollectionEntity
    var text: String {
        "\(collection.name): \(collection.landmarkCount) landmark\(collection.landmarkCount == 1 ? "" : "s")"
    }
}

func collectionSnippetView(_ collection: CollectionEntity) -> CollectionSnippetView {
    CollectionSnippetView(collection: collection)
}

/// Stands in for the SwiftUI `CoverView` of "Dive into App Intents".
struct CoverView: SnippetView {
    let book: BookEntity
    var text: String { "[Cover] \(book.title) by \(book.authorName)" }
}

/// Stands in for the SwiftUI `OrderPreview` of "Dive into App Intents".
struct OrderPreview: SnippetView {
    let order: OrderEntity
    var text: String { "Order preview: \(order.summary), total \(order.totalPrice)" }
}

/// Stands in for the SwiftUI `OrderConfirmation` of "Dive into App Intents".
struct OrderConfirmation: SnippetView {
    let order: OrderEntity
    var text: String { "Order placed: \(order.summary)" }
}

// MARK: - Navigation

/// The app's navigator. The sessions reach it as `Navigator.shared` and as a `@Dependency`.
final class Navigator: Sendable {
    /// The navigator bound to the current task, if any; tests bind their own.
    @TaskLocal static var current: Navigator?
    private static let processWide = Navigator()

    /// The current task's navigator, or the process-wide one.
    static var shared: Navigator { current ?? processWide }

    private let visited = Mutex<[String]>([])

    init() {}

    /// Every screen shown, in order: "section map", "shelf wantToRead", "book Emma",
    /// "crowd status Golden Gate Bridge".
    var history: [String] { visited.withLock { $0 } }

    func navigate(to option: NavigationOption) {
        record("section \(option.rawValue)")
    }

    func openShelf(_ shelf: Shelf) {
        record("shelf \(shelf.rawValue)")
    }

    func openBook(_ book: BookEntity) {
        record("book \(book.title)")
    }

    func navigateToCrowdStatus(_ landmark: LandmarkEntity) async {
        record("crowd status \(landmark.name)")
    }

    private func record(_ screen: String) {
        visited.withLock { $0.append(screen) }
    }
}

// MARK: - Books (Dive into App Intents)

/// One book known to the (offline) books web service.
struct CatalogBook: Sendable {
    let id: UUID
    let title: String
    let author: String
    let published: Date
    let price: Decimal
}

/// The book web service of "Dive into App Intents", answered from a fixed catalog.
final class BooksAPI: Sendable {
    static let shared = BooksAPI()

    static let catalog: [CatalogBook] = [
        CatalogBook(
            id: UUID(uuidString: "00000000-0000-0000-0000-000000000001")!, title: "Emma",
            author: "Jane Austen", published: date(1815, 12, 23), price: 9),
        CatalogBook(
            id: UUID(uuidString: "00000000-0000-0000-0000-000000000002")!,
            title: "Where the Crawdads Sing", author: "Delia Owens", published: date(2018, 8, 14),
            price: 15),
        CatalogBook(
            id: UUID(uuidString: "00000000-0000-0000-0000-000000000003")!, title: "The Road",
            author: "Cormac McCarthy", published: date(2006, 9, 26), price: 12),
        CatalogBook(
            id: UUID(uuidString: "00000000-0000-0000-0000-000000000004")!, title: "The Road",
            author: "Jack London", published: date(1907, 11, 1), price: 8),
        CatalogBook(
            id: UUID(uuidString: "00000000-0000-0000-0000-000000000005")!, title: "Persuasion",
            author: "Jane Austen", published: date(1817, 12, 20), price: 10),
    ]

    /// The books titled `name` (ignoring case), by `author` when one is given, in catalog order.
    func findBooks(named name: String, author: String?) async -> [BookEntity] {
        Self.catalog
            .filter { $0.title.caseInsensitiveCompare(name) == .orderedSame }
            .filter { book in author.map { book.author.localizedCaseInsensitiveContains($0) } ?? true }
            .map(Self.entity(for:))
    }

    /// A fresh entity for a catalog book (entities hold their `@Property` values in boxes, so
    /// each caller gets its own).
    static func entity(for book: CatalogBook) -> BookEntity {
        let entity = BookEntity(id: book.id, title: book.title)
        entity.datePublished = book.published
        return entity
    }

    static func book(for id: UUID) -> CatalogBook? {
        catalog.first { $0.id == id }
    }

    private static func date(_ year: Int, _ month: Int, _ day: Int) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.date(from: DateComponents(year: year, month: month, day: day))!
    }
}

extension BookEntity {
    /// The author, which the session's code reads from the books it finds (`$0.authorName`)
    /// without showing where it is kept; here it comes from the catalog.
    var authorName: String {
        BooksAPI.book(for: id)?.author ?? "Unknown Author"
    }
}

/// The app's own book store: `Database.shared` in the session.
final class Database: Sendable {
    /// The database bound to the current task, if any; tests bind their own.
    @TaskLocal static var current: Database?
    private static let processWide = Database()

    /// The current task's database, or the process-wide one.
    static var shared: Database { current ?? processWide }

    private let stored: Mutex<[BookEntity]>

    /// A library that holds "Emma" and "Where the Crawdads Sing".
    init() {
        stored = Mutex(BooksAPI.catalog.prefix(2).map(BooksAPI.entity(for:)))
    }

    var books: [BookEntity] { stored.withLock { $0 } }

    func book(for identifier: UUID) -> BookEntity? {
        stored.withLock { books in books.first { $0.id == identifier } }
    }

    func add(book: BookEntity) {
        stored.withLock { books in
            books.removeAll { $0.id == book.id }
            books.append(book)
        }
    }
}

/// A book order (the session's `BuyBook` intent returns one).
struct OrderEntity: AppEntity {
    let book: BookEntity
    let count: Int

    init(book: BookEntity, count: Int) {
        self.book = book
        self.count = count
    }

    var id: String { "\(book.id.uuidString)x\(count)" }

    /// "2 copies of Emma".
    var summary: String { "\(count) \(count == 1 ? "copy" : "copies") of \(book.title)" }

    /// The price of the order in dollars: "$18".
    var totalPrice: String {
        let each = BooksAPI.book(for: book.id)?.price ?? 10
        return "$\(each * Decimal(count))"
    }

    static let typeDisplayRepresentation: TypeDisplayRepresentation = "Order"
    var displayRepresentation: DisplayRepresentation { "\(summary)" }
    static let defaultQuery = OrderQuery()
}

/// Orders are never looked up by identifier in these examples.
struct OrderQuery: EntityQuery {
    func entities(for identifiers: [OrderEntity.ID]) async throws -> [OrderEntity] { [] }
}
