import Foundation
import Testing
import VoiceIntents

struct Novel: AppEntity {
    let id: Int
    @Property(title: "Title") var title: String
    @Property(title: "Published") var published: Int
    @Property(title: "Read Date") var dateRead: Date?

    init(id: Int, title: String, published: Int, dateRead: Date? = nil) {
        self.id = id
        self.title = title
        self.published = published
        self.dateRead = dateRead
    }

    static let typeDisplayRepresentation: TypeDisplayRepresentation = "Novel"
    var displayRepresentation: DisplayRepresentation { "\(title)" }
    static let defaultQuery = NovelQuery()

    static let shelf = [
        Novel(id: 1, title: "Persuasion", published: 1817),
        Novel(
            id: 2, title: "The Road", published: 2006, dateRead: Date(timeIntervalSince1970: 1_600_000_000)),
        Novel(
            id: 3, title: "The Hobbit", published: 1937, dateRead: Date(timeIntervalSince1970: 1_500_000_000)),
        Novel(id: 4, title: "Dune", published: 1965),
    ]
}

/// The app's own predicate type: a test on a novel.
struct NovelFilter: Sendable {
    let test: @Sendable (Novel) -> Bool
}

struct NovelQuery: EntityPropertyQuery {
    static let properties = QueryProperties {
        Property(\Novel.$title) {
            EqualToComparator { title in NovelFilter { $0.title == title } }
            ContainsComparator { words in NovelFilter { $0.title.localizedCaseInsensitiveContains(words) } }
        }
        Property(\Novel.$published) {
            LessThanComparator { year in NovelFilter { $0.published < year } }
            GreaterThanComparator { year in NovelFilter { $0.published > year } }
        }
    }

    static let sortingOptions = SortingOptions {
        SortableBy(\Novel.$title)
        SortableBy(\Novel.$published)
        SortableBy(\Novel.$dateRead)
    }

    func entities(for identifiers: [Int]) async throws -> [Novel] {
        Novel.shelf.filter { identifiers.contains($0.id) }
    }

    func entities(
        matching comparators: [NovelFilter], mode: ComparatorMode, sortedBy: [Sort<Novel>],
        limit: Int?
    ) async throws -> [Novel] {
        let matching = Novel.shelf.filter { novel in
            mode == .and
                ? comparators.allSatisfy { $0.test(novel) } : comparators.contains { $0.test(novel) }
        }
        return Array(matching.sorted(by: sortedBy).prefix(limit ?? .max))
    }
}

@Suite("Entity property queries")
struct PropertyQueryTests {
    let query = NovelQuery()

    @Test func equalAndContains() async throws {
        let equal = try await query.entities(where: [QueryCondition(\Novel.$title, .equalTo, "Dune")])
        #expect(equal.map(\.id) == [4])
        let contains = try await query.entities(where: [QueryCondition(\Novel.$title, .contains, "the")])
        #expect(contains.map(\.id) == [2, 3])
    }

    @Test func lessAndGreaterCombinedWithAndOr() async throws {
        let between = try await query.entities(where: [
            QueryCondition(\Novel.$published, .greaterThan, 1900),
            QueryCondition(\Novel.$published, .lessThan, 2000),
        ])
        #expect(between.map(\.id) == [3, 4])
        let either = try await query.entities(
            where: [
                QueryCondition(\Novel.$published, .lessThan, 1900),
                QueryCondition(\Novel.$published, .greaterThan, 2000),
            ], mode: .or)
        #expect(either.map(\.id) == [1, 2])
    }

    @Test func sortingAndLimit() async throws {
        let all = [QueryCondition(\Novel.$published, .greaterThan, 0)]
        let byTitle = try await query.entities(where: all, sortedBy: [(\Novel.$title, .ascending)])
        #expect(byTitle.map(\.title) == ["Dune", "Persuasion", "The Hobbit", "The Road"])
        let newest = try await query.entities(
            where: all, sortedBy: [(\Novel.$published, .descending)], limit: 2)
        #expect(newest.map(\.published) == [2006, 1965])
        let byRead = try await query.entities(where: all, sortedBy: [(\Novel.$dateRead, .ascending)])
        #expect(byRead.suffix(2).map(\.id) == [3, 2])
    }

    @Test func undeclaredComparatorsAndPropertiesAreErrors() async {
        await #expect(throws: QueryError.comparatorNotDeclared(.greaterThan)) {
            try await query.entities(where: [QueryCondition(\Novel.$title, .greaterThan, "A")])
        }
        await #expect(throws: QueryError.propertyNotQueryable("Novel")) {
            try await query.entities(where: [QueryCondition(\Novel.$dateRead, .equalTo, nil)])
        }
    }
}
