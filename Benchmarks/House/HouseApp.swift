import VoiceIntents

/// The phrases of the House sample, one or two per shortcut; the catalog
/// (`Benchmarks/House/Phrases/en/house.yaml`) adds the many other ways people say them.
public struct HouseShortcuts: AppShortcutsProvider {
    public static var appShortcuts: [AppShortcut] {
        AppShortcut(
            intent: TurnOnLightIntent(), phrases: ["Turn on the \(\.$light)"], shortTitle: "Turn On",
            systemImageName: "lightbulb")
        AppShortcut(
            intent: TurnOffLightIntent(), phrases: ["Turn off the \(\.$light)"], shortTitle: "Turn Off",
            systemImageName: "lightbulb.slash")
        AppShortcut(
            intent: TurnOnAreaLightsIntent(), phrases: ["Turn on the lights in the \(\.$area)"],
            shortTitle: "Room Lights On", systemImageName: "lightbulb.2")
        AppShortcut(
            intent: TurnOffAreaLightsIntent(), phrases: ["Turn off the lights in the \(\.$area)"],
            shortTitle: "Room Lights Off", systemImageName: "lightbulb.2")
        AppShortcut(
            intent: TurnOnFloorLightsIntent(), phrases: ["Turn on the lights on the \(\.$floor)"],
            shortTitle: "Floor Lights On", systemImageName: "square.stack.3d.up")
        AppShortcut(
            intent: TurnOffFloorLightsIntent(), phrases: ["Turn off the lights on the \(\.$floor)"],
            shortTitle: "Floor Lights Off", systemImageName: "square.stack.3d.up.slash")
        AppShortcut(
            intent: SetBrightnessIntent(),
            phrases: [
                "Set the \(\.$light) brightness to \(\.$brightness) percent",
                "Set the \(\.$area) lights to \(\.$brightness) percent",
            ],
            shortTitle: "Brightness", systemImageName: "sun.max")
        AppShortcut(
            intent: SetLightColorIntent(),
            phrases: ["Set the \(\.$light) to \(\.$color)", "Set the \(\.$area) lights to \(\.$color)"],
            shortTitle: "Light Color", systemImageName: "paintpalette")
        AppShortcut(
            intent: OpenCoverIntent(), phrases: ["Open the \(\.$cover)"], shortTitle: "Open",
            systemImageName: "blinds.horizontal.open")
        AppShortcut(
            intent: CloseCoverIntent(), phrases: ["Close the \(\.$cover)"], shortTitle: "Close",
            systemImageName: "blinds.horizontal.closed")
        AppShortcut(
            intent: SetTemperatureIntent(),
            phrases: [
                "Set the temperature to \(\.$temperature) degrees",
                "Set the temperature in the \(\.$area) to \(\.$temperature) degrees",
            ],
            shortTitle: "Heating", systemImageName: "thermometer.sun")
        AppShortcut(
            intent: GetTemperatureIntent(),
            phrases: ["What's the temperature", "What's the temperature in the \(\.$area)"],
            shortTitle: "Temperature", systemImageName: "thermometer")
        AppShortcut(
            intent: LockIntent(), phrases: ["Lock the \(\.$lock)"], shortTitle: "Lock",
            systemImageName: "lock")
        AppShortcut(
            intent: UnlockIntent(), phrases: ["Unlock the \(\.$lock)"], shortTitle: "Unlock",
            systemImageName: "lock.open")
        AppShortcut(
            intent: IsLockedIntent(), phrases: ["Is the \(\.$lock) locked"], shortTitle: "Is It Locked",
            systemImageName: "lock")
        AppShortcut(
            intent: SetVolumeIntent(), phrases: ["Set the \(\.$player) volume to \(\.$volume) percent"],
            shortTitle: "Volume", systemImageName: "speaker.wave.2")
        AppShortcut(
            intent: GetSensorStateIntent(), phrases: ["What is the state of the \(\.$sensor)"],
            shortTitle: "Sensor", systemImageName: "sensor")
    }
}

/// The House sample: a smart home's voice assistant, talked to without its name, whose commands
/// share most of their words: a stress suite for the phrase matcher (issue 22).
public struct HouseApp: VoiceApp {
    public typealias Shortcuts = HouseShortcuts

    public static let name = "House"
    /// A dedicated device: people say "turn on the kitchen light", not "… in House".
    public static let isAddressedByName = false

    public init() {}
}
