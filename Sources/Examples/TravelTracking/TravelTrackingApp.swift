import VoiceIntents

/// The phrases of the TravelTracking sample.
public struct TravelTrackingAppShortcuts: AppShortcutsProvider {
    public static var appShortcuts: [AppShortcut] {
        AppShortcut(
            intent: NavigateIntent(),
            phrases: [
                "Navigate in \(.applicationName)",
                "Navigate to \(\.$navigationOption) in \(.applicationName)",
                "Open \(\.$navigationOption) in \(.applicationName)",
                "Show \(\.$navigationOption) in \(.applicationName)",
            ],
            shortTitle: "Navigate", systemImageName: "arrowshape.forward")
        AppShortcut(
            intent: ClosestLandmarkIntent(),
            phrases: [
                "Find the closest landmark with \(.applicationName)",
                "What is the closest landmark in \(.applicationName)",
                "\(.applicationName) closest landmark",
            ],
            shortTitle: "Closest Landmark", systemImageName: "location")
        AppShortcut(
            intent: GetCrowdStatusIntent(),
            phrases: [
                "How busy is \(\.$landmark) in \(.applicationName)",
                "Get the crowd status in \(.applicationName)",
                "Crowd status of \(\.$landmark) in \(.applicationName)",
            ],
            shortTitle: "Crowd Status", systemImageName: "person.3")
        AppShortcut(
            intent: FindTicketsIntent(),
            phrases: [
                "Find tickets with \(.applicationName)",
                "Find tickets for \(\.$landmark) with \(.applicationName)",
                "Buy tickets for \(\.$landmark) in \(.applicationName)",
            ],
            shortTitle: "Find Tickets", systemImageName: "ticket")
        AppShortcut(
            intent: UpdateFavoritesIntent(),
            phrases: [
                "Add \(\.$landmark) to my favorites in \(.applicationName)",
                "Favorite \(\.$landmark) in \(.applicationName)",
            ],
            shortTitle: "Add Favorite", systemImageName: "star")
        AppShortcut(
            intent: OpenLandmarkIntent(),
            phrases: [
                "Open \(\.$target) in \(.applicationName)",
                "Show me \(\.$target) in \(.applicationName)",
            ],
            shortTitle: "Open Landmark", systemImageName: "building.columns")
        AppShortcut(
            intent: DeleteCollectionIntent(),
            phrases: [
                "Delete a collection in \(.applicationName)",
                "Delete \(\.$collection) in \(.applicationName)",
            ],
            shortTitle: "Delete Collection", systemImageName: "trash")
    }

    public static var negativePhrases: NegativeAppShortcutPhrases {
        NegativeAppShortcutPhrases {
            "Don't navigate in \(.applicationName)"
            "Stop tracking my travel"
        }
    }
}

/// The TravelTracking sample: landmarks, crowds, tickets and collections by voice.
public struct TravelTrackingApp: VoiceApp {
    public typealias Shortcuts = TravelTrackingAppShortcuts

    public static let name = "Travel Tracking"
    public static let alternativeNames = ["Travel Tracker"]

    /// Registers the model data with the shared dependency manager.
    public init() {
        Self.registerDependencies(in: .shared)
    }

    /// Registers the model data with `manager`; tests pass a manager of their own.
    public static func registerDependencies(in manager: AppDependencyManager) {
        manager.add { ModelData() }
    }
}
