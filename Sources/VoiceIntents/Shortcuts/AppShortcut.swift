/// A family of phrases bound to one intent.
///
/// ```swift
/// AppShortcut(
///     intent: NavigateIntent(),
///     phrases: [
///         "Navigate in \(.applicationName)",
///         "Navigate to \(\.$navigationOption) in \(.applicationName)",
///     ],
///     shortTitle: "Navigate", systemImageName: "arrowshape.forward")
/// ```
///
/// The intent is an instance, so a shortcut may pre-fill parameters that its phrases do not name.
public struct AppShortcut: Sendable {
    /// The intent, with any pre-filled parameter values.
    public let intent: any AppIntent
    /// The phrases as templates, in declaration order.
    public let phrases: [PhraseTemplate]
    /// A short title for listings.
    public let shortTitle: LocalizedStringResource
    /// An image name for Apple platforms; ignored by voice.
    public let systemImageName: String?

    /// The intent type.
    public var intentType: any AppIntent.Type { type(of: intent) }

    /// Creates a shortcut.
    ///
    /// - Parameters:
    ///   - intent: The intent the phrases reach, possibly with values already set.
    ///   - phrases: The phrases, each containing `\(.applicationName)`.
    ///   - shortTitle: A short title for listings.
    ///   - systemImageName: Ignored by voice.
    public init<Intent: AppIntent>(
        intent: Intent, phrases: [AppShortcutPhrase<Intent>], shortTitle: LocalizedStringResource,
        systemImageName: String
    ) {
        self.intent = intent
        self.phrases = phrases.map(\.template)
        self.shortTitle = shortTitle
        self.systemImageName = systemImageName
    }

    /// Creates a shortcut titled after its intent (the 2022 form).
    public init<Intent: AppIntent>(
        intent: Intent, phrases: [AppShortcutPhrase<Intent>], systemImageName: String
    ) {
        self.init(
            intent: intent, phrases: phrases, shortTitle: Intent.title,
            systemImageName: systemImageName)
    }
}

/// Collects the ``AppShortcut``s of an ``AppShortcutsProvider``, with `if` and `for` allowed.
@resultBuilder
public enum AppShortcutsBuilder {
    public static func buildExpression(_ shortcut: AppShortcut) -> [AppShortcut] { [shortcut] }
    public static func buildExpression(_ shortcuts: [AppShortcut]) -> [AppShortcut] { shortcuts }
    public static func buildBlock(_ parts: [AppShortcut]...) -> [AppShortcut] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [AppShortcut]?) -> [AppShortcut] { part ?? [] }
    public static func buildEither(first part: [AppShortcut]) -> [AppShortcut] { part }
    public static func buildEither(second part: [AppShortcut]) -> [AppShortcut] { part }
    public static func buildArray(_ parts: [[AppShortcut]]) -> [AppShortcut] { parts.flatMap { $0 } }
}
