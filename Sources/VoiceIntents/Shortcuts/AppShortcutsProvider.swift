import Synchronization

/// Declares an app's voice vocabulary: its shortcuts and the phrases that must never match.
///
/// ```swift
/// struct TravelTrackingAppShortcuts: AppShortcutsProvider {
///     static var appShortcuts: [AppShortcut] {
///         AppShortcut(
///             intent: NavigateIntent(),
///             phrases: ["Navigate to \(\.$navigationOption) in \(.applicationName)"],
///             shortTitle: "Navigate", systemImageName: "arrowshape.forward")
///     }
/// }
/// ```
public protocol AppShortcutsProvider {
    /// The shortcuts, in order of preference.
    @AppShortcutsBuilder static var appShortcuts: [AppShortcut] { get }
    /// Phrases that must never run an intent.
    static var negativePhrases: NegativeAppShortcutPhrases { get }
}

extension AppShortcutsProvider {
    public static var negativePhrases: NegativeAppShortcutPhrases { [] }

    /// Tells the runtime that the entities behind phrase parameters changed (suggested entities,
    /// enum titles), so that grammars and matchers are rebuilt.
    ///
    /// ```swift
    /// modelData.addFavorite(landmark)
    /// TravelTrackingAppShortcuts.updateAppShortcutParameters()
    /// ```
    public static func updateAppShortcutParameters() {
        AppShortcutParameterUpdates.post(String(describing: Self.self))
    }
}

/// Where the runtime learns that an app called `updateAppShortcutParameters()`.
///
/// ```swift
/// for await provider in AppShortcutParameterUpdates.updates() { rebuildGrammar() }
/// ```
public enum AppShortcutParameterUpdates {
    private static let state = Mutex<(generation: Int, listeners: [Int: AsyncStream<String>.Continuation])>(
        (0, [:]))

    /// How many updates were posted so far; grammars built at an older generation are stale.
    public static var generation: Int { state.withLock { $0.generation } }

    /// A stream of provider names, one each time a provider posts an update.
    public static func updates() -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(8))
        let id = state.withLock { state in
            let id = (state.listeners.keys.max() ?? 0) + 1
            state.listeners[id] = continuation
            return id
        }
        continuation.onTermination = { _ in
            _ = state.withLock { $0.listeners.removeValue(forKey: id) }
        }
        return stream
    }

    static func post(_ provider: String) {
        let listeners = state.withLock { state in
            state.generation += 1
            return Array(state.listeners.values)
        }
        for listener in listeners { listener.yield(provider) }
    }
}
