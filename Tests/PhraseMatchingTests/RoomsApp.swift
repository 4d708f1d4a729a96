import Foundation
import PhraseMatching
import Testing
import VoiceIntents

// A small smart-home app whose device names contain its room names ("Bedroom Lamp", "Bedroom"):
// a sentence can be read as a whole device name or as a room and a device word.

enum Lamp: String, AppEnum {
    case bedroomLamp, kitchenLight
    static let typeDisplayRepresentation: TypeDisplayRepresentation = "Lamp"
    static let caseDisplayRepresentations: [Lamp: DisplayRepresentation] = [
        .bedroomLamp: "Bedroom Lamp", .kitchenLight: "Kitchen Light",
    ]
}

enum Room: String, AppEnum {
    case bedroom, kitchen
    static let typeDisplayRepresentation: TypeDisplayRepresentation = "Room"
    static let caseDisplayRepresentations: [Room: DisplayRepresentation] = [
        .bedroom: "Bedroom", .kitchen: "Kitchen",
    ]
}

struct TurnOffLampIntent: AppIntent {
    static let title: LocalizedStringResource = "Turn Off Lamp"
    @Parameter var lamp: Lamp
    func perform() async throws -> some IntentResult { .result() }
}

struct TurnOffRoomIntent: AppIntent {
    static let title: LocalizedStringResource = "Turn Off Room"
    @Parameter var room: Room
    func perform() async throws -> some IntentResult { .result() }
}

struct RoomsShortcuts: AppShortcutsProvider {
    static var appShortcuts: [AppShortcut] {
        AppShortcut(
            intent: TurnOffLampIntent(), phrases: ["Turn off \(\.$lamp) with \(.applicationName)"],
            shortTitle: "Lamp", systemImageName: "lightbulb")
        AppShortcut(
            intent: TurnOffRoomIntent(), phrases: ["Turn off \(\.$room) with \(.applicationName)"],
            shortTitle: "Room", systemImageName: "house")
    }
}

@Suite("Whole names")
struct WholeNameTests {
    static let catalog = """
        intents:
          TurnOffLampIntent:
            - "turn off [the] ${lamp}"
          TurnOffRoomIntent:
            - "turn off [the] ${room} (lamp | light)[s]"
        """

    @Test(arguments: [
        ("turn off the bedroom lamp", "TurnOffLampIntent", "lamp", "Bedroom Lamp"),
        ("turn off the kitchen light", "TurnOffLampIntent", "lamp", "Kitchen Light"),
        ("turn off the bedroom lights", "TurnOffRoomIntent", "room", "Bedroom"),
        ("turn off the kitchen lamps", "TurnOffRoomIntent", "room", "Kitchen"),
    ])
    func aWholeDeviceNameWinsOverARoomAndADeviceWord(
        _ sentence: String, _ intent: String, _ parameter: String, _ title: String
    ) async throws {
        let app = AppDescription(name: "Rooms", shortcuts: RoomsShortcuts.self)
        let matcher = try await PhraseMatcher(
            app: app, catalog: try Coffee.catalog(Self.catalog, name: "rooms.yaml"))
        let best = try #require(await matcher.match(sentence).best)
        #expect(best.intent == intent)
        #expect(best.values[parameter]?.title == title)
    }
}

/// Readings a listener would not make: a name said on into another thing ("the bedroom fan"), a
/// question heard as a command, and a name said the other way round, which a listener does follow.
@Suite("Another thing named")
struct AnotherThingNamedTests {
    static let catalog = """
        intents:
          TurnOffLampIntent:
            - "turn off [the] ${lamp}"
            - "[the] ${lamp} off"
          TurnOffRoomIntent:
            - "turn off [the] ${room}"
        """

    static func matcher() async throws -> PhraseMatcher {
        try await PhraseMatcher(
            app: AppDescription(name: "Rooms", shortcuts: RoomsShortcuts.self),
            catalog: try Coffee.catalog(Self.catalog, name: "rooms.yaml"))
    }

    @Test func aWordSaidOnAfterANameNamesSomethingElse() async throws {
        let matcher = try await Self.matcher()
        let fan = await matcher.match("turn off the bedroom fan")
        #expect(fan.best == nil, "\(fan.candidates)")
        let polite = try #require(await matcher.match("turn off the bedroom please").best)
        #expect(polite.values["room"]?.title == "Bedroom")
    }

    @Test func aQuestionIsNotACommand() async throws {
        let matcher = try await Self.matcher()
        let question = await matcher.match("is the kitchen light off")
        #expect(question.best == nil, "\(question.candidates)")
        let command = try #require(await matcher.match("the kitchen light off").best)
        #expect(command.values["lamp"]?.title == "Kitchen Light")
    }

    @Test func aNameSaidTheOtherWayRoundIsUnderstood() async throws {
        let matcher = try await Self.matcher()
        let best = try #require(await matcher.match("turn off the lamp in the bedroom").best)
        #expect(best.intent == "TurnOffLampIntent")
        #expect(best.values["lamp"]?.title == "Bedroom Lamp")
        #expect(best.explanation.contains { $0.contains("lamp in the bedroom") })
    }
}
