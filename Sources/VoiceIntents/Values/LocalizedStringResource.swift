import Foundation

/// A piece of text an app shows or says, written once in Swift and looked up by key.
///
/// Titles, dialogs and display representations are all `LocalizedStringResource`s. A string
/// literal creates one, and interpolating an ``AppEntity`` or ``AppEnum`` inserts its spoken
/// title rather than its Swift description:
///
/// ```swift
/// static let title: LocalizedStringResource = "Open Shelf"
/// let message: LocalizedStringResource = "Added \(book) to \(shelf)"
/// ```
///
/// The ``key`` is what a phrase or string catalog in `Phrases/<locale>/` uses to translate it;
/// ``defaultValue`` is the text in the development language.
public struct LocalizedStringResource: Sendable, Hashable, ExpressibleByStringInterpolation,
    CustomStringConvertible
{
    /// The catalog key. For interpolated text, literal parts are kept and each value becomes `%@`.
    public let key: String
    /// The text with every interpolation filled in.
    public let defaultValue: String
    /// The catalog the key belongs to, if not the default one.
    public let table: String?

    /// Creates a resource with an explicit key.
    ///
    /// ```swift
    /// LocalizedStringResource("shelf.read", defaultValue: "Read")
    /// ```
    ///
    /// - Parameters:
    ///   - key: The catalog key.
    ///   - defaultValue: The text when no catalog translates the key; the key itself when `nil`.
    ///   - table: The catalog name, or `nil` for the default catalog.
    public init(_ key: String, defaultValue: String? = nil, table: String? = nil) {
        self.key = key
        self.defaultValue = defaultValue ?? key
        self.table = table
    }

    public init(stringLiteral value: String) {
        self.init(value)
    }

    public init(stringInterpolation: SpokenStringInterpolation) {
        self.init(stringInterpolation.key, defaultValue: stringInterpolation.text)
    }

    public var description: String { defaultValue }
}

extension String {
    /// The text of a resource in the current locale.
    ///
    /// ```swift
    /// print(String(localized: NavigateIntent.title))
    /// ```
    public init(localized resource: LocalizedStringResource) {
        self = resource.defaultValue
    }
}

/// The interpolation behind ``LocalizedStringResource``, ``IntentDialog`` and
/// ``DisplayRepresentation``: values are inserted as a listener would hear them.
///
/// An ``AppEntity`` or ``AppEnum`` contributes its display title, a resource its text, an optional
/// its wrapped value (or nothing), anything else its `description`.
public struct SpokenStringInterpolation: StringInterpolationProtocol, Sendable {
    var text = ""
    var key = ""

    public init(literalCapacity: Int, interpolationCount: Int) {
        text.reserveCapacity(literalCapacity + interpolationCount * 8)
    }

    public mutating func appendLiteral(_ literal: String) {
        text += literal
        key += literal
    }

    public mutating func appendInterpolation<Value>(_ value: Value) {
        text += spokenText(of: value)
        key += "%@"
    }
}

/// The words a listener should hear for a value: a display title for entities and enum cases.
func spokenText(of value: Any) -> String {
    switch value {
    case let resource as LocalizedStringResource: resource.defaultValue
    case let optional as any _OptionalValue: optional._wrapped.map(spokenText(of:)) ?? ""
    case let intentValue as any _IntentValue: intentValue._spokenText
    default: String(describing: value)
    }
}

/// A way to see through `Optional` without knowing its wrapped type.
protocol _OptionalValue {
    var _wrapped: Any? { get }
    static var _wrappedType: Any.Type { get }
}

extension Optional: _OptionalValue {
    var _wrapped: Any? { self.map { $0 as Any } }
    static var _wrappedType: Any.Type { Wrapped.self }
}
