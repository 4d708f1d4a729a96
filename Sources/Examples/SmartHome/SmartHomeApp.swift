import VoiceIntents

/// The phrases of the SmartHome sample, one per shortcut; the catalog
/// (`Phrases/en/smart-home.yaml`) adds the other ways people say them.
public struct SmartHomeShortcuts: AppShortcutsProvider {
    public static var appShortcuts: [AppShortcut] {
        AppShortcut(
            intent: TurnOnLightIntent(), phrases: ["Turn on the \(\.$light)"], shortTitle: "Turn On",
            systemImageName: "lightbulb")
        AppShortcut(
            intent: TurnOffLightIntent(), phrases: ["Turn off the \(\.$light)"], shortTitle: "Turn Off",
            systemImageName: "lightbulb.slash")
        AppShortcut(
            intent: TurnOnAreaLightsIntent(), phrases: ["Turn on the lights in the \(\.$area)"],
            shortTitle: "Lights On", systemImageName: "lightbulb.2")
        AppShortcut(
            intent: TurnOffAreaLightsIntent(), phrases: ["Turn off the lights in the \(\.$area)"],
            shortTitle: "Lights Off", systemImageName: "lightbulb.2")
        AppShortcut(
            intent: SetLightColorIntent(), phrases: ["Set the \(\.$area) lights to \(\.$color)"],
            shortTitle: "Light Color", systemImageName: "paintpalette")
        AppShortcut(
            intent: SetBrightnessIntent(),
            phrases: ["Set the \(\.$light) brightness to \(\.$brightness) percent"],
            shortTitle: "Brightness", systemImageName: "sun.max")
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
            intent: IsOpenIntent(), phrases: ["Is the \(\.$door) open"], shortTitle: "Is It Open",
            systemImageName: "door.garage.open")
        AppShortcut(
            intent: ActivateSceneIntent(), phrases: ["Activate \(\.$scene)"], shortTitle: "Scene",
            systemImageName: "sparkles")
        AppShortcut(
            intent: RunScriptIntent(), phrases: ["Run \(\.$script)"], shortTitle: "Script",
            systemImageName: "play")
        AppShortcut(
            intent: AddToListIntent(), phrases: ["Add \(\.$item) to my \(\.$list)"],
            shortTitle: "Add to List",
            systemImageName: "cart")
        AppShortcut(
            intent: SetTimerIntent(), phrases: ["Set a timer for \(\.$minutes) minutes"], shortTitle: "Timer",
            systemImageName: "timer")
        AppShortcut(
            intent: CancelTimerIntent(), phrases: ["Cancel the timer"], shortTitle: "Cancel Timer",
            systemImageName: "timer")
        AppShortcut(
            intent: CancelAllTimersIntent(), phrases: ["Cancel all timers"], shortTitle: "Cancel Timers",
            systemImageName: "timer")
        AppShortcut(
            intent: PauseTimerIntent(), phrases: ["Pause the timer"], shortTitle: "Pause Timer",
            systemImageName: "pause")
        AppShortcut(
            intent: ResumeTimerIntent(), phrases: ["Resume the timer"], shortTitle: "Resume Timer",
            systemImageName: "play")
        AppShortcut(
            intent: TimerStatusIntent(), phrases: ["Timer status"], shortTitle: "Timer Status",
            systemImageName: "timer")
        AppShortcut(
            intent: PauseMediaIntent(), phrases: ["Pause"], shortTitle: "Pause", systemImageName: "pause")
        AppShortcut(
            intent: ResumeMediaIntent(), phrases: ["Resume"], shortTitle: "Resume", systemImageName: "play")
        AppShortcut(
            intent: NextTrackIntent(), phrases: ["Next", "Skip on \(\.$player)"], shortTitle: "Next",
            systemImageName: "forward")
        AppShortcut(
            intent: NevermindIntent(), phrases: ["Never mind"], shortTitle: "Never Mind",
            systemImageName: "xmark")
        AppShortcut(
            intent: TimeIntent(), phrases: ["What time is it"], shortTitle: "Time", systemImageName: "clock")
        AppShortcut(
            intent: DateIntent(), phrases: ["What's the date"], shortTitle: "Date",
            systemImageName: "calendar")
        AppShortcut(
            intent: TemperatureIntent(),
            phrases: ["What's the temperature", "What's the temperature of the \(\.$thermostat)"],
            shortTitle: "Temperature", systemImageName: "thermometer")
        AppShortcut(
            intent: WeatherIntent(),
            phrases: ["What's the weather", "What's the weather like in \(\.$place)"],
            shortTitle: "Weather", systemImageName: "cloud.sun")
        AppShortcut(
            intent: SensorIntent(), phrases: ["What is the \(\.$sensor)"], shortTitle: "Sensor",
            systemImageName: "humidity")
    }
}

/// The SmartHome sample: a house's voice assistant, talked to without its name, whose devices are
/// the ones of Home Assistant's speech-to-phrase test recordings.
public struct SmartHomeApp: VoiceApp {
    public typealias Shortcuts = SmartHomeShortcuts

    public static let name = "Smart Home"
    /// A dedicated device: people say "turn on the bed light", not "… in Smart Home".
    public static let isAddressedByName = false

    /// The house and its timers: one of each for the process, however often the app is made.
    static let house = House()
    static let timers = VoiceTimers()

    /// Registers the house and its timers with the shared dependency manager.
    public init() {
        AppDependencyManager.shared.add { Self.house }
        AppDependencyManager.shared.add { Self.timers }
    }
}
