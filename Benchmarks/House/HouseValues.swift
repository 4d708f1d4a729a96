import VoiceIntents

// The rooms, floors and devices of the House sample. Many device names hold a room's name
// ("Bedroom Lamp", "Living Room Blinds", "Kitchen Speaker"): the phrase matcher must let the
// whole device name win over the room inside it.

/// Builds the display representations of an enum from its titles.
private func titled<Case: Hashable>(_ titles: [Case: String]) -> [Case: DisplayRepresentation] {
    titles.mapValues { DisplayRepresentation(title: "\($0)") }
}

public enum Area: String, AppEnum {
    case kitchen, livingRoom, bedroom, masterBedroom, office, garage, hallway, bathroom, diningRoom, kidsRoom
    public static let typeDisplayRepresentation: TypeDisplayRepresentation = "Area"
    public static let caseDisplayRepresentations = titled([
        Area.kitchen: "Kitchen", .livingRoom: "Living Room", .bedroom: "Bedroom",
        .masterBedroom: "Master Bedroom", .office: "Office", .garage: "Garage", .hallway: "Hallway",
        .bathroom: "Bathroom", .diningRoom: "Dining Room", .kidsRoom: "Kids Room",
    ])
}

public enum Floor: String, AppEnum {
    case groundFloor, firstFloor, upstairs, downstairs
    public static let typeDisplayRepresentation: TypeDisplayRepresentation = "Floor"
    public static let caseDisplayRepresentations = titled([
        Floor.groundFloor: "Ground Floor", .firstFloor: "First Floor", .upstairs: "Upstairs",
        .downstairs: "Downstairs",
    ])
}

public enum Light: String, AppEnum {
    case kitchenLight, livingRoomLamp, bedroomLamp, masterBedroomLamp, officeDeskLamp, hallwayLight
    case garageLight, diningRoomChandelier, bathroomMirrorLight, kidsRoomNightLight, porchLight
    public static let typeDisplayRepresentation: TypeDisplayRepresentation = "Light"
    public static let caseDisplayRepresentations = titled([
        Light.kitchenLight: "Kitchen Light", .livingRoomLamp: "Living Room Lamp",
        .bedroomLamp: "Bedroom Lamp",
        .masterBedroomLamp: "Master Bedroom Lamp", .officeDeskLamp: "Office Desk Lamp",
        .hallwayLight: "Hallway Light", .garageLight: "Garage Light",
        .diningRoomChandelier: "Dining Room Chandelier", .bathroomMirrorLight: "Bathroom Mirror Light",
        .kidsRoomNightLight: "Kids Room Night Light", .porchLight: "Porch Light",
    ])
}

public enum LightColor: String, AppEnum {
    case red, green, blue, yellow, purple, orange, pink, white, warmWhite
    public static let typeDisplayRepresentation: TypeDisplayRepresentation = "Color"
    public static let caseDisplayRepresentations = titled([
        LightColor.red: "Red", .green: "Green", .blue: "Blue", .yellow: "Yellow", .purple: "Purple",
        .orange: "Orange", .pink: "Pink", .white: "White", .warmWhite: "Warm White",
    ])
}

public enum Cover: String, AppEnum {
    case livingRoomBlinds, officeBlinds, bedroomCurtains, garageDoor
    public static let typeDisplayRepresentation: TypeDisplayRepresentation = "Cover"
    public static let caseDisplayRepresentations = titled([
        Cover.livingRoomBlinds: "Living Room Blinds", .officeBlinds: "Office Blinds",
        .bedroomCurtains: "Bedroom Curtains", .garageDoor: "Garage Door",
    ])
}

public enum DoorLock: String, AppEnum {
    case frontDoor, backDoor
    public static let typeDisplayRepresentation: TypeDisplayRepresentation = "Lock"
    public static let caseDisplayRepresentations = titled([
        DoorLock.frontDoor: "Front Door", .backDoor: "Back Door",
    ])
}

public enum MediaPlayer: String, AppEnum {
    case livingRoomTV, kitchenSpeaker, officeSpeaker
    public static let typeDisplayRepresentation: TypeDisplayRepresentation = "Media Player"
    public static let caseDisplayRepresentations: [MediaPlayer: DisplayRepresentation] = [
        .livingRoomTV: DisplayRepresentation(title: "Living Room TV", synonyms: ["living room television"]),
        .kitchenSpeaker: DisplayRepresentation(title: "Kitchen Speaker"),
        .officeSpeaker: DisplayRepresentation(title: "Office Speaker"),
    ]
}

/// A sensor of the house: doors, windows, motion, smoke, gas and leaks, all asked about through
/// one intent whose phrases each accept only the kinds they are for (`only:` in the catalog).
public struct Sensor: AppEntity {
    public let id: String
    /// The kind of sensor, as Home Assistant's device classes name them.
    @Property(title: "Device Class") public var deviceClass: String

    public init(_ id: String, _ deviceClass: String) {
        self.id = id
        self.deviceClass = deviceClass
    }

    public static let typeDisplayRepresentation: TypeDisplayRepresentation = "Sensor"
    public var displayRepresentation: DisplayRepresentation { "\(id)" }
    public static let defaultQuery = SensorQuery()
}

/// The house's sensors.
public struct SensorQuery: EntityQuery {
    public static let all = [
        Sensor("Side Door", "door"), Sensor("Patio Door", "door"), Sensor("Garage Door", "garage_door"),
        Sensor("Kitchen Window", "window"), Sensor("Bedroom Window", "window"),
        Sensor("Hallway Motion", "motion"), Sensor("Garden Motion", "motion"),
        Sensor("Kitchen Smoke Detector", "smoke"), Sensor("Boiler Gas Sensor", "gas"),
        Sensor("Basement Leak Sensor", "moisture"), Sensor("Laundry Leak Sensor", "moisture"),
    ]

    public init() {}
    public func entities(for identifiers: [String]) async throws -> [Sensor] {
        Self.all.filter { identifiers.contains($0.id) }
    }
    public func suggestedEntities() async throws -> [Sensor] { Self.all }
}

/// What a question about a sensor asks.
public enum SensorState: String, AppEnum {
    case open, closed, detected, clear, wet
    public static let typeDisplayRepresentation: TypeDisplayRepresentation = "State"
    public static let caseDisplayRepresentations = titled([
        SensorState.open: "Open", .closed: "Closed", .detected: "Detected", .clear: "Clear", .wet: "Wet",
    ])
}
