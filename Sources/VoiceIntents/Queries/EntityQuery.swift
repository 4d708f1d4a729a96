/// Finds the entities of one type: by identifier, and the ones to suggest.
///
/// ```swift
/// struct LandmarkQuery: EntityQuery {
///     @Dependency var modelData: ModelData
///     func entities(for identifiers: [LandmarkEntity.ID]) async throws -> [LandmarkEntity] {
///         modelData.landmarks(for: identifiers).map(LandmarkEntity.init)
///     }
///     func suggestedEntities() async throws -> [LandmarkEntity] {
///         modelData.favoriteLandmarks().map(LandmarkEntity.init)
///     }
/// }
/// ```
///
/// Suggested entities are the names a recognizer grammar lists in advance; call
/// ``AppShortcutsProvider/updateAppShortcutParameters()`` when they change.
public protocol EntityQuery: Sendable {
    associatedtype Entity: AppEntity

    init()

    /// The entities with these identifiers, in any order; unknown identifiers are left out.
    func entities(for identifiers: [Entity.ID]) async throws -> [Entity]

    /// The entities to offer when a person has not named one yet. Empty by default.
    func suggestedEntities() async throws -> [Entity]
}

extension EntityQuery {
    public func suggestedEntities() async throws -> [Entity] { [] }
}

/// A query that can also look entities up by the words a person said.
///
/// ```swift
/// func entities(matching string: String) async throws -> [BookEntity] {
///     library.books.filter { $0.title.localizedCaseInsensitiveContains(string) }
/// }
/// ```
public protocol EntityStringQuery: EntityQuery {
    /// The entities that the words `string` may refer to.
    func entities(matching string: String) async throws -> [Entity]
}

/// A query over a closed set of entities small enough to list in full.
///
/// Writing ``allEntities()`` is enough: identifier look-up, suggestions and (when the query also
/// conforms to ``EntityStringQuery``) string look-up are derived from it.
public protocol EnumerableEntityQuery: EntityQuery {
    // Restated so that `allEntities()` alone lets the compiler infer the entity type.
    associatedtype Entity

    /// Every entity of the type.
    func allEntities() async throws -> [Entity]
}

extension EnumerableEntityQuery {
    public func entities(for identifiers: [Entity.ID]) async throws -> [Entity] {
        let wanted = Set(identifiers)
        return try await allEntities().filter { wanted.contains($0.id) }
    }

    public func suggestedEntities() async throws -> [Entity] {
        try await allEntities()
    }
}

extension EntityStringQuery where Self: EnumerableEntityQuery {
    /// The entities whose title or a synonym contains the words of `string`.
    public func entities(matching string: String) async throws -> [Entity] {
        SpokenMatch.best(in: try await allEntities(), for: string) {
            $0.displayRepresentation.spokenNames
        }
    }
}
