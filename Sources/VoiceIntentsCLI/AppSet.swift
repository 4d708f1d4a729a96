import VoiceIntents

/// The apps a command line serves: one for an app's own executable, several for `voice-intents`.
public protocol AppSet {
    /// The apps, the default first.
    static var apps: [AppContext] { get }
}

/// The app set of a single ``VoiceApp``.
public enum SingleApp<App: VoiceApp>: AppSet {
    public static var apps: [AppContext] { [AppContext(App.self)] }
}

extension AppSet {
    /// The app called `name` (its executable name), or the default one.
    static func app(_ name: String?) throws -> AppContext {
        let all = apps
        guard let name else { return all[0] }
        guard let found = all.first(where: { $0.executableName == name }) else {
            throw CommandFailure(
                "no app \"\(name)\"; there are: \(all.map(\.executableName).joined(separator: ", "))")
        }
        return found
    }
}
