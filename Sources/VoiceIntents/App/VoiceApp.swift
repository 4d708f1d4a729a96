/// The one place where an app says who it is: its spoken name, its shortcuts, and how its
/// dependencies are made.
///
/// ```swift
/// @main
/// struct TravelTrackingApp: VoiceApp {
///     typealias Shortcuts = TravelTrackingAppShortcuts
///     static let name = "Travel Tracking"
///     static let alternativeNames = ["Travel Tracker"]
///
///     init() {
///         AppDependencyManager.shared.add { ModelData() }
///     }
/// }
/// ```
///
/// With `import VoiceIntentsCLI`, `@main` gives the app its command line (see that module). On
/// start-up the declaration is checked (``AppDescription/validate()``); errors stop the app with
/// a message that names the intent, phrase or case at fault.
public protocol VoiceApp {
    associatedtype Shortcuts: AppShortcutsProvider

    /// Registers dependencies. Called once at start-up.
    init()

    /// The name people say: "Travel Tracking". Phrases write it as `\(.applicationName)`.
    static var name: String { get }
    /// Other names people may say for the app.
    static var alternativeNames: [String] { get }
    /// Intents the app runs that no shortcut reaches (for example ones opened by other intents).
    static var additionalIntents: [any AppIntent.Type] { get }
    /// Whether people say the app's name in its phrases, as Apple requires (`true`, the
    /// default). A dedicated device people talk to without naming it (a smart home's voice
    /// assistant) says `false`, and a phrase without `\(.applicationName)` is then no warning.
    static var isAddressedByName: Bool { get }
}

extension VoiceApp {
    public static var alternativeNames: [String] { [] }
    public static var additionalIntents: [any AppIntent.Type] { [] }
    public static var isAddressedByName: Bool { true }

    /// The app's declaration, read anew on each access: keep the value when it is needed often.
    public static var appDescription: AppDescription { AppDescription(Self.self) }
}
