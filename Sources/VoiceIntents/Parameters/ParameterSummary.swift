/// A sentence that reads back a filled-in command, built in an intent's `parameterSummary`.
///
/// ```swift
/// static var parameterSummary: some ParameterSummary {
///     When(\.$isFavorite, .equalTo, true) {
///         Summary("Add \(\.$landmark) to favorites")
///     } otherwise: {
///         Summary("Remove \(\.$landmark) from favorites")
///     }
/// }
/// ```
///
/// Voice uses it to confirm or describe a command: "Open Want to Read".
public protocol ParameterSummary: Sendable {
    /// The sentence for `intent`, with each parameter replaced by its spoken value (or its title
    /// when it has none); `nil` when the summary is not for this intent's type.
    func _text(for intent: any AppIntent) -> String?
}

extension AppIntent {
    /// The read-back of this intent with its current values: "Open Want to Read".
    public var summaryText: String? {
        Self.parameterSummary._text(for: self)
    }
}

/// The summary of an intent that declares none.
public struct DefaultParameterSummary<Intent: AppIntent>: ParameterSummary {
    public init() {}
    public func _text(for intent: any AppIntent) -> String? { nil }
}

/// A summary sentence with parameters: `Summary("Open \(\.$shelf)")`.
public struct Summary<Intent: AppIntent>: ParameterSummary {
    let parts: [ParameterSummaryString<Intent>.Part]

    /// Creates a summary from a sentence whose interpolations are parameter key paths.
    public init(_ string: ParameterSummaryString<Intent>) {
        self.parts = string.parts
    }

    public func _text(for intent: any AppIntent) -> String? {
        guard let intent = intent as? Intent else { return nil }
        return parts.map { part in
            switch part {
            case .text(let text): text
            case .parameter(let read): read(intent)
            }
        }.joined()
    }
}

/// The sentence of a ``Summary``: literal text and `\(\.$parameter)` placeholders.
public struct ParameterSummaryString<Intent: AppIntent>: Sendable, ExpressibleByStringInterpolation {
    enum Part: Sendable {
        case text(String)
        case parameter(@Sendable (Intent) -> String)
    }

    let parts: [Part]

    public init(stringLiteral value: String) {
        parts = [.text(value)]
    }

    public init(stringInterpolation: StringInterpolation) {
        parts = stringInterpolation.parts
    }

    public struct StringInterpolation: StringInterpolationProtocol {
        var parts: [Part] = []

        public init(literalCapacity: Int, interpolationCount: Int) {}

        public mutating func appendLiteral(_ literal: String) {
            parts.append(.text(literal))
        }

        public mutating func appendInterpolation<Value>(
            _ keyPath: KeyPath<Intent, IntentParameter<Value>>
        ) {
            nonisolated(unsafe) let keyPath = keyPath  // key paths to stored properties are immutable
            parts.append(
                .parameter { intent in
                    let parameter = intent[keyPath: keyPath]
                    if let value = parameter._currentValue { return spokenText(of: value) }
                    return parameter.title.defaultValue.lowercased()
                })
        }
    }
}

/// A summary chosen by a parameter's value. See ``ParameterSummary``.
public struct When<Intent: AppIntent>: ParameterSummary {
    let condition: @Sendable (Intent) -> Bool
    let then: any ParameterSummary
    let otherwise: (any ParameterSummary)?

    /// Uses `then` when the parameter compares true with `value`, `otherwise` when not.
    public init<Value: _IntentValue & Equatable>(
        _ keyPath: KeyPath<Intent, IntentParameter<Value>>,
        _ comparison: ParameterComparison,
        _ value: Value,
        @ParameterSummaryBuilder<Intent> _ then: () -> some ParameterSummary,
        @ParameterSummaryBuilder<Intent> otherwise: () -> some ParameterSummary
    ) {
        nonisolated(unsafe) let keyPath = keyPath
        self.condition = { intent in
            comparison.evaluate(intent[keyPath: keyPath]._currentValue as? Value, value)
        }
        self.then = then()
        self.otherwise = otherwise()
    }

    /// Uses `then` when the parameter has (or lacks) a value, `otherwise` when not.
    public init<Value: _IntentValue>(
        _ keyPath: KeyPath<Intent, IntentParameter<Value>>,
        _ presence: ParameterPresence,
        @ParameterSummaryBuilder<Intent> _ then: () -> some ParameterSummary,
        @ParameterSummaryBuilder<Intent> otherwise: () -> some ParameterSummary
    ) {
        nonisolated(unsafe) let keyPath = keyPath
        self.condition = { intent in
            let hasValue = intent[keyPath: keyPath]._currentValue.map { spokenText(of: $0) }
            let present = !(hasValue ?? "").isEmpty
            return presence == .hasAnyValue ? present : !present
        }
        self.then = then()
        self.otherwise = otherwise()
    }

    public func _text(for intent: any AppIntent) -> String? {
        guard let typed = intent as? Intent else { return nil }
        return condition(typed) ? then._text(for: intent) : otherwise?._text(for: intent)
    }
}

/// How ``When`` compares a parameter with a value.
public enum ParameterComparison: Sendable {
    case equalTo, notEqualTo

    func evaluate<Value: Equatable>(_ current: Value?, _ expected: Value) -> Bool {
        switch self {
        case .equalTo: current == expected
        case .notEqualTo: current != expected
        }
    }
}

/// Whether ``When`` asks for a value to be there or not.
public enum ParameterPresence: Sendable {
    case hasAnyValue, hasNoValue
}

/// A summary chosen among cases of an enum parameter. See ``Case`` and ``DefaultCase``.
public struct Switch<Intent: AppIntent, Value: _IntentValue & Equatable>: ParameterSummary {
    nonisolated(unsafe) let keyPath: KeyPath<Intent, IntentParameter<Value>>
    let cases: [SummaryCase<Value>]

    /// Creates a switch over a parameter's value.
    public init(
        _ keyPath: KeyPath<Intent, IntentParameter<Value>>,
        @SummaryCaseBuilder<Intent, Value> _ cases: () -> [SummaryCase<Value>]
    ) {
        self.keyPath = keyPath
        self.cases = cases()
    }

    public func _text(for intent: any AppIntent) -> String? {
        guard let typed = intent as? Intent else { return nil }
        let current = typed[keyPath: keyPath]._currentValue as? Value
        let chosen =
            cases.first { $0.value != nil && $0.value == current } ?? cases.first { $0.value == nil }
        return chosen?.summary._text(for: intent)
    }
}

/// One case of a ``Switch``: `Case(.map) { Summary("Show the map") }`.
public struct SummaryCase<Value: _IntentValue & Equatable>: Sendable {
    let value: Value?
    let summary: any ParameterSummary
}

/// A ``Switch`` case for one value.
public func Case<Intent: AppIntent, Value: _IntentValue & Equatable>(
    _ value: Value, @ParameterSummaryBuilder<Intent> _ summary: () -> some ParameterSummary
) -> (Intent.Type, SummaryCase<Value>) {
    (Intent.self, SummaryCase(value: value, summary: summary()))
}

/// The ``Switch`` case for every other value.
public func DefaultCase<Intent: AppIntent, Value: _IntentValue & Equatable>(
    @ParameterSummaryBuilder<Intent> _ summary: () -> some ParameterSummary
) -> (Intent.Type, SummaryCase<Value>) {
    (Intent.self, SummaryCase(value: nil, summary: summary()))
}

/// Collects the cases of a ``Switch``.
@resultBuilder
public enum SummaryCaseBuilder<Intent: AppIntent, Value: _IntentValue & Equatable> {
    public static func buildExpression(_ entry: (Intent.Type, SummaryCase<Value>)) -> [SummaryCase<Value>] {
        [entry.1]
    }

    public static func buildBlock(_ parts: [SummaryCase<Value>]...) -> [SummaryCase<Value>] {
        parts.flatMap { $0 }
    }
}

/// Builds the ``ParameterSummary`` of an intent.
@resultBuilder
public enum ParameterSummaryBuilder<Intent: AppIntent> {
    public static func buildExpression(_ summary: Summary<Intent>) -> Summary<Intent> { summary }
    public static func buildExpression(_ summary: When<Intent>) -> When<Intent> { summary }
    public static func buildExpression<Value>(_ summary: Switch<Intent, Value>) -> Switch<Intent, Value> {
        summary
    }
    public static func buildBlock<Content: ParameterSummary>(_ content: Content) -> Content { content }
}
