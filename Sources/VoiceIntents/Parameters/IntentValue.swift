import Foundation

/// A type that can be the value of an ``IntentParameter``: `String`, `Int`, `Double`, `Bool`,
/// `Date`, `URL`, an ``AppEnum``, an ``AppEntity``, or an optional of one of them.
///
/// Apps do not conform to this directly; conforming to ``AppEnum`` or ``AppEntity`` is enough.
/// The requirements let the runtime describe the type and turn what a person said into values.
public protocol _IntentValue: Sendable {
    /// The type without any `Optional` around it.
    associatedtype UnwrappedValue: _IntentValue = Self

    /// What kind of value this is, for parameter listings, prompts and grammars.
    static var _valueType: IntentValueType { get }

    /// The values that the words `text` may mean, best first; empty when none fits.
    static func _values(matching text: String) async throws -> [Self]

    /// Every spoken name a value may have, when the set is closed (enum cases, suggested entities).
    static func _spokenNames() async throws -> [String]

    /// The values known in advance, each with its spoken names: enum cases, suggested entities.
    static func _namedValues() async throws -> [NamedValue]

    /// Whether words outside ``_namedValues()`` may still name a value, found when they are said
    /// (free text, numbers, dates, entities with an ``EntityStringQuery``).
    static var _isOpenSet: Bool { get }

    /// The words a listener should hear for this value.
    var _spokenText: String { get }

    /// Mistakes in the type's declaration, such as an enum case without a display representation.
    static func _declarationProblems() -> [String]
}

extension _IntentValue {
    public static func _spokenNames() async throws -> [String] {
        try await _namedValues().flatMap(\.names)
    }
    public static func _namedValues() async throws -> [NamedValue] { [] }
    public static var _isOpenSet: Bool { true }
    public static func _declarationProblems() -> [String] { [] }
    public var _spokenText: String { String(describing: self) }
}

/// What kind of value a parameter takes.
public struct IntentValueType: Sendable, Hashable, CustomStringConvertible {
    /// The broad kind of value.
    public enum Kind: String, Sendable, Hashable {
        case string, integer, decimal, boolean, date, url, enumeration, entity
    }

    public let kind: Kind
    /// The Swift type name: `Int`, `NavigationOption`, `LandmarkEntity`, `[LandmarkEntity]`.
    public let typeName: String
    /// The spoken name of the type ("Landmark") for enums and entities; `nil` for the others.
    public let displayName: String?
    /// Whether the value is a list of values of ``kind`` ("the Louvre and the Colosseum").
    public let isList: Bool

    public init(kind: Kind, typeName: String, displayName: String? = nil, isList: Bool = false) {
        self.kind = kind
        self.typeName = typeName
        self.displayName = displayName
        self.isList = isList
    }

    public var description: String { typeName }
}

extension String: _IntentValue {
    public static var _valueType: IntentValueType { .init(kind: .string, typeName: "String") }
    public static func _values(matching text: String) async throws -> [String] {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? [] : [trimmed]
    }
}

extension Int: _IntentValue {
    public static var _valueType: IntentValueType { .init(kind: .integer, typeName: "Int") }
    public static func _values(matching text: String) async throws -> [Int] {
        guard let number = SpokenNumber.parse(text), number.rounded() == number,
            let integer = Int(exactly: number)
        else { return [] }
        return [integer]
    }
}

extension Double: _IntentValue {
    public static var _valueType: IntentValueType { .init(kind: .decimal, typeName: "Double") }
    public static func _values(matching text: String) async throws -> [Double] {
        SpokenNumber.parse(text).map { [$0] } ?? []
    }
}

extension Bool: _IntentValue {
    public static var _valueType: IntentValueType { .init(kind: .boolean, typeName: "Bool") }
    public static func _values(matching text: String) async throws -> [Bool] {
        switch SpokenAnswer.yesOrNo(text) {
        case true?: [true]
        case false?: [false]
        case nil: []
        }
    }
    public var _spokenText: String { self ? "yes" : "no" }
}

extension Date: _IntentValue {
    public static var _valueType: IntentValueType { .init(kind: .date, typeName: "Date") }
    public static func _values(matching text: String) async throws -> [Date] {
        SpokenDate.parse(text, relativeTo: Date()).map { [$0] } ?? []
    }
    public var _spokenText: String {
        formatted(.dateTime.weekday(.wide).month(.wide).day())
    }
}

extension URL: _IntentValue {
    public static var _valueType: IntentValueType { .init(kind: .url, typeName: "URL") }
    public static func _values(matching text: String) async throws -> [URL] {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let url = URL(string: trimmed), url.scheme != nil else { return [] }
        return [url]
    }
    public var _spokenText: String { absoluteString }
}

extension Optional: _IntentValue where Wrapped: _IntentValue {
    public typealias UnwrappedValue = Wrapped.UnwrappedValue
    public static var _valueType: IntentValueType { Wrapped._valueType }
    public static func _values(matching text: String) async throws -> [Wrapped?] {
        try await Wrapped._values(matching: text).map { $0 }
    }
    public static func _spokenNames() async throws -> [String] { try await Wrapped._spokenNames() }
    public static func _namedValues() async throws -> [NamedValue] { try await Wrapped._namedValues() }
    public static var _isOpenSet: Bool { Wrapped._isOpenSet }
    public static func _declarationProblems() -> [String] { Wrapped._declarationProblems() }
    public var _spokenText: String { self?._spokenText ?? "" }
}

extension Array: _IntentValue where Element: _IntentValue {
    public static var _valueType: IntentValueType {
        let element = Element._valueType
        return IntentValueType(
            kind: element.kind, typeName: "[\(element.typeName)]", displayName: element.displayName,
            isList: true)
    }

    /// The list `text` names: the values of its parts, said with "and" or commas between them
    /// ("the Louvre and the Colosseum"), each the best value its words name; or one value, when
    /// the whole text names one (a name with "and" in it). Empty when a part names nothing.
    public static func _values(matching text: String) async throws -> [[Element]] {
        let whole = try await Element._values(matching: text)
        if let one = whole.first, SpokenMatch.says(text, one._spokenText) { return [[one]] }
        let parts = Self.parts(of: text)
        guard parts.count > 1 else { return whole.first.map { [[$0]] } ?? [] }
        var list: [Element] = []
        for part in parts {
            guard let value = try await Element._values(matching: part).first else { return [] }
            list.append(value)
        }
        return [list]
    }

    /// The parts of a spoken list: the words between "and", "&" and commas.
    static func parts(of text: String) -> [String] {
        var parts: [[Substring]] = [[]]
        for word in text.replacingOccurrences(of: ",", with: " and ").split(separator: " ") {
            if ["and", "&"].contains(word.lowercased()) {
                parts.append([])
            } else {
                parts[parts.count - 1].append(word)
            }
        }
        return parts.filter { !$0.isEmpty }.map { $0.joined(separator: " ") }
    }

    public static func _spokenNames() async throws -> [String] { try await Element._spokenNames() }
    public static func _namedValues() async throws -> [NamedValue] { try await Element._namedValues() }
    public static var _isOpenSet: Bool { Element._isOpenSet }
    public static func _declarationProblems() -> [String] { Element._declarationProblems() }

    /// "the Louvre", "the Louvre and the Colosseum", "Kyoto, Uluru and the Louvre".
    public var _spokenText: String {
        let names = map(\._spokenText)
        guard names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
    }
}

/// A list value, which one value of its element fills too: "find tickets for Uluru" fills a list
/// of landmarks with one.
protocol _ListValue {
    static func _list(of element: Any) -> Any?
}

extension Array: _ListValue where Element: _IntentValue {
    static func _list(of element: Any) -> Any? { (element as? Element).map { [$0] } }
}

/// A value with the names people say for it: an enum case, a suggested entity.
public struct NamedValue: Sendable {
    /// The title, as a listener hears it back ("Kinkaku-ji").
    public let title: String
    /// Every name that refers to it: the title first, then synonyms ("Kyoto", "Golden Pavilion").
    public let names: [String]
    /// The value itself.
    public let value: any Sendable

    public init(title: String, names: [String], value: any Sendable) {
        self.title = title
        self.names = names
        self.value = value
    }

    init(_ value: some _IntentValue, representation: DisplayRepresentation) {
        self.init(
            title: representation.title.defaultValue, names: representation.spokenNames, value: value)
    }
}
