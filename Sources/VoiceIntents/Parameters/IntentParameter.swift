import Synchronization

/// Declares an input of an intent: its title, default and the question that asks for it.
///
/// ```swift
/// @Parameter(title: "Section", requestValueDialog: "Which section?")
/// var navigationOption: NavigationOption
///
/// @Parameter var authorName: String?     // title "Author Name", derived from the name
/// ```
///
/// A required parameter (not optional, no default) that a command did not fill is asked for
/// before `perform()` runs. The projected value (`$navigationOption`) asks further questions
/// while `perform()` runs: ``requestValue(_:)-(IntentDialog?)``,
/// ``requestDisambiguation(among:dialog:)`` and ``requestConfirmation(for:dialog:)``.
public typealias Parameter = IntentParameter

/// The property wrapper behind `@Parameter`. See ``Parameter``.
@propertyWrapper
public final class IntentParameter<Value: _IntentValue>: @unchecked Sendable {
    private struct State {
        var value: Value?
        var name: String?
    }

    private let state: Mutex<State>
    /// The declared title, or `nil` when it is derived from the property name.
    public let declaredTitle: LocalizedStringResource?
    /// A longer description for help text.
    public let parameterDescription: LocalizedStringResource?
    /// The value used when nobody gives one.
    public let defaultValue: Value?
    /// What to ask when the value is missing.
    public let requestValueDialog: IntentDialog?
    /// The lowest and highest number the parameter takes, if it was declared with a range.
    public let inclusiveBounds: ClosedRange<Double>?
    /// The values an ``DynamicOptionsProvider`` suggests, if one was given.
    private let suggestions: (@Sendable () async throws -> [Value])?

    /// Creates a parameter.
    ///
    /// - Parameters:
    ///   - title: The parameter's name as shown and spoken ("Section").
    ///   - description: A longer explanation.
    ///   - defaultValue: The value used when the command does not give one.
    ///   - requestValueDialog: The question asked when the value is missing ("Which section?").
    public convenience init(
        title: LocalizedStringResource,
        description: LocalizedStringResource? = nil,
        default defaultValue: Value? = nil,
        requestValueDialog: IntentDialog? = nil
    ) {
        self.init(
            declaredTitle: title, description: description, default: defaultValue,
            requestValueDialog: requestValueDialog)
    }

    /// Creates a parameter whose likely values come from `optionsProvider` when it is asked for:
    /// free text with suggestions, such as a title from a catalogue.
    ///
    /// ```swift
    /// @Parameter(title: "Title", requestValueDialog: "What's the title?", optionsProvider: CatalogueTitles())
    /// var title: String
    /// ```
    ///
    /// - Parameters:
    ///   - title: The parameter's name as shown and spoken.
    ///   - description: A longer explanation.
    ///   - defaultValue: The value used when the command does not give one.
    ///   - requestValueDialog: The question asked when the value is missing.
    ///   - optionsProvider: Suggests the values people are likely to give.
    public convenience init<Provider: DynamicOptionsProvider>(
        title: LocalizedStringResource,
        description: LocalizedStringResource? = nil,
        default defaultValue: Value? = nil,
        requestValueDialog: IntentDialog? = nil,
        optionsProvider: Provider
    ) where Provider.DefaultValue == Value {
        self.init(
            declaredTitle: title, description: description, default: defaultValue,
            requestValueDialog: requestValueDialog, suggestions: { try await optionsProvider.results() })
    }

    /// What every public initialiser calls: `declaredTitle` `nil` derives the title from the
    /// property name; `bounds` are the numbers an `inclusiveRange:` parameter takes.
    init(
        declaredTitle: LocalizedStringResource?, description: LocalizedStringResource?,
        default defaultValue: Value?, requestValueDialog: IntentDialog?, bounds: ClosedRange<Double>? = nil,
        suggestions: (@Sendable () async throws -> [Value])? = nil
    ) {
        self.state = Mutex(State())
        self.declaredTitle = declaredTitle
        self.parameterDescription = description
        self.defaultValue = defaultValue
        self.requestValueDialog = requestValueDialog
        self.inclusiveBounds = bounds
        self.suggestions = suggestions
    }

    /// Creates a parameter whose title is derived from the property name
    /// (`navigationOption` → "Navigation Option").
    ///
    /// - Parameters:
    ///   - description: A longer explanation.
    ///   - defaultValue: The value used when the command does not give one.
    ///   - requestValueDialog: The question asked when the value is missing.
    public convenience init(
        description: LocalizedStringResource? = nil,
        default defaultValue: Value? = nil,
        requestValueDialog: IntentDialog? = nil
    ) {
        self.init(
            declaredTitle: nil, description: description, default: defaultValue,
            requestValueDialog: requestValueDialog)
    }

    /// Creates a parameter whose default is the property's initial value:
    /// `@Parameter(title: "Count") var count = 1`.
    ///
    /// - Parameters:
    ///   - wrappedValue: The default value.
    ///   - title: The title; derived from the property name when `nil`.
    ///   - description: A longer explanation.
    ///   - requestValueDialog: The question asked when the value is missing.
    public convenience init(
        wrappedValue: Value, title: LocalizedStringResource? = nil,
        description: LocalizedStringResource? = nil, requestValueDialog: IntentDialog? = nil
    ) {
        self.init(
            declaredTitle: title, description: description, default: wrappedValue,
            requestValueDialog: requestValueDialog)
    }

    /// The current value. Reading a required parameter that has no value is a programming
    /// error: run intents through ``IntentRunner``, which asks for missing values first.
    public var wrappedValue: Value {
        get {
            if let value = state.withLock({ $0.value }) ?? defaultValue ?? Value._absentValue {
                return value
            }
            fatalError(
                "@Parameter '\(name ?? "?")' (\(Value._valueType)) was read before it had a value. "
                    + "Run the intent with IntentRunner, which asks for missing values first.")
        }
        set { state.withLock { $0.value = newValue } }
    }

    /// The parameter itself, for asking questions about it: `$navigationOption.requestValue()`.
    public var projectedValue: IntentParameter<Value> { self }

    /// The property name without the underscore, once the runtime has seen the intent.
    public var name: String? { state.withLock { $0.name } }

    /// The title: declared, or derived from the property name.
    public var title: LocalizedStringResource {
        declaredTitle ?? LocalizedStringResource(ParameterTitle.derived(from: name ?? "value"))
    }

    /// Whether a value was given, by a command, an answer or code (a default does not count).
    public var hasValue: Bool { state.withLock { $0.value != nil } }
}

extension IntentParameter: _AnyIntentParameter {
    var _valueType: IntentValueType { Value._valueType }
    var _isOptional: Bool { Value._absentValue != nil }
    var _needsValue: Bool { !hasValue && defaultValue == nil && !_isOptional }
    var _currentValue: (any Sendable)? {
        state.withLock { $0.value } ?? defaultValue
    }

    func _assignName(_ name: String) {
        state.withLock { $0.name = name }
    }

    func _setValue(_ value: Any) -> Bool {
        if _outOfRange(value) != nil { return false }
        guard let typed = value as? Value ?? (Value.self as? any _ListValue.Type)?._list(of: value) as? Value
        else { return false }
        wrappedValue = typed
        return true
    }

    func _clearValue() {
        state.withLock { $0.value = nil }
    }

    func _copyValue(from other: any _AnyIntentParameter) {
        guard let other = other as? IntentParameter<Value> else { return }
        let value = other.state.withLock { $0.value }
        state.withLock { $0.value = value }
    }

    /// The values `text` names. A suggested value is taken as the provider wrote it when `text`
    /// says it, with or without the "the" and "one" people put around an answer from a list
    /// ("the Dune one" is "Dune"); other words are read as the value type reads them.
    func _values(matching text: String) async throws -> [any Sendable] {
        if let suggestions {
            let said = try await suggestions().filter { SpokenMatch.says(text, spokenText(of: $0)) }
            if let first = said.first { return [first] }
        }
        return try await Value._values(matching: text).filter { _outOfRange($0) == nil }
    }

    /// The names of the suggested values when a provider gives them; otherwise the names of the
    /// type's known values (enum cases, suggested entities).
    func _spokenNames() async throws -> [String] {
        if let suggested = try await _suggestedNames() { return suggested }
        return try await Value._spokenNames()
    }

    /// The names of the values the ``DynamicOptionsProvider`` suggests now, or `nil` without one.
    func _suggestedNames() async throws -> [String]? {
        guard let suggestions else { return nil }
        return try await suggestions().map { spokenText(of: $0) }
    }

    func _namedValues() async throws -> [NamedValue] {
        try await Value._namedValues()
    }

    func _resolve(_ words: String) async throws -> [NamedValue] {
        try await Value._values(matching: words).map {
            NamedValue(title: spokenText(of: $0), names: [spokenText(of: $0)], value: $0)
        }
    }

    func _declarationProblems() -> [String] {
        Value._declarationProblems()
    }

    /// Why `value` cannot be this parameter's, said to the person, or `nil` when it can.
    func _outOfRange(_ value: Any) -> String? {
        guard let bounds = inclusiveBounds, let number = Self.number(value) else { return nil }
        if bounds.contains(number) { return nil }
        let said = spokenNumber(number)
        return number < bounds.lowerBound
            ? "Sorry, \(said) is less than the least, \(spokenNumber(bounds.lowerBound))."
            : "Sorry, \(said) is more than the most, \(spokenNumber(bounds.upperBound))."
    }

    /// Why the value `words` name cannot be this parameter's ("Sorry, 150 is more than the most,
    /// 100."), or `nil` when they name none or one it takes.
    func _whyNot(_ words: String) async -> String? {
        guard inclusiveBounds != nil, let values = try? await Value._values(matching: words) else {
            return nil
        }
        return values.lazy.compactMap { self._outOfRange($0) }.first
    }

    static func number(_ value: Any) -> Double? {
        (value as? any _BoundedNumber)?._doubleValue
    }

    func _describe() -> IntentParameterDescription {
        IntentParameterDescription(
            name: name ?? "",
            title: title.defaultValue,
            valueType: Value._valueType,
            isOptional: _isOptional,
            isOpenSet: Value._isOpenSet,
            defaultValue: defaultValue.map { spokenText(of: $0) },
            prompt: requestValueDialog?.full.defaultValue,
            parameterDescription: parameterDescription?.defaultValue, inclusiveRange: inclusiveBounds)
    }
}

/// What the runtime needs from a parameter without knowing its value type.
protocol _AnyIntentParameter: AnyObject, Sendable {
    var name: String? { get }
    var title: LocalizedStringResource { get }
    var requestValueDialog: IntentDialog? { get }
    var _valueType: IntentValueType { get }
    var _isOptional: Bool { get }
    var _needsValue: Bool { get }
    var _currentValue: (any Sendable)? { get }
    func _assignName(_ name: String)
    func _setValue(_ value: Any) -> Bool
    func _outOfRange(_ value: Any) -> String?
    func _whyNot(_ words: String) async -> String?
    func _clearValue()
    func _copyValue(from other: any _AnyIntentParameter)
    func _values(matching text: String) async throws -> [any Sendable]
    func _spokenNames() async throws -> [String]
    func _suggestedNames() async throws -> [String]?
    func _namedValues() async throws -> [NamedValue]
    func _resolve(_ words: String) async throws -> [NamedValue]
    func _declarationProblems() -> [String]
    func _describe() -> IntentParameterDescription
}

extension _IntentValue {
    /// `nil` wrapped in `Self` when `Self` is an optional; `nil` (no value at all) otherwise.
    static var _absentValue: Self? {
        guard let optionalType = Self.self as? any ExpressibleByNilLiteral.Type else { return nil }
        return (optionalType.init(nilLiteral: ()) as! Self)
    }
}

/// Titles derived from property names.
enum ParameterTitle {
    /// `navigationOption` → "Navigation Option", `bookURL` → "Book URL".
    static func derived(from name: String) -> String {
        var words: [String] = []
        var current = ""
        let characters = Array(name.trimmingPrefix("_"))
        for (index, character) in characters.enumerated() {
            let next = index + 1 < characters.count ? characters[index + 1] : nil
            let previous = index > 0 ? characters[index - 1] : nil
            let startsWord =
                character.isUppercase
                && (previous?.isLowercase == true
                    || (previous?.isUppercase == true && next?.isLowercase == true))
            if (startsWord || character == "_") && !current.isEmpty {
                words.append(current)
                current = ""
            }
            if character != "_" { current.append(character) }
        }
        if !current.isEmpty { words.append(current) }
        return words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
    }
}

// MARK: Numbers within bounds

/// A number a parameter can bound with `inclusiveRange:` (`Int`, `Double`).
public protocol _BoundedNumber: _IntentValue, Comparable {
    /// The number, for comparing with the bounds.
    var _doubleValue: Double { get }
}

extension Int: _BoundedNumber {
    public var _doubleValue: Double { Double(self) }
}

extension Double: _BoundedNumber {
    public var _doubleValue: Double { self }
}

extension IntentParameter where Value.UnwrappedValue: _BoundedNumber {
    /// Creates a parameter that takes numbers from `inclusiveRange.lowerBound` to
    /// `inclusiveRange.upperBound`: `@Parameter(title: "Brightness", inclusiveRange: (0, 100))`. A
    /// number outside is not taken; the person is told why and asked again.
    public convenience init(
        title: LocalizedStringResource, description: LocalizedStringResource? = nil,
        default defaultValue: Value? = nil,
        inclusiveRange: (lowerBound: Value.UnwrappedValue, upperBound: Value.UnwrappedValue),
        requestValueDialog: IntentDialog? = nil
    ) {
        self.init(
            declaredTitle: title, description: description, default: defaultValue,
            requestValueDialog: requestValueDialog,
            bounds: inclusiveRange.lowerBound._doubleValue...inclusiveRange.upperBound._doubleValue)
    }
}
