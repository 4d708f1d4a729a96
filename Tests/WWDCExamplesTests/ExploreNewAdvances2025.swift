// WWDC25 session 275, "Explore new advances in App Intents".
//
// These declarations reproduce the API usage shown in that session, as a source-compatibility
// check: they are the session's code with `import VoiceIntents` instead of `import AppIntents`,
// reformatted onto lines. Only the import and the places marked `ADAPTED` differ. SwiftUI views
// are text `SnippetView`s (in Support.swift). Visual intelligence, Transferable, Spotlight
// indexing, undo registration, scene handling, @DeferredProperty and AppIntentsPackage examples
// are Apple-only and left out.
//
// The session's slides leave out members that its code uses (titles, the `landmark` and
// `collection` parameters, the dependencies); they are filled in below each `// ...` or marked
// "not on the slide".

import VoiceIntents

// MARK: - Interactive snippets

struct ClosestLandmarkIntent: AppIntent {
    static let title: LocalizedStringResource = "Find Closest Landmark"

    @Dependency var modelData: ModelData

    func perform() async throws -> some ReturnsValue<LandmarkEntity> & ShowsSnippetIntent & ProvidesDialog {
        let landmark = await self.findClosestLandmark()
        return .result(
            value: landmark,
            dialog: IntentDialog(
                full: "The closest landmark is \(landmark.name).",
                supporting: "\(landmark.name) is located in \(landmark.continent)."
            ),
            snippetIntent: LandmarkSnippetIntent(landmark: landmark)
        )
    }
}

struct LandmarkSnippetIntent: SnippetIntent {
    static let title: LocalizedStringResource = "Landmark Snippet"

    @Parameter var landmark: LandmarkEntity

    @Dependency var modelData: ModelData

    // ADAPTED: the session calls the memberwise `LandmarkSnippetIntent(landmark:)`, which VoiceIntents
    // cannot synthesize yet (IntentParameter has no `init(wrappedValue:)`); written out here.
    init() {}

    init(landmark: LandmarkEntity) {
        self.landmark = landmark
    }

    func perform() async throws -> some IntentResult & ShowsSnippetView {
        let isFavorite = await modelData.isFavorite(landmark)
        return .result(
            view: LandmarkView(landmark: landmark, isFavorite: isFavorite)
        )
    }
}

extension LandmarkEntity {
    // ADAPTED: the session declares `continent` as `@Property(customIndexingKey: …)` on an
    // IndexedEntity (Spotlight indexing, Apple-only); here it is computed from the landmark, like
    // `name` and `description` in wwdc25-244.
    var continent: String { landmark.continent }
}

// MARK: - Choices

struct DeleteCollectionIntent: UndoableIntent {
    // ...
    static let title: LocalizedStringResource = "Delete Collection"

    @Parameter(title: "Collection")
    var collection: CollectionEntity

    @Dependency var modelData: ModelData

    func perform() async throws -> some IntentResult & ReturnsValue<CollectionEntity?> {
        let archive = Option(title: "Archive", style: .default)
        let delete = Option(title: "Delete", style: .destructive)

        let resultChoice = try await requestChoice(
            between: [.cancel, archive, delete],
            dialog: "Do you want to archive or delete \(collection.name)?",
            view: collectionSnippetView(collection)
        )

        let remaining: CollectionEntity?
        switch resultChoice {
        case archive:
            // Archive collection...
            remaining = modelData.archive(collection)
        case delete:
            // Delete collection...
            let deleted = modelData.delete(collection)
            // The session's first DeleteCollectionIntent registers its undo like this.
            await undoManager?.registerUndo(withTarget: modelData) { modelData in
                // Restore collection...
                modelData.restore(deleted)
            }
            await undoManager?.setActionName("Delete \(collection.name)")
            remaining = nil
        default:
            // Do nothing...
            remaining = collection
        }
        return .result(value: remaining)
    }
}

// MARK: - Supported modes

// ADAPTED: namespace only; the session shows two versions of GetCrowdStatusIntent.
enum CrowdStatusInForeground {
    struct GetCrowdStatusIntent: AppIntent {
        // Not on the slide: the title, the landmark parameter and the dependencies.
        static let title: LocalizedStringResource = "Get Crowd Status"

        @Parameter(title: "Landmark")
        var landmark: LandmarkEntity

        @Dependency var modelData: ModelData
        @Dependency var navigator: Navigator

        static let supportedModes: IntentModes = [.background, .foreground]

        func perform() async throws -> some ReturnsValue<Int> & ProvidesDialog {
            if systemContext.currentMode == .foreground {
                await navigator.navigateToCrowdStatus(landmark)
            }

            // Retrieve status and return dialog...
            let status = await modelData.crowdStatus(of: landmark)
            return .result(value: status, dialog: "\(landmark.name) is \(status)% full.")
        }
    }
}

// ADAPTED: namespace only; the session shows two versions of GetCrowdStatusIntent.
enum CrowdStatusContinueInForeground {
    struct GetCrowdStatusIntent: AppIntent {
        // Not on the slide: the title, the landmark parameter and the dependencies.
        static let title: LocalizedStringResource = "Get Crowd Status"

        @Parameter(title: "Landmark")
        var landmark: LandmarkEntity

        @Dependency var modelData: ModelData
        @Dependency var navigator: Navigator

        static let supportedModes: IntentModes = [.background, .foreground(.dynamic)]

        func perform() async throws -> some ReturnsValue<Int> & ProvidesDialog {
            guard await modelData.isOpen(landmark) else {
                // Exit early...
                return .result(value: 0, dialog: "\(landmark.name) is closed.")
            }

            if systemContext.currentMode.canContinueInForeground {
                do {
                    try await continueInForeground(alwaysConfirm: false)
                    await navigator.navigateToCrowdStatus(landmark)
                } catch {
                    // Open app denied.
                }
            }

            // Retrieve status and return dialog...
            let status = await modelData.crowdStatus(of: landmark)
            return .result(value: status, dialog: "\(landmark.name) is \(status)% full.")
        }
    }
}
