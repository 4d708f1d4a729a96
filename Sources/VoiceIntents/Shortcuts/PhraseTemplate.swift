/// A declared phrase as a template: literal text and placeholders, in order.
///
/// ```swift
/// let phrase: AppShortcutPhrase<NavigateIntent> =
///     "Navigate to \(\.$navigationOption) in \(.applicationName)"
/// phrase.template.description   // "Navigate to ${navigationOption} in ${applicationName}"
/// ```
///
/// Placeholders are written `${name}` in text form, as Apple's `AppShortcuts.xcstrings` keys
/// write them.
public struct PhraseTemplate: Sendable, Hashable, CustomStringConvertible {
    /// One piece of a template.
    public enum Part: Sendable, Hashable {
        /// Words said as written.
        case text(String)
        /// The app's spoken name (or one of its alternative names).
        case applicationName
        /// A parameter's value. `name` is `nil` when the key path leads to no `@Parameter`.
        case parameter(name: String?, valueType: IntentValueType)
    }

    public let parts: [Part]

    public init(parts: [Part]) {
        // Adjacent text pieces are merged so that equal phrases compare equal.
        var merged: [Part] = []
        for part in parts {
            if case .text(let next) = part, case .text(let previous)? = merged.last {
                merged[merged.count - 1] = .text(previous + next)
            } else if part != .text("") {
                merged.append(part)
            }
        }
        self.parts = merged
    }

    /// The names of the parameters the template fills, in order.
    public var parameterNames: [String] {
        parts.compactMap { if case .parameter(let name?, _) = $0 { name } else { nil } }
    }

    /// How many times the app name appears.
    public var applicationNameCount: Int {
        parts.count { $0 == .applicationName }
    }

    /// The template with `${applicationName}` and `${parameterName}` placeholders.
    public var description: String {
        parts.map { part in
            switch part {
            case .text(let text): text
            case .applicationName: "${applicationName}"
            case .parameter(let name, _): "${\(name ?? "?")}"
            }
        }.joined()
    }
}

/// A token a phrase may interpolate besides parameters.
public enum AppShortcutPhraseToken: Sendable, Hashable {
    /// The app's spoken name.
    case applicationName
}

/// A phrase that reaches `Intent`, written with interpolation:
/// `"Navigate to \(\.$navigationOption) in \(.applicationName)"`.
public struct AppShortcutPhrase<Intent: AppIntent>: Sendable, ExpressibleByStringInterpolation {
    /// The phrase as a template.
    public let template: PhraseTemplate

    public init(stringLiteral value: String) {
        template = PhraseTemplate(parts: [.text(value)])
    }

    public init(stringInterpolation: StringInterpolation) {
        template = PhraseTemplate(parts: stringInterpolation.parts)
    }

    /// Text, the app's name, and the intent's parameters by key path.
    public typealias StringInterpolation = PhraseInterpolation<Intent>
}

/// A phrase that must never run anything: "Don't navigate in \(.applicationName)".
public struct NegativeAppShortcutPhrase: Sendable, ExpressibleByStringInterpolation {
    public let template: PhraseTemplate

    public init(stringLiteral value: String) {
        template = PhraseTemplate(parts: [.text(value)])
    }

    public init(stringInterpolation: StringInterpolation) {
        template = PhraseTemplate(parts: stringInterpolation.parts)
    }

    /// Text and the app's name: a negative phrase holds no parameter.
    public typealias StringInterpolation = PhraseInterpolation<Never>
}

/// How a phrase is written with interpolation: text, `\(.applicationName)`, and, in a phrase of
/// an intent, its parameters by key path (`\(\.$navigationOption)`).
public struct PhraseInterpolation<Intent>: StringInterpolationProtocol {
    var parts: [PhraseTemplate.Part] = []

    public init(literalCapacity: Int, interpolationCount: Int) {}

    public mutating func appendLiteral(_ literal: String) {
        parts.append(.text(literal))
    }

    public mutating func appendInterpolation(_ token: AppShortcutPhraseToken) {
        parts.append(.applicationName)
    }
}

extension PhraseInterpolation where Intent: AppIntent {
    public mutating func appendInterpolation<Value>(_ keyPath: KeyPath<Intent, IntentParameter<Value>>) {
        parts.append(
            .parameter(name: IntentDefinition.parameterName(for: keyPath), valueType: Value._valueType))
    }
}

/// The phrases an app declares as never meaning a command.
///
/// ```swift
/// static var negativePhrases: NegativeAppShortcutPhrases {
///     NegativeAppShortcutPhrases {
///         "Don't navigate in \(.applicationName)"
///         "Stop tracking travel"
///     }
/// }
/// ```
public struct NegativeAppShortcutPhrases: Sendable, ExpressibleByArrayLiteral {
    public let phrases: [NegativeAppShortcutPhrase]

    /// Collects phrases written one per line.
    public init(@NegativeAppShortcutPhrasesBuilder _ phrases: () -> [NegativeAppShortcutPhrase]) {
        self.phrases = phrases()
    }

    public init(arrayLiteral elements: NegativeAppShortcutPhrase...) {
        self.phrases = elements
    }
}

/// Collects ``NegativeAppShortcutPhrase``s.
@resultBuilder
public enum NegativeAppShortcutPhrasesBuilder {
    public static func buildExpression(_ phrase: NegativeAppShortcutPhrase) -> [NegativeAppShortcutPhrase] {
        [phrase]
    }

    public static func buildBlock(_ parts: [NegativeAppShortcutPhrase]...) -> [NegativeAppShortcutPhrase] {
        parts.flatMap { $0 }
    }
}
