import Synchronization
import VoiceIntents

// The devices, areas and lists of the SmartHome sample: the fixtures that Home Assistant's
// speech-to-phrase test recordings (`Tests/Recordings/speech-to-phrase-en`) refer to.

/// Builds the display representations of an enum from its titles.
private func titled<Case: Hashable>(_ titles: [Case: String]) -> [Case: DisplayRepresentation] {
    titles.mapValues { DisplayRepresentation(title: "\($0)") }
}

public enum Light: String, AppEnum {
    case bedLight, standingLight
    public static let typeDisplayRepresentation: TypeDisplayRepresentation = "Light"
    public static let caseDisplayRepresentations = titled([
        Light.bedLight: "Bed Light", .standingLight: "Standing Light",
    ])
}

public enum Area: String, AppEnum {
    case kitchen, office
    public static let typeDisplayRepresentation: TypeDisplayRepresentation = "Area"
    public static let caseDisplayRepresentations = titled([Area.kitchen: "Kitchen", .office: "Office"])
}

public enum LightColor: String, AppEnum {
    case red, green, blue, yellow, purple, orange
    public static let typeDisplayRepresentation: TypeDisplayRepresentation = "Color"
    public static let caseDisplayRepresentations = titled(
        Dictionary(uniqueKeysWithValues: allCases.map { ($0, $0.rawValue.capitalized) }))
}

public enum Cover: String, AppEnum {
    case garageDoor, slidingDoor
    public static let typeDisplayRepresentation: TypeDisplayRepresentation = "Door"
    public static let caseDisplayRepresentations = titled([
        Cover.garageDoor: "Garage Door", .slidingDoor: "Sliding Door",
    ])
}

public enum DoorLock: String, AppEnum {
    case frontDoor
    public static let typeDisplayRepresentation: TypeDisplayRepresentation = "Lock"
    public static let caseDisplayRepresentations = titled([DoorLock.frontDoor: "Front Door"])
}

public enum MediaPlayer: String, AppEnum {
    case tv
    public static let typeDisplayRepresentation: TypeDisplayRepresentation = "Media Player"
    public static let caseDisplayRepresentations: [MediaPlayer: DisplayRepresentation] = [
        .tv: DisplayRepresentation(title: "TV", synonyms: ["television"])
    ]
}

public enum Scene: String, AppEnum {
    case moodLighting
    public static let typeDisplayRepresentation: TypeDisplayRepresentation = "Scene"
    public static let caseDisplayRepresentations = titled([Scene.moodLighting: "Mood Lighting"])
}

public enum Script: String, AppEnum {
    case partyTime
    public static let typeDisplayRepresentation: TypeDisplayRepresentation = "Script"
    public static let caseDisplayRepresentations = titled([Script.partyTime: "Party Time"])
}

public enum Sensor: String, AppEnum {
    case outdoorHumidity
    public static let typeDisplayRepresentation: TypeDisplayRepresentation = "Sensor"
    public static let caseDisplayRepresentations = titled([Sensor.outdoorHumidity: "Outdoor Humidity"])
}

public enum Thermostat: String, AppEnum {
    case ecobee
    public static let typeDisplayRepresentation: TypeDisplayRepresentation = "Thermostat"
    public static let caseDisplayRepresentations: [Thermostat: DisplayRepresentation] = [
        .ecobee: DisplayRepresentation(title: "EcoBee", synonyms: ["eco bee"])
    ]
}

public enum Place: String, AppEnum {
    case newYork
    public static let typeDisplayRepresentation: TypeDisplayRepresentation = "Place"
    public static let caseDisplayRepresentations = titled([Place.newYork: "New York"])
}

public enum TodoList: String, AppEnum {
    case shoppingList
    public static let typeDisplayRepresentation: TypeDisplayRepresentation = "List"
    public static let caseDisplayRepresentations = titled([TodoList.shoppingList: "Shopping List"])
}

/// What the house remembers between commands: the shopping list. Its timers are the package's
/// (``VoiceTimers``), which run out on their own and are announced.
public final class House: Sendable {
    private let shopping = Mutex<[String]>([])

    public init() {}

    public var shoppingList: [String] { shopping.withLock { $0 } }

    func add(_ item: String) { shopping.withLock { if !$0.contains(item) { $0.append(item) } } }
}

/// Groceries people add to the shopping list: what the grammar hears for free text. What was
/// added once (typed, or sent by Home Assistant's agent) is heard from then on.
public struct Groceries: DynamicOptionsProvider {
    /// The app's house: asked for when the phrases are compiled, with or without a dependency
    /// manager around.
    private var house: House { SmartHomeApp.house }
    public init() {}
    public func results() async throws -> [String] {
        let usual = [
            "apples", "bananas", "bread", "butter", "cheese", "coffee", "eggs", "milk", "oranges", "rice",
            "tea",
        ]
        return usual + house.shoppingList.filter { !usual.contains($0) }
    }
}
