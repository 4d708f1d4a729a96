// WWDC25 session 244, "Get to know App Intents".
//
// These declarations reproduce the API usage shown in that session, as a source-compatibility
// check: they are the session's code with `import VoiceIntents` instead of `import AppIntents`,
// reformatted onto lines. Only the import and the places marked `ADAPTED` differ. SwiftUI views
// are text `SnippetView`s (in Support.swift); the Predicate-based `EntityPropertyQuery`, the
// Transferable, IndexedEntity and AppIntentsPackage examples are Apple-only and left out.
//
// Where the session shows several versions of one type, the earlier versions sit in a caseless
// enum so that they can live in one module beside the final version.

import VoiceIntents

// MARK: - Navigation

// ADAPTED: namespace only; the session's first NavigateIntent, before it had a parameter.
enum NavigateWithoutParameter {
    struct NavigateIntent: AppIntent {
        static let title: LocalizedStringResource = "Navigate to Landmarks"
        static let supportedModes: IntentModes = .foreground

        @MainActor
        func perform() async throws -> some IntentResult {
            Navigator.shared.navigate(to: .landmarks)
            return .result()
        }
    }
}

enum NavigationOption: String, AppEnum {
    case landmarks
    case map
    case collections

    static let typeDisplayRepresentation: TypeDisplayRepresentation = "Navigation Option"

    static let caseDisplayRepresentations: [NavigationOption: DisplayRepresentation] = [
        .landmarks: "Landmarks",
        .map: "Map",
        .collections: "Collections",
    ]
}

// ADAPTED: namespace only; the session's second NavigateIntent, whose parameter has no title.
enum NavigateWithUntitledParameter {
    struct NavigateIntent: AppIntent {
        static let title: LocalizedStringResource = "Navigate to Section"
        static let supportedModes: IntentModes = .foreground

        @Parameter var navigationOption: NavigationOption

        @MainActor
        func perform() async throws -> some IntentResult {
            Navigator.shared.navigate(to: navigationOption)
            return .result()
        }
    }
}

// ADAPTED: namespace only; the session's NavigationOption again, with images in its
// caseDisplayRepresentations.
enum NavigationOptionWithImages {
    enum NavigationOption: String, AppEnum {
        case landmarks
        case map
        case collections

        static let typeDisplayRepresentation: TypeDisplayRepresentation = "Navigation Option"

        static let caseDisplayRepresentations = [
            NavigationOption.landmarks: DisplayRepresentation(
                title: "Landmarks", image: .init(systemName: "building.columns")),
            NavigationOption.map: DisplayRepresentation(title: "Map", image: .init(systemName: "map")),
            NavigationOption.collections: DisplayRepresentation(
                title: "Collections", image: .init(systemName: "book.closed")),
        ]
    }
}

struct NavigateIntent: AppIntent {
    static let title: LocalizedStringResource = "Navigate to Section"
    static let supportedModes: IntentModes = .foreground

    static var parameterSummary: some ParameterSummary {
        Summary("Navigate to \(\.$navigationOption)")
    }

    @Parameter(
        title: "Section",
        requestValueDialog: "Which section?"
    )
    var navigationOption: NavigationOption

    @MainActor
    func perform() async throws -> some IntentResult {
        Navigator.shared.navigate(to: navigationOption)
        return .result()
    }
}

// MARK: - App Shortcuts

struct TravelTrackingAppShortcuts: AppShortcutsProvider {
    static var appShortcuts: [AppShortcut] {
        AppShortcut(
            intent: NavigateIntent(),
            phrases: [
                "Navigate in \(.applicationName)",
                "Navigate to \(\.$navigationOption) in \(.applicationName)",
            ],
            shortTitle: "Navigate",
            systemImageName: "arrowshape.forward"
        )
    }
}

// MARK: - Entities and queries

struct LandmarkEntity: AppEntity {
    var id: Int { landmark.id }

    // ADAPTED: @ComputedProperty is a macro on Apple platforms
    var name: String { landmark.name }

    // ADAPTED: @ComputedProperty is a macro on Apple platforms
    var description: String { landmark.description }

    let landmark: Landmark

    static let typeDisplayRepresentation = TypeDisplayRepresentation(name: "Landmark")

    var displayRepresentation: DisplayRepresentation {
        DisplayRepresentation(title: "\(name)")
    }

    static let defaultQuery = LandmarkEntityQuery()
}

struct LandmarkEntityQuery: EntityQuery {
    @Dependency var modelData: ModelData

    func entities(for identifiers: [LandmarkEntity.ID]) async throws -> [LandmarkEntity] {
        modelData
            .landmarks(for: identifiers)
            .map(LandmarkEntity.init)
    }

    // ...

    func suggestedEntities() async throws -> [LandmarkEntity] {
        modelData.favoriteLandmarks().map(LandmarkEntity.init)
    }
}

// ADAPTED: a VoiceApp instead of the SwiftUI `App`, without `@main` (a test target has its own
// entry point); `Shortcuts` and `name` are what VoiceApp requires.
struct LandmarksApp: VoiceApp {
    typealias Shortcuts = TravelTrackingAppShortcuts
    static let name = "Travel Tracking"

    init() {
        AppDependencyManager.shared.add { ModelData() }
    }
}

extension LandmarkEntityQuery: EnumerableEntityQuery {
    func allEntities() async throws -> [LandmarkEntity] {
        // Return all entities
        modelData.landmarks.map(LandmarkEntity.init)
    }
}

extension LandmarkEntityQuery: EntityStringQuery {
    func entities(matching: String) async throws -> [LandmarkEntity] {
        modelData.landmarks.filter { $0.name.contains(matching) || $0.description.contains(matching) }
            .map(LandmarkEntity.init)
    }
}

// MARK: - Results with a snippet view

// ADAPTED: namespace only; wwdc25-275 shows a later ClosestLandmarkIntent (with a snippet intent)
// under the same name, in ExploreNewAdvances2025.swift.
enum ClosestLandmarkWithView {
    struct ClosestLandmarkIntent: AppIntent {
        static let title: LocalizedStringResource = "Find Closest Landmark"

        @Dependency var modelData: ModelData

        @MainActor
        func perform() async throws -> some ReturnsValue<LandmarkEntity> & ProvidesDialog & ShowsSnippetView {
            let landmark = try await modelData.findClosestLandmark()
            return .result(
                value: landmark,
                dialog: "The closest landmark to you is \(landmark.name)",
                view: ClosestLandmarkView(landmark: landmark)
            )
        }
    }
}
