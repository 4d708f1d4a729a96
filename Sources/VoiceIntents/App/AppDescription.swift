import Foundation

/// Everything an app declares for voice, gathered: names, shortcuts, negative phrases, intents.
///
/// The matcher, the grammar generator and the voice loop all start from this.
///
/// ```swift
/// let app = AppDescription(TravelTrackingApp.self)
/// for diagnostic in app.validate() { print(diagnostic) }
/// ```
public struct AppDescription: Sendable {
    /// The app's spoken name.
    public let name: String
    /// Other names for the app.
    public let alternativeNames: [String]
    /// The shortcuts, in order.
    public let shortcuts: [AppShortcut]
    /// Phrases that must never match.
    public let negativePhrases: [PhraseTemplate]
    /// Every intent the app can run: those of its shortcuts, then the additional ones.
    public let intents: [IntentDefinition]
    /// Whether phrases must say the app's name (``VoiceApp/isAddressedByName``).
    public let isAddressedByName: Bool
    /// The shortcuts provider's type name, as its ``AppShortcutsProvider/updateAppShortcutParameters()``
    /// posts it (``AppShortcutParameterUpdates``).
    public let shortcutsProvider: String

    /// Reads the declaration of `app`.
    public init<App: VoiceApp>(_ app: App.Type) {
        self.init(
            name: App.name, alternativeNames: App.alternativeNames, shortcuts: App.Shortcuts.self,
            additionalIntents: App.additionalIntents, isAddressedByName: App.isAddressedByName)
    }

    /// Assembles a description from its parts.
    ///
    /// - Parameters:
    ///   - name: The spoken name.
    ///   - alternativeNames: Other spoken names.
    ///   - shortcuts: The shortcuts provider.
    ///   - additionalIntents: Intents no shortcut reaches.
    ///   - isAddressedByName: Whether phrases must say the app's name.
    public init(
        name: String, alternativeNames: [String] = [], shortcuts: any AppShortcutsProvider.Type,
        additionalIntents: [any AppIntent.Type] = [], isAddressedByName: Bool = true
    ) {
        self.isAddressedByName = isAddressedByName
        self.name = name
        self.alternativeNames = alternativeNames
        self.shortcuts = shortcuts.appShortcuts
        self.shortcutsProvider = String(describing: shortcuts)
        self.negativePhrases = shortcuts.negativePhrases.phrases.map(\.template)
        var seen = Set<ObjectIdentifier>()
        var intents: [IntentDefinition] = []
        for type in self.shortcuts.map(\.intentType) + additionalIntents
        where seen.insert(ObjectIdentifier(type)).inserted {
            intents.append(IntentDefinition(type))
        }
        self.intents = intents
    }

    /// Every name of the app: the name, then the alternatives.
    public var spokenNames: [String] { [name] + alternativeNames }

    /// The intent with this identifier.
    public func intent(_ identifier: String) -> IntentDefinition? {
        intents.first { $0.identifier == identifier }
    }
}

/// A problem in an app's declaration, found at start-up.
public struct AppDiagnostic: Sendable, Hashable, CustomStringConvertible {
    public enum Severity: String, Sendable, Hashable {
        case warning, error
    }

    public let severity: Severity
    public let message: String

    public init(_ severity: Severity, _ message: String) {
        self.severity = severity
        self.message = message
    }

    /// `error: …` or `warning: …`, as compilers print them.
    public var description: String { "\(severity.rawValue): \(message)" }
}

/// The error that stops an app whose declaration has errors.
public struct AppValidationError: Error, CustomStringConvertible {
    /// Every problem found, errors and warnings.
    public let diagnostics: [AppDiagnostic]

    public var description: String {
        let errors = diagnostics.filter { $0.severity == .error }
        return "\(errors.count) error\(errors.count == 1 ? "" : "s") in the app's declaration:\n"
            + diagnostics.map { "  \($0)" }.joined(separator: "\n")
    }
}

extension AppDescription {
    /// Checks the declaration: placeholders must name a `@Parameter`, enum cases need display
    /// representations, intent identifiers must be unique; a phrase without the app name (or
    /// with it twice) is a warning, as Apple's build tool warns.
    public func validate() -> [AppDiagnostic] {
        var diagnostics: [AppDiagnostic] = []
        if name.trimmingCharacters(in: .whitespaces).isEmpty {
            diagnostics.append(
                .init(.error, "the app's name is empty; phrases say it as \\(.applicationName)"))
        }
        for shortcut in shortcuts {
            let intent = String(describing: shortcut.intentType)
            if shortcut.phrases.isEmpty {
                diagnostics.append(
                    .init(.warning, "shortcut \(intent) has no phrases, so no sentence reaches it"))
            }
            for phrase in shortcut.phrases {
                let quoted = "phrase \"\(phrase)\" of \(intent)"
                for case .parameter(nil, let valueType) in phrase.parts {
                    diagnostics.append(
                        .init(
                            .error,
                            "\(quoted): a placeholder of type \(valueType) names no @Parameter of \(intent)"))
                }
                switch phrase.applicationNameCount {
                case 0 where !isAddressedByName: break
                case 0:
                    diagnostics.append(.init(.warning, "\(quoted) does not contain \\(.applicationName)"))
                case 1: break
                default:
                    diagnostics.append(
                        .init(.warning, "\(quoted) contains \\(.applicationName) more than once"))
                }
            }
        }
        diagnostics += duplicateIdentifiers()
        diagnostics += valueDeclarationProblems()
        return diagnostics
    }

    /// The warnings of ``validate()``; throws ``AppValidationError`` when there are errors.
    @discardableResult
    public func validated() throws -> [AppDiagnostic] {
        let diagnostics = validate()
        if diagnostics.contains(where: { $0.severity == .error }) {
            throw AppValidationError(diagnostics: diagnostics)
        }
        return diagnostics
    }

    private func duplicateIdentifiers() -> [AppDiagnostic] {
        Dictionary(grouping: intents, by: \.identifier).filter { $0.value.count > 1 }
            .sorted { $0.key < $1.key }
            .map { identifier, definitions in
                let types = definitions.map { String(reflecting: $0.type) }.joined(separator: " and ")
                return AppDiagnostic(
                    .error,
                    "two intents have the identifier \"\(identifier)\": \(types); rename one or set persistentIdentifier"
                )
            }
    }

    private func valueDeclarationProblems() -> [AppDiagnostic] {
        var seen = Set<String>()
        var diagnostics: [AppDiagnostic] = []
        for intent in intents {
            for parameter in IntentReflection.parameters(of: intent.type.init()) {
                for problem in parameter._declarationProblems() where seen.insert(problem).inserted {
                    diagnostics.append(.init(.error, problem))
                }
            }
        }
        return diagnostics
    }
}
