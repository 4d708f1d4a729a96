/// One thing an app can do when asked: "navigate to the map", "add a book".
///
/// ```swift
/// struct NavigateIntent: AppIntent {
///     static let title: LocalizedStringResource = "Navigate to Section"
///
///     @Parameter(title: "Section", requestValueDialog: "Which section?")
///     var navigationOption: NavigationOption
///
///     func perform() async throws -> some IntentResult & ProvidesDialog {
///         .result(dialog: "Opening \(navigationOption).")
///     }
/// }
/// ```
///
/// Run intents with ``IntentRunner``: it fills parameters, asks for missing ones, runs
/// ``perform()`` and routes the questions `perform()` asks to a ``Conversation``.
public protocol AppIntent: Sendable {
    associatedtype PerformResult: IntentResult
    associatedtype SummaryContent: ParameterSummary

    /// Creates the intent with no parameter values.
    init()

    /// The intent's name: "Navigate to Section".
    static var title: LocalizedStringResource { get }
    /// A longer description for help and listings.
    static var description: IntentDescription? { get }
    /// Whether running the intent brings the app forward (kept for source compatibility;
    /// prefer ``supportedModes``).
    static var openAppWhenRun: Bool { get }
    /// Where the intent may run: in the background (voice only), or brought forward to a screen.
    static var supportedModes: IntentModes { get }
    /// Whether phrases may reach the intent. `false` keeps it out of matching (it can still be
    /// run by code or opened by another intent).
    static var isDiscoverable: Bool { get }
    /// A stable identifier; the type name by default. Two intents of an app may not share one.
    static var persistentIdentifier: String { get }
    /// Who may run the intent: ``IntentAuthenticationPolicy/alwaysAllowed`` by default. By voice,
    /// an intent that requires authentication is confirmed out loud before it runs.
    static var authenticationPolicy: IntentAuthenticationPolicy { get }
    /// A sentence that reads back a filled-in command: `Summary("Open \(\.$shelf)")`.
    @ParameterSummaryBuilder<Self> static var parameterSummary: SummaryContent { get }

    /// Does the work and describes the outcome.
    func perform() async throws -> PerformResult
}

extension AppIntent {
    public static var description: IntentDescription? { nil }
    public static var openAppWhenRun: Bool { false }
    public static var supportedModes: IntentModes { openAppWhenRun ? .foreground : .background }
    public static var isDiscoverable: Bool { true }
    public static var persistentIdentifier: String { String(describing: Self.self) }
    public static var authenticationPolicy: IntentAuthenticationPolicy { .alwaysAllowed }
    public static var parameterSummary: DefaultParameterSummary<Self> { DefaultParameterSummary() }

    /// The choice option type, so that intents can write `Option(title:style:)`.
    public typealias Option = IntentChoiceOption
}

/// An intent that opens one entity or enum value, its ``target``.
///
/// ```swift
/// struct OpenLandmarkIntent: OpenIntent {
///     static let title: LocalizedStringResource = "Open Landmark"
///     @Parameter(title: "Landmark", requestValueDialog: "Which landmark?")
///     var target: LandmarkEntity
/// }
/// ```
public protocol OpenIntent: AppIntent {
    associatedtype Value: _IntentValue
    /// What to open.
    var target: Value { get set }
}

extension OpenIntent {
    /// Opens ``target`` by bringing the app forward; there is nothing more to do by default.
    public func perform() async throws -> some IntentResult {
        .result()
    }

    public static var supportedModes: IntentModes { .foreground }
}

/// A longer description of an intent.
public struct IntentDescription: Sendable, Hashable, ExpressibleByStringInterpolation {
    public let descriptionText: LocalizedStringResource
    public let categoryName: LocalizedStringResource?
    public let searchKeywords: [LocalizedStringResource]

    /// Creates a description.
    ///
    /// - Parameters:
    ///   - descriptionText: What the intent does.
    ///   - categoryName: A group for listings.
    ///   - searchKeywords: Words that find it in listings.
    public init(
        _ descriptionText: LocalizedStringResource, categoryName: LocalizedStringResource? = nil,
        searchKeywords: [LocalizedStringResource] = []
    ) {
        self.descriptionText = descriptionText
        self.categoryName = categoryName
        self.searchKeywords = searchKeywords
    }

    public init(stringLiteral value: String) {
        self.init(LocalizedStringResource(stringLiteral: value))
    }

    public init(stringInterpolation: SpokenStringInterpolation) {
        self.init(LocalizedStringResource(stringInterpolation: stringInterpolation))
    }
}
