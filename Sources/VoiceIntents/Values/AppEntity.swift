/// A value from the app's own data — a landmark, a book — that people name out loud.
///
/// ```swift
/// struct LandmarkEntity: AppEntity {
///     let id: Int
///     let name: String
///     static let typeDisplayRepresentation: TypeDisplayRepresentation = "Landmark"
///     var displayRepresentation: DisplayRepresentation { "\(name)" }
///     static let defaultQuery = LandmarkQuery()
/// }
/// ```
///
/// The ``defaultQuery`` turns identifiers and spoken names into entities; its suggested entities
/// are the names a grammar can list in advance.
public protocol AppEntity: _IntentValue, Identifiable where ID: Sendable & Hashable {
    associatedtype DefaultQuery: EntityQuery where DefaultQuery.Entity == Self

    /// The name of the type, used in prompts ("Which landmark?").
    static var typeDisplayRepresentation: TypeDisplayRepresentation { get }
    /// The query that finds entities of this type.
    static var defaultQuery: DefaultQuery { get }
    /// The title (and synonyms) people say for this entity.
    var displayRepresentation: DisplayRepresentation { get }
}

extension AppEntity {
    public static var _valueType: IntentValueType {
        .init(
            kind: .entity, typeName: String(describing: Self.self),
            displayName: typeDisplayRepresentation.name.defaultValue)
    }

    public var _spokenText: String { displayRepresentation.title.defaultValue }

    public static func _namedValues() async throws -> [NamedValue] {
        try await defaultQuery.suggestedEntities().map {
            NamedValue($0, representation: $0.displayRepresentation)
        }
    }

    /// Open when the query can look entities up by words (``EntityStringQuery``) that are not all
    /// known in advance: an ``EnumerableEntityQuery`` lists every entity, so its set is closed.
    public static var _isOpenSet: Bool {
        DefaultQuery.self is any EntityStringQuery.Type
            && !(DefaultQuery.self is any EnumerableEntityQuery.Type)
    }

    /// Entities named by `text`: through `entities(matching:)` when the query is an
    /// ``EntityStringQuery``, otherwise among the suggested (or all) entities by title and synonyms.
    public static func _values(matching text: String) async throws -> [Self] {
        let query = defaultQuery
        if let stringQuery = query as? any EntityStringQuery {
            let found = try await Self.entities(from: stringQuery, matching: text)
            if !found.isEmpty { return found }
            // A string query written for typed text may be case-sensitive, and recognizers
            // produce lower case: look among the suggested entities too.
        }
        return SpokenMatch.best(in: try await query.suggestedEntities(), for: text) {
            $0.displayRepresentation.spokenNames
        }
    }

    private static func entities<Query: EntityStringQuery>(
        from query: Query, matching text: String
    ) async throws -> [Self] {
        let found = try await query.entities(matching: text).compactMap { $0 as? Self }
        // A string query may match loosely (substring); keep its answers even when no title
        // equals the words, but prefer exact names when there are some.
        let exact = SpokenMatch.best(in: found, for: text) { $0.displayRepresentation.spokenNames }
        return exact.isEmpty ? found : exact
    }
}

/// Finding the values whose spoken names fit some words.
enum SpokenMatch {
    /// Whether `text` says `name` (ignoring case and punctuation), alone or with "the" before
    /// it or "one" after it, as people answer from a list: "the Dune one" says "Dune", and "the
    /// hobbit" says "The Hobbit".
    static func says(_ text: String, _ name: String) -> Bool {
        let name = SpokenAnswer.normalized(name)
        var words = SpokenAnswer.normalized(text).split(separator: " ").map(String.init)
        guard !name.isEmpty, !words.isEmpty else { return false }
        if words.joined(separator: " ") == name { return true }
        if words.last == "one", words.count > 1 { words.removeLast() }
        if words.first == "the", words.count > 1, !name.hasPrefix("the ") { words.removeFirst() }
        return words.joined(separator: " ") == name
    }

    /// The items with a name equal to `text` (ignoring case and punctuation); if none, the items
    /// with a name containing all of its words, or whose words all appear in `text`. "The" and
    /// "one" around a part of a name are how people answer from a list ("the falls", "the
    /// Victoria one"), so they need not be in the name.
    static func best<Item>(in items: [Item], for text: String, names: (Item) -> [String]) -> [Item] {
        let wanted = SpokenAnswer.normalized(text)
        guard !wanted.isEmpty else { return [] }
        let exact = items.filter { names($0).contains { SpokenAnswer.normalized($0) == wanted } }
        if !exact.isEmpty { return exact }
        var wantedWords = Set(wanted.split(separator: " "))
        let content = wantedWords.subtracting(["the", "one"])
        if !content.isEmpty { wantedWords = content }
        return items.filter { item in
            names(item).contains { name in
                let nameWords = Set(SpokenAnswer.normalized(name).split(separator: " "))
                return nameWords.isSuperset(of: wantedWords) || wantedWords.isSuperset(of: nameWords)
            }
        }
    }
}
