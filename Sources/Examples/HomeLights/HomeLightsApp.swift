import Foundation
import VoiceIntents

// The HomeLights sample: the home-automation commands of Rhasspy's English test recordings
// (`Tests/Recordings/rhasspy-test-en`, MIT): lights on and off, the bedroom light's color,
// the garage door, the time and the temperature. Its phrase tests are those recordings.

public enum HomeLight: String, AppEnum {
    case livingRoomLamp, garageLight, bedroomLight
    public static let typeDisplayRepresentation: TypeDisplayRepresentation = "Light"
    public static let caseDisplayRepresentations: [HomeLight: DisplayRepresentation] = [
        .livingRoomLamp: "Living Room Lamp", .garageLight: "Garage Light", .bedroomLight: "Bedroom Light",
    ]
}

public enum LightState: String, AppEnum {
    case on, off
    public static let typeDisplayRepresentation: TypeDisplayRepresentation = "State"
    public static let caseDisplayRepresentations: [LightState: DisplayRepresentation] = [
        .on: "On", .off: "Off",
    ]
}

public enum HomeLightColor: String, AppEnum {
    case red, green, blue
    public static let typeDisplayRepresentation: TypeDisplayRepresentation = "Color"
    public static let caseDisplayRepresentations: [HomeLightColor: DisplayRepresentation] = [
        .red: "Red", .green: "Green", .blue: "Blue",
    ]
}

public enum GarageDoorState: String, AppEnum {
    case open, closed
    public static let typeDisplayRepresentation: TypeDisplayRepresentation = "Door State"
    public static let caseDisplayRepresentations: [GarageDoorState: DisplayRepresentation] = [
        .open: "Open", .closed: "Closed",
    ]
}

public struct GetTimeIntent: AppIntent {
    public static let title: LocalizedStringResource = "Get Time"
    public init() {}
    public func perform() async throws -> some IntentResult & ProvidesDialog {
        .result(dialog: "It's \(Date.now.formatted(date: .omitted, time: .shortened)).")
    }
}

public struct GetTemperatureIntent: AppIntent {
    public static let title: LocalizedStringResource = "Get Temperature"
    public init() {}
    public func perform() async throws -> some IntentResult & ProvidesDialog {
        .result(dialog: "It's 21 degrees inside.")
    }
}

public struct GetGarageStateIntent: AppIntent {
    public static let title: LocalizedStringResource = "Get Garage Door State"
    @Parameter(title: "Door State") public var state: GarageDoorState?
    public init() {}
    public func perform() async throws -> some IntentResult & ProvidesDialog {
        .result(dialog: "The garage door is closed.")
    }
}

public struct ChangeLightStateIntent: AppIntent {
    public static let title: LocalizedStringResource = "Change Light State"
    @Parameter(title: "Light", requestValueDialog: "Which light?") public var light: HomeLight
    @Parameter(title: "State", requestValueDialog: "On or off?") public var state: LightState
    public init() {}
    public func perform() async throws -> some IntentResult & ProvidesDialog {
        .result(dialog: "Turned \(state) the \(light).")
    }
}

public struct ChangeLightColorIntent: AppIntent {
    public static let title: LocalizedStringResource = "Change Light Color"
    @Parameter(title: "Light", requestValueDialog: "Which light?") public var light: HomeLight
    @Parameter(title: "Color", requestValueDialog: "Which color?") public var color: HomeLightColor
    public init() {}
    public func perform() async throws -> some IntentResult & ProvidesDialog {
        .result(dialog: "The \(light) is \(color) now.")
    }
}

/// The phrases of the HomeLights sample, one per shortcut; `Phrases/en/home-lights.yaml` adds
/// the other ways Rhasspy's test sentences say them.
public struct HomeLightsShortcuts: AppShortcutsProvider {
    public static var appShortcuts: [AppShortcut] {
        AppShortcut(
            intent: GetTimeIntent(), phrases: ["What time is it"], shortTitle: "Time",
            systemImageName: "clock")
        AppShortcut(
            intent: GetTemperatureIntent(), phrases: ["What's the temperature"], shortTitle: "Temperature",
            systemImageName: "thermometer")
        AppShortcut(
            intent: GetGarageStateIntent(), phrases: ["Is the garage door \(\.$state)"],
            shortTitle: "Garage Door",
            systemImageName: "door.garage.closed")
        AppShortcut(
            intent: ChangeLightStateIntent(), phrases: ["Turn \(\.$state) the \(\.$light)"],
            shortTitle: "Light",
            systemImageName: "lightbulb")
        AppShortcut(
            intent: ChangeLightColorIntent(), phrases: ["Set the \(\.$light) to \(\.$color)"],
            shortTitle: "Light Color", systemImageName: "paintpalette")
    }
}

/// The HomeLights sample: a house's lights and garage door by voice, talked to without a name.
public struct HomeLightsApp: VoiceApp {
    public typealias Shortcuts = HomeLightsShortcuts
    public static let name = "Home Lights"
    public static let isAddressedByName = false
    public init() {}
}
