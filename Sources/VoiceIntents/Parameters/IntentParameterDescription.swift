/// One parameter of an intent as the runtime sees it: for listings, prompts and grammars.
///
/// ```swift
/// for parameter in IntentDefinition(NavigateIntent.self).parameters {
///     print(parameter.name, parameter.title, parameter.valueType)
/// }
/// ```
public struct IntentParameterDescription: Sendable, Hashable, CustomStringConvertible {
    /// The property name: `navigationOption`.
    public let name: String
    /// The title: "Section", or "Navigation Option" when none was declared.
    public let title: String
    /// The kind and Swift type of the value.
    public let valueType: IntentValueType
    /// Whether the property is an optional (`String?`).
    public let isOptional: Bool
    /// Whether words outside the known values may name a value (free text, numbers, entities
    /// with a string query); `false` for enums and entities found only among suggestions.
    public let isOpenSet: Bool
    /// The default, as it would be spoken, if one was declared.
    public let defaultValue: String?
    /// The declared `requestValueDialog`, if any.
    public let prompt: String?
    /// The declared description, if any.
    public let parameterDescription: String?
    /// The lowest and highest number it takes, if declared (`inclusiveRange:`).
    public var inclusiveRange: ClosedRange<Double>? = nil

    /// Whether the runtime must ask for a value when a command does not give one.
    public var isRequired: Bool { !isOptional && defaultValue == nil }

    /// The question asked when the value is missing: the declared prompt, or one built from the
    /// title ("Which landmark?" for entities and enums, "What's the count?" otherwise).
    public var spokenPrompt: String {
        if let prompt { return prompt }
        switch valueType.kind {
        case .entity, .enumeration: return "Which \(title.lowercased())?"
        default: return "What's the \(title.lowercased())?"
        }
    }

    /// One line for listings: `navigationOption: NavigationOption "Section" prompt "Which section?"`.
    public var description: String {
        var line = "\(name): \(valueType)\(isOptional ? "?" : "") \"\(title)\""
        if let inclusiveRange {
            line +=
                " in \(spokenNumber(inclusiveRange.lowerBound))...\(spokenNumber(inclusiveRange.upperBound))"
        }
        if let defaultValue { line += " default \(defaultValue)" }
        if let prompt { line += " prompt \"\(prompt)\"" }
        return line
    }
}

/// A number as it is said and shown: "100", "2.5".
func spokenNumber(_ number: Double) -> String {
    number.rounded() == number && abs(number) < 1e15 ? String(Int(number)) : String(number)
}
