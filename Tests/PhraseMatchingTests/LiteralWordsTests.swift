import Foundation
import PhraseMatching
import Testing
import VoiceIntents

// A house whose doors are told apart by the words of their phrases ("the garage door") and by
// the room they are in ("the kitchen door"), and whose devices can be asked about by kind.

enum Place: String, AppEnum {
    case garage, kitchen
    static let typeDisplayRepresentation: TypeDisplayRepresentation = "Place"
    static let caseDisplayRepresentations: [Place: DisplayRepresentation] = [
        .garage: "Garage", .kitchen: "Kitchen",
    ]
}

enum Opening: String, AppEnum {
    case door, garageDoor
    static let typeDisplayRepresentation: TypeDisplayRepresentation = "Opening"
    static let caseDisplayRepresentations: [Opening: DisplayRepresentation] = [
        .door: "Door", .garageDoor: "Garage Door",
    ]
}

enum OuterDoor: String, AppEnum {
    case frontDoor, backDoor
    static let typeDisplayRepresentation: TypeDisplayRepresentation = "Door"
    static let caseDisplayRepresentations: [OuterDoor: DisplayRepresentation] = [
        .frontDoor: "Front Door", .backDoor: "Back Door",
    ]
}

enum Gadget: String, AppEnum {
    case frontDoor, backDoor, fridge, oven
    static let typeDisplayRepresentation: TypeDisplayRepresentation = "Gadget"
    static let caseDisplayRepresentations: [Gadget: DisplayRepresentation] = [
        .frontDoor: "Front Door", .backDoor: "Back Door", .fridge: "Fridge", .oven: "Oven",
    ]
}

struct OpenOpeningIntent: AppIntent {
    static let title: LocalizedStringResource = "Open"
    @Parameter var opening: Opening
    @Parameter var place: Place?
    func perform() async throws -> some IntentResult { .result() }
}

struct IsDoorOpenIntent: AppIntent {
    static let title: LocalizedStringResource = "Is Door Open"
    @Parameter var door: OuterDoor
    func perform() async throws -> some IntentResult { .result() }
}

struct IsGadgetOpenIntent: AppIntent {
    static let title: LocalizedStringResource = "Is Gadget Open"
    @Parameter var gadget: Gadget
    func perform() async throws -> some IntentResult { .result() }
}

struct OpeningsShortcuts: AppShortcutsProvider {
    static var appShortcuts: [AppShortcut] {
        AppShortcut(
            intent: OpenOpeningIntent(), phrases: ["Open \(\.$opening) with \(.applicationName)"],
            shortTitle: "Open", systemImageName: "door.left.hand.open")
        AppShortcut(
            intent: IsDoorOpenIntent(), phrases: ["Is \(\.$door) open in \(.applicationName)"],
            shortTitle: "Door", systemImageName: "door.left.hand.closed")
        AppShortcut(
            intent: IsGadgetOpenIntent(), phrases: ["Is \(\.$gadget) open in \(.applicationName)"],
            shortTitle: "Gadget", systemImageName: "refrigerator")
    }
}

@Suite("Literal words first")
struct LiteralWordsTests {
    static let catalog = """
        intents:
          OpenOpeningIntent:
            - { say: "open [the] ${place} door", set: { opening: Door } }
            - { say: "open [the] garage door", set: { opening: Garage Door } }
            - { say: "open [the] door", set: { opening: Door, place: $area } }
          IsDoorOpenIntent:
            - "is [the] ${door} open"
          IsGadgetOpenIntent:
            - "is [the] ${gadget} open"
        """

    static func matcher(_ catalog: String = Self.catalog) async throws -> PhraseMatcher {
        try await PhraseMatcher(
            app: AppDescription(
                name: "Openings", shortcuts: OpeningsShortcuts.self, isAddressedByName: false),
            catalog: try Coffee.catalog(catalog, name: "openings.yaml"))
    }

    /// A place's name (a value the context can give) counts after the phrase's own words: "the
    /// garage door" is the phrase that says so, while a room that is not part of any phrase's
    /// words is still read as the room.
    @Test func thePhrasesOwnWordsComeBeforeAPlacesName() async throws {
        let matcher = try await Self.matcher()
        let garage = try #require(await matcher.match("open the garage door").best)
        #expect(garage.values["opening"]?.title == "Garage Door", "\(garage)")
        #expect(garage.values["place"] == nil, "\(garage)")
        let kitchen = try #require(await matcher.match("open the kitchen door").best)
        #expect(kitchen.values["opening"]?.title == "Door")
        #expect(kitchen.values["place"]?.title == "Kitchen")
    }

    /// Without a phrase that takes the place from the context, the room is a name like any
    /// other, and the whole name still wins (``WholeNameTests``).
    @Test func withoutContextAPlaceIsANameLikeAnyOther() async throws {
        let catalog = Self.catalog.split(separator: "\n").filter { !$0.contains("$area") }.joined(
            separator: "\n")
        let result = try await Self.matcher(catalog).match("open the garage door")
        #expect(result.best?.values["place"]?.title == "Garage", "\(result.candidates)")
    }

    /// Two commands that fit a sentence word for word: the one whose names come from the smaller
    /// set is the more specific, and wins instead of making the sentence ambiguous.
    @Test func theReadingFromTheSmallerSetWinsAnExactTie() async throws {
        let result = try await Self.matcher().match("is the front door open")
        #expect(!result.isAmbiguous, "\(result.candidates)")
        #expect(result.best?.intent == "IsDoorOpenIntent", "\(result.candidates)")
        let fridge = try await Self.matcher().match("is the fridge open")
        #expect(fridge.best?.intent == "IsGadgetOpenIntent")
    }
}
