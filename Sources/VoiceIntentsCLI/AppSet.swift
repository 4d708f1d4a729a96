import ArgumentParser
import Foundation
import Synchronization
import VoiceIntents

/// The apps a command line serves: one for an app's own executable, several for `voice-intents`.
public protocol AppSet {
    /// The apps, the default first.
    static var apps: [AppContext] { get }
}

/// The app set of a single ``VoiceApp``, named after the executable it runs as.
public enum SingleApp<App: VoiceApp>: AppSet {
    public static var apps: [AppContext] {
        [AppContext(App.self, executableName: ProcessInfo.processInfo.processName)]
    }
}

extension AppSet {
    /// The apps' executable names, worked out once per process: making the apps reads every
    /// app's declaration, and the argument parser asks while it builds each command's options,
    /// many times over a parse.
    static var appNames: [String] {
        AppNames.names.withLock { known in
            let key = ObjectIdentifier(Self.self)
            if let names = known[key] { return names }
            let names = apps.map(\.executableName)
            known[key] = names
            return names
        }
    }

    /// Whether the set has more than one app.
    static var hasSeveralApps: Bool { appNames.count > 1 }

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

/// The `--app` option every command shares: which app of the set it works on. Hidden when the
/// set has one app (an app's own executable).
struct AppSelection<Apps: AppSet>: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The app (its executable name).", visibility: Apps.hasSeveralApps ? .default : .hidden))
    var app: String?

    /// The app chosen, or the default one.
    func context() throws -> AppContext {
        try Apps.app(app)
    }

    /// The app chosen, or every app when none was.
    func contexts() throws -> [AppContext] {
        app == nil ? Apps.apps : [try Apps.app(app)]
    }
}

/// The names of each set's apps, once known (``AppSet/appNames``).
private enum AppNames {
    static let names = Mutex<[ObjectIdentifier: [String]]>([:])
}
