// Runs the examples of WWDC25 session 275, "Explore new advances in App Intents".

import Testing
import VoiceIntents
import VoiceIntentsTesting

@Suite("Explore new advances in App Intents (WWDC25 275)")
struct ExploreNewAdvances2025Tests {
    // MARK: ClosestLandmarkIntent and LandmarkSnippetIntent

    @Test func closestLandmarkHasFullAndSupportingDialog() async throws {
        let world = Harness()
        let outcome = await world.run(ClosestLandmarkIntent())

        #expect(outcome.status == .completed)
        #expect(outcome.dialog?.full.defaultValue == "The closest landmark is Golden Gate Bridge.")
        #expect(outcome.dialog?.supporting.defaultValue == "Golden Gate Bridge is located in North America.")
        #expect(outcome.valueText == "Golden Gate Bridge")
        #expect((outcome.value as? LandmarkEntity)?.id == 1)
        #expect(world.conversation.questions.isEmpty)

        // The snippet comes from running LandmarkSnippetIntent.
        #expect(outcome.snippetText == "Golden Gate Bridge\nNorth America\nFavorite: yes")

        // Voice alone says the full dialog; beside the snippet, the supporting one.
        #expect(outcome.spokenText(voiceOnly: true) == "The closest landmark is Golden Gate Bridge.")
        #expect(outcome.spokenText(voiceOnly: false) == "Golden Gate Bridge is located in North America.")
    }

    @Test func landmarkSnippetShowsWhetherTheLandmarkIsAFavorite() async {
        let world = Harness()
        let canyon = LandmarkEntity(landmark: world.modelData.landmarks[1])

        let before = await world.run(LandmarkSnippetIntent(landmark: canyon))
        #expect(before.status == .completed)
        #expect(before.snippetText == "Grand Canyon\nNorth America\nFavorite: no")

        world.modelData.addFavorite(canyon)
        let after = await world.run(LandmarkSnippetIntent(landmark: canyon))
        #expect(after.snippetText == "Grand Canyon\nNorth America\nFavorite: yes")
    }

    @Test func landmarkSnippetIntentDeclaresItsParameter() {
        let parameters = IntentDefinition(LandmarkSnippetIntent.self).parameters
        #expect(parameters.map(\.name) == ["landmark"])
        #expect(parameters.map(\.title) == ["Landmark"])
        #expect(parameters.map(\.valueType.kind) == [.entity])
    }

    // MARK: DeleteCollectionIntent: requestChoice

    @Test func deleteCollectionOffersArchiveOrDelete() async {
        let world = Harness([.text("archive")])
        let outcome = await world.run(DeleteCollectionIntent(), parameters: ["collection": "Road Trip"])

        #expect(outcome.status == .completed)
        let questions = world.conversation.questions
        #expect(questions.map(\.kind) == [.choice])
        #expect(world.conversation.prompts == ["Do you want to archive or delete Road Trip?"])
        #expect(questions.first?.options == ["Cancel", "Archive", "Delete"])
        #expect(questions.first?.choices.map(\.style) == [.cancel, .default, .destructive])
        #expect(questions.first?.snippet == "Road Trip: 3 landmarks")
        #expect(questions.first?.isDestructive == true)
    }

    @Test func deleteCollectionArchives() async {
        let world = Harness([.text("Archive")])
        let outcome = await world.run(DeleteCollectionIntent(), parameters: ["collection": "Road Trip"])

        #expect(outcome.status == .completed)
        #expect(outcome.valueText == "Road Trip")
        #expect((outcome.value as? CollectionEntity)?.isArchived == true)
        #expect(world.modelData.collections.map(\.name) == ["Bridges"])
        #expect(world.modelData.archivedCollections.map(\.name) == ["Road Trip"])
    }

    @Test func deleteCollectionDeletes() async {
        let world = Harness([.text("delete")])
        let outcome = await world.run(DeleteCollectionIntent(), parameters: ["collection": "Road Trip"])

        #expect(outcome.status == .completed)
        #expect(world.modelData.collections.map(\.name) == ["Bridges"])
        #expect(world.modelData.archivedCollections.isEmpty)
    }

    @Test func deleteCollectionReturnsNoValueAfterDeleting() async {
        let world = Harness([.text("delete")])
        let outcome = await world.run(DeleteCollectionIntent(), parameters: ["collection": "Road Trip"])

        // `perform()` returns `.result(value: nil)` for its `ReturnsValue<CollectionEntity?>`: the
        // outcome should carry no value and nothing to say about it.
        #expect(outcome.status == .completed)
        #expect(outcome.value == nil)
        #expect(outcome.valueText == nil)
    }

    @Test func deleteCollectionCanBeUndone() async throws {
        let world = Harness([.text("delete")])
        let outcome = await world.run(DeleteCollectionIntent(), parameters: ["collection": "Road Trip"])
        let undo = try #require(outcome.undoAction)
        #expect(undo.name == "Delete Road Trip")
        #expect(world.modelData.collections.map(\.name) == ["Bridges"])
        undo.undo()
        #expect(Set(world.modelData.collections.map(\.name)) == ["Bridges", "Road Trip"])

        let archived = await Harness([.text("archive")]).run(
            DeleteCollectionIntent(), parameters: ["collection": "Road Trip"])
        #expect(archived.undoAction == nil)
    }

    @Test func deleteCollectionPickedByPosition() async {
        let world = Harness([.option(2)])
        let outcome = await world.run(DeleteCollectionIntent(), parameters: ["collection": "Bridges"])

        #expect(outcome.status == .completed)
        #expect(world.modelData.collections.map(\.name) == ["Road Trip"])
    }

    @Test(
        "Picking the cancel option cancels",
        arguments: [ConversationReply.option(0), .text("Cancel"), .text("the first one")])
    func deleteCollectionCancelled(reply: ConversationReply) async {
        let world = Harness([reply])
        let outcome = await world.run(DeleteCollectionIntent(), parameters: ["collection": "Road Trip"])

        #expect(outcome.status == .cancelled)
        #expect(outcome.errorMessage == nil)
        #expect(world.conversation.questions.map(\.kind) == [.choice])
        #expect(world.modelData.collections.map(\.name) == ["Bridges", "Road Trip"])
        #expect(world.modelData.archivedCollections.isEmpty)
    }

    @Test func deleteCollectionAsksWhichCollection() async {
        let world = Harness([.text("bridges"), .text("archive")])
        let outcome = await world.run(DeleteCollectionIntent())

        #expect(outcome.status == .completed)
        #expect(world.conversation.questions.map(\.kind) == [.value, .choice])
        #expect(world.conversation.prompts.first == "Which collection?")
        #expect(world.conversation.questions.first?.options == ["Bridges", "Road Trip"])
        #expect(world.modelData.archivedCollections.map(\.name) == ["Bridges"])
    }

    // MARK: GetCrowdStatusIntent: supported modes

    @Test func crowdStatusInTheForegroundWithAScreen() async {
        let world = Harness()
        let outcome = await world.run(
            CrowdStatusInForeground.GetCrowdStatusIntent(),
            parameters: ["landmark": "Golden Gate Bridge"], hasScreen: true)

        // [.background, .foreground] with a screen: currentMode == .foreground.
        #expect(outcome.status == .completed)
        #expect(outcome.ranInForeground)
        #expect(world.navigator.history == ["crowd status Golden Gate Bridge"])
        #expect(outcome.valueText == "40")
        #expect(outcome.value as? Int == 40)
        #expect(outcome.dialog?.full.defaultValue == "Golden Gate Bridge is 40% full.")
        #expect(world.conversation.questions.isEmpty)
    }

    @Test func crowdStatusInTheBackgroundWithoutAScreen() async {
        let world = Harness()
        let outcome = await world.run(
            CrowdStatusInForeground.GetCrowdStatusIntent(),
            parameters: ["landmark": "Golden Gate Bridge"], hasScreen: false)

        #expect(outcome.status == .completed)
        #expect(!outcome.ranInForeground)
        #expect(world.navigator.history.isEmpty)
        #expect(outcome.value as? Int == 40)
    }

    @Test func crowdStatusContinuesInTheForegroundWithAScreen() async {
        let world = Harness()
        let outcome = await world.run(
            CrowdStatusContinueInForeground.GetCrowdStatusIntent(),
            parameters: ["landmark": "Niagara Falls"], hasScreen: true)

        // Starts in the background, canContinueInForeground is true, and
        // continueInForeground(alwaysConfirm: false) brings it forward without asking.
        #expect(outcome.status == .completed)
        #expect(outcome.ranInForeground)
        #expect(world.conversation.questions.isEmpty)
        #expect(world.navigator.history == ["crowd status Niagara Falls"])
        #expect(outcome.dialog?.full.defaultValue == "Niagara Falls is 85% full.")
    }

    @Test func crowdStatusCannotContinueInTheForegroundWithoutAScreen() async {
        let world = Harness()
        let outcome = await world.run(
            CrowdStatusContinueInForeground.GetCrowdStatusIntent(),
            parameters: ["landmark": "Niagara Falls"], hasScreen: false)

        #expect(outcome.status == .completed)
        #expect(!outcome.ranInForeground)
        #expect(world.navigator.history.isEmpty)
        #expect(outcome.value as? Int == 85)
    }

    @Test func crowdStatusExitsEarlyForAClosedLandmark() async {
        let world = Harness()
        let outcome = await world.run(
            CrowdStatusContinueInForeground.GetCrowdStatusIntent(),
            parameters: ["landmark": "Machu Picchu"], hasScreen: true)

        #expect(outcome.status == .completed)
        #expect(outcome.dialog?.full.defaultValue == "Machu Picchu is closed.")
        #expect(outcome.value as? Int == 0)
        #expect(!outcome.ranInForeground)
        #expect(world.navigator.history.isEmpty)
    }

    @Test func crowdStatusAsksWhichLandmark() async {
        let world = Harness([.text("Mount Fuji")])
        let outcome = await world.run(CrowdStatusContinueInForeground.GetCrowdStatusIntent())

        #expect(outcome.status == .completed)
        #expect(world.conversation.prompts == ["Which landmark?"])
        // The suggested entities (the favorites) are the names a recognizer can expect.
        #expect(world.conversation.questions.first?.options == ["Golden Gate Bridge", "Mount Fuji"])
        #expect(outcome.value as? Int == 55)
    }

    @Test func crowdStatusModesAreDeclared() {
        let immediate = IntentDefinition(CrowdStatusInForeground.GetCrowdStatusIntent.self).supportedModes
        #expect(immediate == [.background, .foreground])

        let dynamic = IntentDefinition(CrowdStatusContinueInForeground.GetCrowdStatusIntent.self)
            .supportedModes
        #expect(dynamic == [.background, .foreground(.dynamic)])
        #expect(dynamic.includesForeground)
        #expect(!dynamic.contains(.foreground))
    }

    @Test func systemContextOutsideARunIsTheBackground() {
        let intent = CrowdStatusContinueInForeground.GetCrowdStatusIntent()
        #expect(intent.systemContext.currentMode == .background)
        #expect(!intent.systemContext.currentMode.canContinueInForeground)
    }
}
