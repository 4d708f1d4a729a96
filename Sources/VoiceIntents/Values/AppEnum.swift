/// A fixed set of values a parameter can take, each with the name people say.
///
/// ```swift
/// enum NavigationOption: String, AppEnum {
///     case landmarks, map, collections
///     static let typeDisplayRepresentation: TypeDisplayRepresentation = "Navigation Option"
///     static let caseDisplayRepresentations: [NavigationOption: DisplayRepresentation] = [
///         .landmarks: "Landmarks",
///         .map: DisplayRepresentation(title: "Map", synonyms: ["world map"]),
///         .collections: "Collections",
///     ]
/// }
/// ```
///
/// Every case needs a display representation: its title and synonyms are what a listener
/// accepts. A missing one stops the app at start-up with a message naming the case.
public protocol AppEnum: _IntentValue, CaseIterable, RawRepresentable, Hashable
where RawValue: LosslessStringConvertible & Sendable, AllCases: Sendable {
    /// The name of the type, used in prompts ("Which navigation option?").
    static var typeDisplayRepresentation: TypeDisplayRepresentation { get }
    /// The title and synonyms of each case.
    static var caseDisplayRepresentations: [Self: DisplayRepresentation] { get }
}

extension AppEnum {
    public static var _valueType: IntentValueType {
        .init(
            kind: .enumeration, typeName: String(describing: Self.self),
            displayName: typeDisplayRepresentation.name.defaultValue)
    }

    /// The display representation of this case; its raw value when none was declared.
    public var displayRepresentation: DisplayRepresentation {
        Self.caseDisplayRepresentations[self]
            ?? DisplayRepresentation(title: LocalizedStringResource(String(rawValue)))
    }

    public var _spokenText: String { displayRepresentation.title.defaultValue }

    public static func _namedValues() async throws -> [NamedValue] {
        allCases.map { NamedValue($0, representation: $0.displayRepresentation) }
    }

    public static var _isOpenSet: Bool { false }

    public static func _declarationProblems() -> [String] {
        let missing = allCases.filter { caseDisplayRepresentations[$0] == nil }
        return missing.map {
            "enum \(Self.self): case .\($0) has no display representation; add it to caseDisplayRepresentations"
        }
    }

    public static func _values(matching text: String) async throws -> [Self] {
        SpokenMatch.best(in: Array(allCases), for: text) { $0.displayRepresentation.spokenNames }
    }
}
