// Runs the examples of WWDC25 session 244, "Get to know App Intents".

import Testing
import VoiceIntents
import VoiceIntentsTesting

@Suite("Get to know App Intents (WWDC25 244)")
struct GetToKnowAppIntents2025Tests {
    // MARK: NavigateIntent

    @Test func navigateWithTheSectionGiven() async {
        let world = Harness()
        let outcome = await world.run(
            NavigateIntent(), parameters: ["navigationOption": NavigationOption.map])

        #expect(outcome.status == .completed)
        #expect(outcome.intent == "NavigateIntent")
        #expect(outcome.title == "Navigate to Section")
        #expect(outcome.dialog == nil)
        #expect(outcome.parameters["navigationOption"] == "Map")
        #expect(world.conversation.questions.isEmpty)
        #expect(world.navigator.history == ["section map"])
    }

    @Test func navigateWithTheSectionGivenAsWords() async {
        let world = Harness()
        let outcome = await world.run(NavigateIntent(), parameters: ["navigationOption": "collections"])

        #expect(outcome.status == .completed)
        #expect(world.conversation.questions.isEmpty)
        #expect(world.navigator.history == ["section collections"])
    }

    @Test func navigateAsksForAMissingSection() async {
        let world = Harness([.text("map")])
        let outcome = await world.run(NavigateIntent())

        #expect(outcome.status == .completed)
        let questions = world.conversation.questions
        #expect(questions.map(\.kind) == [.value])
        #expect(world.conversation.prompts == ["Which section?"])
        #expect(questions.first?.parameter?.name == "navigationOption")
        #expect(questions.first?.options == ["Landmarks", "Map", "Collections"])
        #expect(questions.first?.intentTitle == "Navigate to Section")
        #expect(outcome.parameters["navigationOption"] == "Map")
        #expect(world.navigator.history == ["section map"])
        #expect(world.conversation.remainingReplies.isEmpty)
    }

    @Test func navigateAsksAgainAfterAnUnknownSection() async {
        let world = Harness([.text("the moon"), .text("landmarks")])
        let outcome = await world.run(NavigateIntent())

        #expect(outcome.status == .completed)
        #expect(world.conversation.questions.map(\.attempt) == [1, 2])
        #expect(
            world.conversation.prompts == [
                "Which section?", "Sorry, I don't know \"the moon\". Which section?",
            ])
        #expect(world.navigator.history == ["section landmarks"])
    }

    @Test func navigateCancelledAtThePrompt() async {
        let world = Harness([.cancel])
        let outcome = await world.run(NavigateIntent())

        #expect(outcome.status == .cancelled)
        #expect(outcome.errorMessage == nil)
        #expect(world.navigator.history.isEmpty)
    }

    @Test func navigateComesForwardWhenAScreenIsAttached() async {
        let withScreen = Harness()
        let forward = await withScreen.run(
            NavigateIntent(), parameters: ["navigationOption": "map"], hasScreen: true)
        #expect(forward.ranInForeground)

        let voiceOnly = Harness()
        let background = await voiceOnly.run(
            NavigateIntent(), parameters: ["navigationOption": "map"], hasScreen: false)
        #expect(!background.ranInForeground)
        #expect(background.status == .completed)
    }

    @Test func firstNavigateIntentOpensLandmarks() async {
        let world = Harness()
        let outcome = await world.run(NavigateWithoutParameter.NavigateIntent())

        #expect(outcome.status == .completed)
        #expect(outcome.title == "Navigate to Landmarks")
        #expect(world.navigator.history == ["section landmarks"])
        #expect(IntentDefinition(NavigateWithoutParameter.NavigateIntent.self).parameters.isEmpty)
    }

    @Test func untitledParameterTakesItsTitleFromThePropertyName() async {
        let world = Harness([.text("collections")])
        let outcome = await world.run(NavigateWithUntitledParameter.NavigateIntent())

        #expect(outcome.status == .completed)
        #expect(world.conversation.prompts == ["Which navigation option?"])
        #expect(world.navigator.history == ["section collections"])

        let parameter = IntentDefinition(NavigateWithUntitledParameter.NavigateIntent.self).parameters
        #expect(parameter.map(\.title) == ["Navigation Option"])
        #expect(parameter.map(\.prompt) == [nil])
    }

    // MARK: Parameter summary and definition

    @Test func parameterSummaryReadsBackTheSection() {
        let intent = NavigateIntent()
        #expect(intent.summaryText == "Navigate to section")
        intent.navigationOption = .collections
        #expect(intent.summaryText == "Navigate to Collections")
    }

    @Test func intentDefinitionListsTheParameter() throws {
        let definition = IntentDefinition(NavigateIntent.self)
        #expect(definition.identifier == "NavigateIntent")
        #expect(definition.title == "Navigate to Section")
        #expect(definition.supportedModes == .foreground)

        #expect(definition.parameters.count == 1)
        let parameter = try #require(definition.parameters.first)
        #expect(parameter.name == "navigationOption")
        #expect(parameter.title == "Section")
        #expect(parameter.prompt == "Which section?")
        #expect(parameter.valueType.kind == .enumeration)
        #expect(parameter.valueType.typeName == "NavigationOption")
        #expect(parameter.valueType.displayName == "Navigation Option")
        #expect(parameter.isRequired)
        #expect(
            parameter.description == #"navigationOption: NavigationOption "Section" prompt "Which section?""#)

        #expect(IntentDefinition.parameterName(for: \NavigateIntent.$navigationOption) == "navigationOption")
    }

    @Test func enumCasesHaveTheirDisplayRepresentations() {
        #expect(
            NavigationOption.allCases.map(\.displayRepresentation.title.defaultValue) == [
                "Landmarks", "Map", "Collections",
            ])
        #expect(NavigationOption.typeDisplayRepresentation.name.defaultValue == "Navigation Option")

        let withImages = NavigationOptionWithImages.NavigationOption.self
        #expect(
            withImages.allCases.map(\.displayRepresentation.title.defaultValue) == [
                "Landmarks", "Map", "Collections",
            ])
        #expect(
            withImages.allCases.map(\.displayRepresentation.image?.systemName) == [
                "building.columns", "map", "book.closed",
            ])
    }

    // MARK: App Shortcuts

    @Test func appShortcutPhrasesBecomeTemplates() throws {
        let shortcuts = TravelTrackingAppShortcuts.appShortcuts
        #expect(shortcuts.count == 1)
        let shortcut = try #require(shortcuts.first)
        #expect(
            shortcut.phrases.map(\.description) == [
                "Navigate in ${applicationName}",
                "Navigate to ${navigationOption} in ${applicationName}",
            ])
        #expect(shortcut.phrases.map(\.parameterNames) == [[], ["navigationOption"]])
        #expect(shortcut.shortTitle.defaultValue == "Navigate")
        #expect(shortcut.systemImageName == "arrowshape.forward")
        #expect(shortcut.intentType == NavigateIntent.self)
    }

    @Test func appDeclarationIsValid() {
        let app = LandmarksApp.appDescription
        #expect(app.name == "Travel Tracking")
        #expect(app.intents.map(\.identifier) == ["NavigateIntent"])
        #expect(app.validate().isEmpty)
    }

    @Test func appRegistersModelDataWithTheSharedManager() {
        // Only adds to `shared` (nothing removes from it), so this cannot race with other tests.
        _ = LandmarksApp()
        #expect(AppDependencyManager.shared.contains(ModelData.self))
    }

    @Test func updatingShortcutParametersIsAnnounced() async {
        let updates = AppShortcutParameterUpdates.updates()
        let before = AppShortcutParameterUpdates.generation

        TravelTrackingAppShortcuts.updateAppShortcutParameters()

        #expect(AppShortcutParameterUpdates.generation > before)
        var iterator = updates.makeAsyncIterator()
        #expect(await iterator.next() == "TravelTrackingAppShortcuts")
    }

    // MARK: LandmarkEntity and LandmarkEntityQuery

    @Test func landmarkEntityWrapsTheModel() {
        let landmark = LandmarkEntity(landmark: ModelData().landmarks[2])
        #expect(landmark.id == 3)
        #expect(landmark.name == "Mount Fuji")
        #expect(landmark.description == "An active volcano and the highest peak in Japan.")
        #expect(landmark.displayRepresentation.title.defaultValue == "Mount Fuji")
        #expect(LandmarkEntity.typeDisplayRepresentation.name.defaultValue == "Landmark")
    }

    @Test func queryFindsLandmarksByIdentifier() async throws {
        let world = Harness()
        let names = try await world.insideIntent {
            try await LandmarkEntityQuery().entities(for: [3, 1, 99]).map(\.name)
        }
        #expect(names == ["Mount Fuji", "Golden Gate Bridge"])
    }

    @Test func querySuggestsFavorites() async throws {
        let world = Harness()
        let before = try await world.insideIntent {
            try await LandmarkEntityQuery().suggestedEntities().map(\.name)
        }
        #expect(before == ["Golden Gate Bridge", "Mount Fuji"])

        world.modelData.addFavorite(LandmarkEntity(landmark: world.modelData.landmarks[4]))
        TravelTrackingAppShortcuts.updateAppShortcutParameters()

        let after = try await world.insideIntent {
            try await LandmarkEntityQuery().suggestedEntities().map(\.name)
        }
        #expect(after == ["Golden Gate Bridge", "Mount Fuji", "Niagara Falls"])
    }

    @Test func enumerableQueryListsAllLandmarks() async throws {
        let world = Harness()
        let names = try await world.insideIntent {
            try await LandmarkEntityQuery().allEntities().map(\.name)
        }
        #expect(
            names == [
                "Golden Gate Bridge", "Grand Canyon", "Mount Fuji", "Machu Picchu", "Niagara Falls",
            ])
    }

    @Test func stringQueryMatchesNamesAndDescriptions() async throws {
        let world = Harness()
        let byName = try await world.insideIntent {
            try await LandmarkEntityQuery().entities(matching: "Canyon").map(\.name)
        }
        #expect(byName == ["Grand Canyon"])

        let byDescription = try await world.insideIntent {
            try await LandmarkEntityQuery().entities(matching: "volcano").map(\.name)
        }
        #expect(byDescription == ["Mount Fuji"])
    }

    @Test func landmarkParameterIsResolvedThroughTheStringQuery() async {
        let world = Harness()
        let outcome = await world.run(
            CrowdStatusInForeground.GetCrowdStatusIntent(), parameters: ["landmark": "Niagara"])

        #expect(outcome.status == .completed)
        #expect(outcome.parameters["landmark"] == "Niagara Falls")
        #expect(world.conversation.questions.isEmpty)
    }

    @Test func landmarkSpokenInLowerCaseIsResolved() async {
        // Speech recognizers hand over lower-case words. "golden gate bridge" is a suggested
        // entity (a favorite), but the session's string query compares case-sensitively.
        let world = Harness()
        let outcome = await world.run(
            CrowdStatusInForeground.GetCrowdStatusIntent(),
            parameters: ["landmark": "golden gate bridge"])

        #expect(outcome.status == .completed)
        #expect(outcome.parameters["landmark"] == "Golden Gate Bridge")
        #expect(world.conversation.questions.isEmpty)
    }

    // MARK: ClosestLandmarkIntent with a snippet view

    @Test func closestLandmarkWithView() async throws {
        let world = Harness()
        let outcome = await world.run(ClosestLandmarkWithView.ClosestLandmarkIntent())

        #expect(outcome.status == .completed)
        #expect(outcome.dialog?.full.defaultValue == "The closest landmark to you is Golden Gate Bridge")
        #expect(
            outcome.dialog?.supporting.defaultValue == "The closest landmark to you is Golden Gate Bridge")
        #expect(outcome.snippetText == "Closest landmark: Golden Gate Bridge")
        #expect(outcome.valueText == "Golden Gate Bridge")
        let landmark = try #require(outcome.value as? LandmarkEntity)
        #expect(landmark.id == 1)
        #expect(world.conversation.questions.isEmpty)
    }

    @Test func closestLandmarkNeedsModelData() async {
        let runner = IntentRunner(
            conversation: ScriptedConversation(), dependencies: AppDependencyManager())
        let outcome = await runner.run(ClosestLandmarkWithView.ClosestLandmarkIntent())

        #expect(outcome.status == .failed)
        #expect(outcome.errorMessage == "Sorry, that isn't set up.")
        #expect(outcome.errorDetail?.contains("ModelData") == true)
    }
}
