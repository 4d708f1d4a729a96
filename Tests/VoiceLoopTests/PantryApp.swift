import Synchronization
import VoiceIntents

/// What the pantry holds: the names the Pantry app's phrases offer, which a test changes while a
/// loop runs (its own, so that no sample app's generated grammar changes under other tests).
enum PantryShelf {
    static let items = Mutex<[String]>(["rice", "tea"])
}

struct PantryItems: DynamicOptionsProvider {
    func results() async throws -> [String] { PantryShelf.items.withLock { $0 } }
}

struct TakeFromPantryIntent: AppIntent {
    static let title: LocalizedStringResource = "Take from the Pantry"
    @Parameter(title: "Item", optionsProvider: PantryItems()) var item: String
    init() {}
    func perform() async throws -> some IntentResult & ProvidesDialog {
        .result(dialog: "Taking \(item) from the pantry.")
    }
}

struct PantryShortcuts: AppShortcutsProvider {
    static var appShortcuts: [AppShortcut] {
        AppShortcut(
            intent: TakeFromPantryIntent(), phrases: ["Take \(\.$item) from the pantry"], shortTitle: "Take",
            systemImageName: "cart")
    }
}

/// An app whose one phrase offers what the pantry holds.
struct PantryApp: VoiceApp {
    typealias Shortcuts = PantryShortcuts
    static let name = "Pantry"
    static let isAddressedByName = false
    init() {}
}
