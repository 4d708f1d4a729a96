/// A query that finds entities by comparing their `@Property` values, sorted and limited.
///
/// The app declares which properties can be compared and how each comparison maps to its own
/// predicate type (`ComparatorMappingType`); the runtime builds those predicates and calls
/// ``entities(matching:mode:sortedBy:limit:)``.
///
/// ```swift
/// struct BookQuery: EntityPropertyQuery {
///     static let properties = QueryProperties {
///         Property(\BookEntity.$title) {
///             EqualToComparator { title in BookFilter.title(is: title) }
///             ContainsComparator { words in BookFilter.title(contains: words) }
///         }
///     }
///     static let sortingOptions = SortingOptions { SortableBy(\BookEntity.$title) }
///     func entities(matching comparators: [BookFilter], mode: ComparatorMode,
///                   sortedBy: [EntityQuerySort<BookEntity>], limit: Int?) async throws -> [BookEntity] { … }
/// }
/// ```
public protocol EntityPropertyQuery: EntityQuery {
    associatedtype ComparatorMappingType

    /// The properties that can be compared, and how.
    static var properties: QueryProperties<Entity, ComparatorMappingType> { get }
    /// The properties results can be sorted by.
    static var sortingOptions: SortingOptions<Entity> { get }

    /// The entities that satisfy `comparators` (all of them for `.and`, any for `.or`), sorted
    /// and limited.
    func entities(
        matching comparators: [ComparatorMappingType], mode: ComparatorMode,
        sortedBy: [EntityQuerySort<Entity>], limit: Int?
    ) async throws -> [Entity]
}

extension EntityPropertyQuery {
    /// The property declaration type, so queries can write `Property(\.$title) { … }`.
    public typealias Property<E: AppEntity, Value: _IntentValue, Mapping> = QueryProperty<E, Value, Mapping>
    /// The sort type, so queries can write `[Sort<BookEntity>]`.
    public typealias Sort<E: AppEntity> = EntityQuerySort<E>

    /// Finds entities by conditions on their properties: each condition is turned into the
    /// query's predicate through the comparator the query declared for it.
    ///
    /// ```swift
    /// try await BookQuery().entities(
    ///     where: [QueryCondition(\BookEntity.$published, .lessThan, 1900)],
    ///     sortedBy: [(\BookEntity.$title, .ascending)], limit: 3)
    /// ```
    ///
    /// - Throws: ``QueryError`` when a property or comparator was not declared.
    public func entities(
        where conditions: [QueryCondition<Entity>], mode: ComparatorMode = .and,
        sortedBy sorts: [(property: PartialKeyPath<Entity>, order: EntityQuerySort<Entity>.Ordering)] = [],
        limit: Int? = nil
    ) async throws -> [Entity] {
        let declared = Self.properties.properties
        let predicates = try conditions.map { condition -> ComparatorMappingType in
            guard let property = declared.first(where: { $0.keyPath == condition.keyPath }) else {
                throw QueryError.propertyNotQueryable(String(describing: Entity.self))
            }
            guard let predicate = property.predicate(condition.comparator, condition.value) else {
                throw QueryError.comparatorNotDeclared(condition.comparator)
            }
            return predicate
        }
        let sortOptions = Self.sortingOptions.options
        let resolvedSorts = try sorts.map { sort -> EntityQuerySort<Entity> in
            guard let option = sortOptions.first(where: { $0.keyPath == sort.property }) else {
                throw QueryError.propertyNotSortable(String(describing: Entity.self))
            }
            return EntityQuerySort(by: sort.property, order: sort.order, compare: option.compare)
        }
        return try await entities(
            matching: predicates, mode: mode, sortedBy: resolvedSorts, limit: limit)
    }
}

/// Whether all comparators must hold, or any.
public enum ComparatorMode: Sendable, Hashable {
    case and, or
}

/// The comparisons a property query can declare.
public enum ComparatorKind: String, Sendable, Hashable {
    case equalTo, notEqualTo, contains, hasPrefix, lessThan, lessThanOrEqualTo, greaterThan,
        greaterThanOrEqualTo
}

/// Errors of ``EntityPropertyQuery/entities(where:mode:sortedBy:limit:)``.
public enum QueryError: Error, Sendable, Hashable {
    case propertyNotQueryable(String)
    case propertyNotSortable(String)
    case comparatorNotDeclared(ComparatorKind)
}

/// One condition: a property, a comparison and a value.
public struct QueryCondition<Entity: AppEntity>: @unchecked Sendable {
    let keyPath: PartialKeyPath<Entity>
    let comparator: ComparatorKind
    let value: Any

    /// Compares `keyPath`'s property with `value`.
    public init<Value: _IntentValue>(
        _ keyPath: KeyPath<Entity, EntityProperty<Value>>, _ comparator: ComparatorKind,
        _ value: Value
    ) {
        self.keyPath = keyPath
        self.comparator = comparator
        self.value = value
    }
}

/// The queryable properties of an ``EntityPropertyQuery``.
public struct QueryProperties<Entity: AppEntity, Mapping>: @unchecked Sendable {
    let properties: [AnyQueryProperty<Entity, Mapping>]

    /// Collects `Property(…) { … }` declarations.
    public init(
        @QueryPropertiesBuilder<Entity, Mapping> _ properties: () -> [AnyQueryProperty<Entity, Mapping>]
    ) {
        self.properties = properties()
    }
}

/// A property with its comparators, type-erased.
public struct AnyQueryProperty<Entity: AppEntity, Mapping> {
    let keyPath: PartialKeyPath<Entity>
    let predicate: (ComparatorKind, Any) -> Mapping?
}

/// One queryable property: `Property(\BookEntity.$title) { EqualToComparator { … } }`.
public struct QueryProperty<Entity: AppEntity, Value: _IntentValue, Mapping> {
    let keyPath: KeyPath<Entity, EntityProperty<Value>>
    let comparators: [QueryComparator<Value, Mapping>]

    /// Declares the comparisons `keyPath`'s property supports.
    public init(
        _ keyPath: KeyPath<Entity, EntityProperty<Value>>,
        @QueryComparatorsBuilder<Value, Mapping> _ comparators: () -> [QueryComparator<Value, Mapping>]
    ) {
        self.keyPath = keyPath
        self.comparators = comparators()
    }
}

/// A comparison of one property and how it maps to the query's predicate type.
public struct QueryComparator<Value, Mapping> {
    public let kind: ComparatorKind
    let map: (Value) -> Mapping
}

// The comparator declarations, named as Apple names them.

/// `property == value`.
public func EqualToComparator<Value, Mapping>(mappingTransform: @escaping (Value) -> Mapping)
    -> QueryComparator<Value, Mapping>
{
    QueryComparator(kind: .equalTo, map: mappingTransform)
}
/// `property != value`.
public func NotEqualToComparator<Value, Mapping>(mappingTransform: @escaping (Value) -> Mapping)
    -> QueryComparator<Value, Mapping>
{
    QueryComparator(kind: .notEqualTo, map: mappingTransform)
}
/// The property contains the value (text).
public func ContainsComparator<Value, Mapping>(mappingTransform: @escaping (Value) -> Mapping)
    -> QueryComparator<Value, Mapping>
{
    QueryComparator(kind: .contains, map: mappingTransform)
}
/// The property starts with the value (text).
public func HasPrefixComparator<Value, Mapping>(mappingTransform: @escaping (Value) -> Mapping)
    -> QueryComparator<Value, Mapping>
{
    QueryComparator(kind: .hasPrefix, map: mappingTransform)
}
/// `property < value`.
public func LessThanComparator<Value, Mapping>(mappingTransform: @escaping (Value) -> Mapping)
    -> QueryComparator<Value, Mapping>
{
    QueryComparator(kind: .lessThan, map: mappingTransform)
}
/// `property <= value`.
public func LessThanOrEqualToComparator<Value, Mapping>(mappingTransform: @escaping (Value) -> Mapping)
    -> QueryComparator<Value, Mapping>
{
    QueryComparator(kind: .lessThanOrEqualTo, map: mappingTransform)
}
/// `property > value`.
public func GreaterThanComparator<Value, Mapping>(mappingTransform: @escaping (Value) -> Mapping)
    -> QueryComparator<Value, Mapping>
{
    QueryComparator(kind: .greaterThan, map: mappingTransform)
}
/// `property >= value`.
public func GreaterThanOrEqualToComparator<Value, Mapping>(mappingTransform: @escaping (Value) -> Mapping)
    -> QueryComparator<Value, Mapping>
{
    QueryComparator(kind: .greaterThanOrEqualTo, map: mappingTransform)
}

/// Collects the properties of ``QueryProperties``.
@resultBuilder
public enum QueryPropertiesBuilder<Entity: AppEntity, Mapping> {
    public static func buildExpression<Value>(
        _ property: QueryProperty<Entity, Value, Mapping>
    ) -> [AnyQueryProperty<Entity, Mapping>] {
        let comparators = property.comparators
        return [
            AnyQueryProperty(keyPath: property.keyPath) { kind, value in
                guard let value = value as? Value else { return nil }
                return comparators.first { $0.kind == kind }?.map(value)
            }
        ]
    }

    public static func buildBlock(_ parts: [AnyQueryProperty<Entity, Mapping>]...) -> [AnyQueryProperty<
        Entity, Mapping
    >] {
        parts.flatMap { $0 }
    }
}

/// Collects the comparators of a ``QueryProperty``.
@resultBuilder
public enum QueryComparatorsBuilder<Value, Mapping> {
    public static func buildExpression(_ comparator: QueryComparator<Value, Mapping>) -> [QueryComparator<
        Value, Mapping
    >] {
        [comparator]
    }

    public static func buildBlock(_ parts: [QueryComparator<Value, Mapping>]...) -> [QueryComparator<
        Value, Mapping
    >] {
        parts.flatMap { $0 }
    }
}

/// The properties an ``EntityPropertyQuery`` can sort by.
public struct SortingOptions<Entity: AppEntity>: @unchecked Sendable {
    let options: [SortableBy<Entity>]

    /// Collects `SortableBy(…)` declarations.
    public init(@SortingOptionsBuilder<Entity> _ options: () -> [SortableBy<Entity>]) {
        self.options = options()
    }
}

/// A property results can be sorted by: `SortableBy(\BookEntity.$title)`.
public struct SortableBy<Entity: AppEntity> {
    let keyPath: PartialKeyPath<Entity>
    let compare: (Entity, Entity) -> Bool

    /// Declares `keyPath`'s property sortable (its values must be comparable; absent values sort
    /// first).
    public init<Value: _IntentValue & Comparable>(_ keyPath: KeyPath<Entity, EntityProperty<Value>>) {
        self.keyPath = keyPath
        self.compare = { $0[keyPath: keyPath].wrappedValue < $1[keyPath: keyPath].wrappedValue }
    }

    /// Declares an optional property sortable; entities without a value sort first.
    public init<Value: _IntentValue & Comparable>(_ keyPath: KeyPath<Entity, EntityProperty<Value?>>) {
        self.keyPath = keyPath
        self.compare = { lhs, rhs in
            switch (lhs[keyPath: keyPath].wrappedValue, rhs[keyPath: keyPath].wrappedValue) {
            case (nil, nil), (_?, nil): false
            case (nil, _?): true
            case (let left?, let right?): left < right
            }
        }
    }
}

/// Collects ``SortableBy`` declarations.
@resultBuilder
public enum SortingOptionsBuilder<Entity: AppEntity> {
    public static func buildExpression(_ option: SortableBy<Entity>) -> [SortableBy<Entity>] { [option] }
    public static func buildBlock(_ parts: [SortableBy<Entity>]...) -> [SortableBy<Entity>] {
        parts.flatMap { $0 }
    }
}

/// How to sort results: by a property, ascending or descending.
public struct EntityQuerySort<Entity: AppEntity> {
    public enum Ordering: Sendable, Hashable {
        case ascending, descending
    }

    /// The property.
    public let by: PartialKeyPath<Entity>
    public let order: Ordering
    let compare: (Entity, Entity) -> Bool

    /// Whether `lhs` comes before `rhs` in this sort.
    public func areInIncreasingOrder(_ lhs: Entity, _ rhs: Entity) -> Bool {
        order == .ascending ? compare(lhs, rhs) : compare(rhs, lhs)
    }
}

extension Sequence {
    /// The elements sorted by the sorts in turn: the first decides, ties go to the next.
    public func sorted<Entity>(by sorts: [EntityQuerySort<Entity>]) -> [Entity]
    where Element == Entity {
        sorted { lhs, rhs in
            for sort in sorts {
                if sort.areInIncreasingOrder(lhs, rhs) { return true }
                if sort.areInIncreasingOrder(rhs, lhs) { return false }
            }
            return false
        }
    }
}
