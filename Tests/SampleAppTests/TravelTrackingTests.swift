import Testing
import TravelTracking
import VoiceIntents
import VoiceIntentsTesting

/// The TravelTracking sample's intents, through scripted conversations.
@Suite("TravelTracking sample")
struct TravelTrackingTests {
    let dependencies = AppDependencyManager()
    var model: ModelData { dependencies.resolve(ModelData.self)! }

    init() {
        TravelTrackingApp.registerDependencies(in: dependencies)
    }

    func run(
        _ intent: any AppIntent.Type, _ parameters: [String: any Sendable] = [:],
        replies: [ConversationReply] = [], hasScreen: Bool = false
    ) async -> (IntentOutcome, ScriptedConversation) {
        let conversation = ScriptedConversation(replies)
        let runner = IntentRunner(
            conversation: conversation, dependencies: dependencies, hasScreen: hasScreen)
        return (await runner.run(intent, parameters: parameters), conversation)
    }

    @Test func declarationIsValid() throws {
        let app = AppDescription(TravelTrackingApp.self)
        #expect(try app.validated().isEmpty)
        #expect(app.spokenNames == ["Travel Tracking", "Travel Tracker"])
        #expect(app.intents.count == 7)
        #expect(model.landmarks.count >= 25)
    }

    @Test func navigateAsksWhichSection() async {
        let (outcome, conversation) = await run(NavigateIntent.self, replies: [.text("the map")])
        #expect(conversation.prompts == ["Which section?"])
        #expect(outcome.dialog?.full.defaultValue == "Opening Map.")
    }

    @Test func hardLandmarkNamesResolve() async throws {
        for (words, title) in [
            ("chichen itza", "Chichén Itzá"), ("Chichén Itzá", "Chichén Itzá"), ("ayers rock", "Uluru"),
            ("kilimanjaro", "Mount Kilimanjaro"), ("hagia sophia", "Hagia Sophia"), ("kyoto", "Kinkaku-ji"),
            ("machu picchu", "Machu Picchu"), ("sagrada familia", "Sagrada Família"),
        ] {
            let found = try await AppDependencyManager.$current.withValue(dependencies) {
                try await LandmarkEntity._values(matching: words)
            }
            #expect(found.map(\.name) == [title], "\(words)")
        }
    }

    /// One word of a name, as people answer "Which landmark?", with "the" and "one" around it
    /// as the answer grammar lets them say.
    @Test func partsOfNamesResolve() async throws {
        let falls = ["Niagara Falls", "Victoria Falls", "Iguazu Falls"]
        for (words, titles) in [
            ("niagara", ["Niagara Falls"]), ("the niagara one", ["Niagara Falls"]), ("falls", falls),
            ("the falls", falls), ("the victoria one", ["Victoria Falls"]), ("the one", []),
        ] {
            let found = try await AppDependencyManager.$current.withValue(dependencies) {
                try await LandmarkEntity._values(matching: words)
            }
            #expect(found.map(\.name).sorted() == titles.sorted(), "\(words)")
        }
    }

    @Test func closestLandmarkSpeaksFullOrSupportingDialog() async {
        let (outcome, _) = await run(ClosestLandmarkIntent.self)
        #expect(outcome.valueText == "Golden Gate Bridge")
        #expect(
            outcome.spokenText(voiceOnly: true)
                == "The closest landmark is Golden Gate Bridge, 7 kilometers away.")
        #expect(outcome.spokenText(voiceOnly: false) == "Golden Gate Bridge is in North America.")
        #expect(outcome.snippetText?.hasPrefix("Golden Gate Bridge ★") == true)
    }

    @Test func crowdStatusStaysInTheBackgroundWithoutAScreen() async {
        let (headless, _) = await run(GetCrowdStatusIntent.self, ["landmark": "Uluru"])
        #expect(headless.value as? Int == 1_200)
        #expect(headless.dialog?.full.defaultValue == "Uluru is quiet right now, with about 1200 visitors.")
        #expect(!headless.ranInForeground)
        let (screen, _) = await run(GetCrowdStatusIntent.self, ["landmark": "Uluru"], hasScreen: true)
        #expect(screen.ranInForeground)
    }

    @Test func findTicketsAsksForTheCountAndConfirms() async {
        let (outcome, conversation) = await run(
            FindTicketsIntent.self, ["landmark": "machu picchu"], replies: [.text("two"), .yes])
        #expect(conversation.prompts == ["How many tickets?", "Search for 2 tickets to Machu Picchu?"])
        #expect(outcome.value as? Int == 124)
        #expect(
            outcome.dialog?.full.defaultValue == "I found 2 tickets to Machu Picchu for 124 dollars in total."
        )
    }

    @Test func findTicketsDeclinedOrTooMany() async {
        let (declined, _) = await run(
            FindTicketsIntent.self, ["landmark": "petra", "ticketCount": 3], replies: [.no])
        #expect(declined.status == .cancelled)
        let (tooMany, _) = await run(FindTicketsIntent.self, ["landmark": "petra", "ticketCount": "twenty"])
        #expect(tooMany.status == .failed)
        #expect(tooMany.errorMessage == "Sorry, I can't book 20 tickets at once. The limit is ten.")
    }

    @Test func unknownLandmarkIsAskedAboutNotGuessed() async {
        let (outcome, conversation) = await run(
            FindTicketsIntent.self, ["landmark": "the louvre", "ticketCount": 2], replies: [.cancel])
        #expect(conversation.prompts == ["Sorry, I don't know \"the louvre\". Which landmark?"])
        #expect(outcome.status == .cancelled)
    }

    @Test func favoritesChangeAndAreAnnounced() async {
        let updates = AppShortcutParameterUpdates.updates()
        let (added, _) = await run(UpdateFavoritesIntent.self, ["landmark": "petra"])
        #expect(added.dialog?.full.defaultValue == "Added Petra to your favorites.")
        #expect(model.favoriteLandmarks().map(\.name).contains("Petra"))
        var iterator = updates.makeAsyncIterator()
        #expect(await iterator.next() == "TravelTrackingAppShortcuts")

        let intent = UpdateFavoritesIntent(landmark: LandmarkEntity(model.landmarks[10]), isFavorite: false)
        #expect(intent.summaryText == "Remove Petra from favorites")
        let removed = await IntentRunner(conversation: ScriptedConversation(), dependencies: dependencies)
            .run(intent)
        #expect(removed.dialog?.full.defaultValue == "Removed Petra from your favorites.")
        #expect(!model.favoriteLandmarks().map(\.name).contains("Petra"))
    }

    @Test func deleteCollectionOffersArchiveDeleteOrCancel() async {
        let (archived, conversation) = await run(
            DeleteCollectionIntent.self, ["collection": "waterfalls"], replies: [.text("archive")])
        #expect(conversation.questions.last?.options == ["Cancel", "Archive", "Delete"])
        #expect(archived.dialog?.full.defaultValue == "Archived Waterfalls.")
        #expect(!model.collections().map(\.name).contains("Waterfalls"))

        let (cancelled, _) = await run(
            DeleteCollectionIntent.self, ["collection": "summer trip"], replies: [.text("never mind")])
        #expect(cancelled.status == .cancelled)
        #expect(model.collections().map(\.name).contains("Summer Trip"))

        let (deleted, _) = await run(
            DeleteCollectionIntent.self, replies: [.text("ancient wonders"), .option(2)])
        #expect(deleted.dialog?.full.defaultValue == "Deleted Ancient Wonders.")
        #expect(model.collections().map(\.name) == ["Summer Trip"])
    }

    @Test func openLandmarkShowsItsCard() async {
        let (outcome, _) = await run(OpenLandmarkIntent.self, ["target": "table mountain"], hasScreen: true)
        #expect(outcome.ranInForeground)
        #expect(outcome.snippetText?.contains("South Africa, Africa") == true)
        #expect(outcome.spokenText(voiceOnly: false) == "Here is Table Mountain.")
        #expect(outcome.spokenText(voiceOnly: true) == "Here is Table Mountain, in South Africa.")
    }
}
