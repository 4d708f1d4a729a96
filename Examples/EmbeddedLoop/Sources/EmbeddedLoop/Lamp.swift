import VoiceIntents

// The app the loop runs: one lamp, switched by voice ("turn on the living room lamp").

enum LampState: String, AppEnum {
    case on, off
    static let typeDisplayRepresentation: TypeDisplayRepresentation = "State"
    static let caseDisplayRepresentations: [LampState: DisplayRepresentation] = [.on: "On", .off: "Off"]
}

struct SwitchLampIntent: AppIntent {
    static let title: LocalizedStringResource = "Switch the Living Room Lamp"
    @Parameter(title: "State") var state: LampState

    func perform() async throws -> some IntentResult & ProvidesDialog {
        .result(dialog: "The living room lamp is \(state.rawValue).")
    }
}

struct LampShortcuts: AppShortcutsProvider {
    static var appShortcuts: [AppShortcut] {
        AppShortcut(
            intent: SwitchLampIntent(),
            phrases: [
                "Turn \(\.$state) the living room lamp", "Turn \(\.$state) living room lamp",
                "Turn the living room lamp \(\.$state)", "Turn living room lamp \(\.$state)",
            ],
            shortTitle: "Lamp", systemImageName: "lightbulb")
    }
}

struct LampApp: VoiceApp {
    typealias Shortcuts = LampShortcuts
    static let name = "Lamp"
    // A device of its own: commands need not name the app.
    static let isAddressedByName = false
}
