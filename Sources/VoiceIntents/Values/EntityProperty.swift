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

/// An `@Property` of any value type, read without knowing it: what a catalog phrase that accepts
/// only some entities compares (`only: { sensor: { deviceClass: smoke } }`).
package protocol AnyEntityProperty {
    /// The attribute's title, if it has one.
    var propertyTitle: String? { get }
    /// The value, or `nil` when it was never set.
    var propertyValue: (any Sendable)? { get }
}

extension EntityProperty: AnyEntityProperty {
    package var propertyTitle: String? { title?.defaultValue }
    package var propertyValue: (any Sendable)? { storage.withLock { $0 } }
}

/// The `@Property` attributes of entities, read by name.
package enum EntityProperties {
    /// The attributes of `entity`: each by its name in Swift ("deviceClass"), its title, and its
    /// value.
    package static func all(of entity: Any) -> [(name: String, title: String?, value: (any Sendable)?)] {
        Mirror(reflecting: entity).children.compactMap { child in
            guard let property = child.value as? any AnyEntityProperty, let label = child.label else {
                return nil
            }
            let name = label.hasPrefix("_") ? String(label.dropFirst()) : label
            return (name, property.propertyTitle, property.propertyValue)
        }
    }

    /// How `value` is written to compare it with words: an enum by its raw value, anything else
    /// as it describes itself.
    package static func text(of value: Any) -> String {
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional {
            guard let wrapped = mirror.children.first?.value else { return "" }
            return text(of: wrapped)
        }
        if let raw = value as? any RawRepresentable { return String(describing: raw.rawValue) }
        return String(describing: value)
    }
}
