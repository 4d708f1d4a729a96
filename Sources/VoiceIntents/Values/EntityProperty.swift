import Synchronization

/// Declares an attribute of an entity that dialogs and property queries can use.
///
/// ```swift
/// struct BookEntity: AppEntity {
///     let id: UUID
///     @Property(title: "Title") var title: String
///     @Property(title: "Read Date") var dateRead: Date?
/// }
/// ```
public typealias Property = EntityProperty

/// The property wrapper behind `@Property`. See ``Property``.
@propertyWrapper
public final class EntityProperty<Value: _IntentValue>: @unchecked Sendable {
    private let storage: Mutex<Value?>
    /// The title of the attribute ("Publishing Date").
    public let title: LocalizedStringResource?

    /// Creates an attribute with a title.
    ///
    /// - Parameter title: How the attribute is named in dialogs and queries.
    public init(title: LocalizedStringResource? = nil) {
        self.storage = Mutex(nil)
        self.title = title
    }

    /// Creates an attribute with an initial value.
    public init(wrappedValue: Value, title: LocalizedStringResource? = nil) {
        self.storage = Mutex(wrappedValue)
        self.title = title
    }

    public var wrappedValue: Value {
        get {
            if let value = storage.withLock({ $0 }) ?? Value._absentValue { return value }
            fatalError(
                "@Property \(title?.defaultValue ?? "") (\(Value._valueType)) was read before it was set.")
        }
        set { storage.withLock { $0 = newValue } }
    }

    /// The attribute itself, for key paths such as `\BookEntity.$title` in property queries.
    public var projectedValue: EntityProperty<Value> { self }
}

extension EntityProperty: Equatable where Value: Equatable {
    public static func == (lhs: EntityProperty, rhs: EntityProperty) -> Bool {
        lhs.wrappedValue == rhs.wrappedValue
    }
}

extension EntityProperty: Hashable where Value: Hashable {
    public func hash(into hasher: inout Hasher) { hasher.combine(wrappedValue) }
}
