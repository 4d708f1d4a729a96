import VoiceIntents

/// The phrases of the Library sample.
public struct LibraryAppShortcuts: AppShortcutsProvider {
    public static var appShortcuts: [AppShortcut] {
        AppShortcut(
            intent: OpenShelf(),
            phrases: [
                "Open \(\.$shelf) in \(.applicationName)",
                "Show my \(\.$shelf) shelf in \(.applicationName)",
                "What's on my \(\.$shelf) shelf in \(.applicationName)",
            ],
            shortTitle: "Open Shelf", systemImageName: "books.vertical")
        AppShortcut(
            intent: OpenBook(),
            phrases: [
                "Open the book \(\.$book) in \(.applicationName)",
                "Read \(\.$book) in \(.applicationName)",
            ],
            shortTitle: "Open Book", systemImageName: "book")
        AppShortcut(
            intent: AddBook(),
            phrases: [
                "Add a book to \(.applicationName)",
                "Add \(\.$title) to \(.applicationName)",
            ],
            shortTitle: "Add Book", systemImageName: "plus")
        AppShortcut(
            intent: BuyBook(),
            phrases: [
                "Buy a book in \(.applicationName)",
                "Buy \(\.$book) in \(.applicationName)",
                "Order \(\.$book) from \(.applicationName)",
            ],
            shortTitle: "Buy Book", systemImageName: "cart")
    }
}

/// The Library sample: shelves and books by voice.
public struct LibraryApp: VoiceApp {
    public typealias Shortcuts = LibraryAppShortcuts

    public static let name = "Library"
    public static let alternativeNames = ["My Library", "Book Library"]

    /// Registers the library model with the shared dependency manager.
    public init() {
        Self.registerDependencies(in: .shared)
    }

    /// Registers the library model with `manager`; tests pass a manager of their own.
    public static func registerDependencies(in manager: AppDependencyManager) {
        manager.add { LibraryModel() }
    }
}
