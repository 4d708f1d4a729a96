import Foundation
import VoiceIntents

// The SmartHome sample's intents: lights, doors, the lock, scenes, media, timers, the shopping
// list, and questions about the time, the weather and the sensors. The replies stand in for a
// real house; what matters here is what was heard and which intent ran with which values.

public struct TurnOnLightIntent: AppIntent {
    public static let title: LocalizedStringResource = "Turn On Light"
    @Parameter(title: "Light", requestValueDialog: "Which light?") public var light: Light
    public init() {}
    public func perform() async throws -> some IntentResult & ProvidesDialog {
        .result(dialog: "Turned on the \(light).")
    }
}

public struct TurnOffLightIntent: AppIntent {
    public static let title: LocalizedStringResource = "Turn Off Light"
    @Parameter(title: "Light", requestValueDialog: "Which light?") public var light: Light
    public init() {}
    public func perform() async throws -> some IntentResult & ProvidesDialog {
        .result(dialog: "Turned off the \(light).")
    }
}

public struct TurnOnAreaLightsIntent: AppIntent {
    public static let title: LocalizedStringResource = "Turn On Lights in Area"
    @Parameter(title: "Area", requestValueDialog: "In which room?") public var area: Area
    public init() {}
    public func perform() async throws -> some IntentResult & ProvidesDialog {
        .result(dialog: "Turned on the lights in the \(area).")
    }
}

public struct TurnOffAreaLightsIntent: AppIntent {
    public static let title: LocalizedStringResource = "Turn Off Lights in Area"
    @Parameter(title: "Area", requestValueDialog: "In which room?") public var area: Area
    public init() {}
    public func perform() async throws -> some IntentResult & ProvidesDialog {
        .result(dialog: "Turned off the lights in the \(area).")
    }
}

public struct SetLightColorIntent: AppIntent {
    public static let title: LocalizedStringResource = "Set Light Color"
    @Parameter(title: "Area", requestValueDialog: "In which room?") public var area: Area
    @Parameter(title: "Color", requestValueDialog: "Which color?") public var color: LightColor
    public init() {}
    public func perform() async throws -> some IntentResult & ProvidesDialog {
        .result(dialog: "The \(area) lights are \(color) now.")
    }
}

public struct SetBrightnessIntent: AppIntent {
    public static let title: LocalizedStringResource = "Set Brightness"
    @Parameter(title: "Light", requestValueDialog: "Which light?") public var light: Light
    @Parameter(title: "Brightness", inclusiveRange: (0, 100), requestValueDialog: "How bright, in percent?")
    public var brightness: Int
    public init() {}
    public func perform() async throws -> some IntentResult & ProvidesDialog {
        .result(dialog: "The \(light) is at \(brightness) percent.")
    }
}

public struct LockIntent: AppIntent {
    public static let title: LocalizedStringResource = "Lock"
    public static var parameterSummary: some ParameterSummary { Summary("lock the \(\.$lock)") }
    @Parameter(title: "Lock", requestValueDialog: "Which door?") public var lock: DoorLock
    public init() {}
    public func perform() async throws -> some IntentResult & ProvidesDialog {
        .result(dialog: "Locked the \(lock).")
    }
}

/// Unlocking lets people in: by voice it is read back and runs only on a yes.
public struct UnlockIntent: AppIntent {
    public static let title: LocalizedStringResource = "Unlock"
    public static let authenticationPolicy: IntentAuthenticationPolicy = .requiresAuthentication
    public static var parameterSummary: some ParameterSummary { Summary("unlock the \(\.$lock)") }
    @Parameter(title: "Lock", requestValueDialog: "Which door?") public var lock: DoorLock
    public init() {}
    public func perform() async throws -> some IntentResult & ProvidesDialog {
        .result(dialog: "Unlocked the \(lock).")
    }
}

public struct IsLockedIntent: AppIntent {
    public static let title: LocalizedStringResource = "Is It Locked"
    @Parameter(title: "Lock", requestValueDialog: "Which door?") public var lock: DoorLock
    public init() {}
    public func perform() async throws -> some IntentResult & ProvidesDialog {
        .result(dialog: "The \(lock) is locked.")
    }
}

public struct IsOpenIntent: AppIntent {
    public static let title: LocalizedStringResource = "Is It Open"
    @Parameter(title: "Door", requestValueDialog: "Which door?") public var door: Cover
    public init() {}
    public func perform() async throws -> some IntentResult & ProvidesDialog {
        .result(dialog: "The \(door) is closed.")
    }
}

public struct ActivateSceneIntent: AppIntent {
    public static let title: LocalizedStringResource = "Activate Scene"
    @Parameter(title: "Scene", requestValueDialog: "Which scene?") public var scene: Scene
    public init() {}
    public func perform() async throws -> some IntentResult & ProvidesDialog {
        .result(dialog: "\(scene) is on.")
    }
}

public struct RunScriptIntent: AppIntent {
    public static let title: LocalizedStringResource = "Run Script"
    @Parameter(title: "Script", requestValueDialog: "Which script?") public var script: Script
    public init() {}
    public func perform() async throws -> some IntentResult & ProvidesDialog {
        .result(dialog: "Started \(script).")
    }
}

public struct AddToListIntent: AppIntent {
    public static let title: LocalizedStringResource = "Add to List"
    @Parameter(title: "Item", requestValueDialog: "What should I add?", optionsProvider: Groceries())
    public var item: String
    @Parameter(title: "List", requestValueDialog: "To which list?") public var list: TodoList
    @Dependency var house: House
    public init() {}
    public func perform() async throws -> some IntentResult & ProvidesDialog {
        house.add(item)
        // The item is one of the suggestions from now on: heard when said.
        SmartHomeShortcuts.updateAppShortcutParameters()
        return .result(dialog: "Added \(item) to your \(list).")
    }
}

public struct SetTimerIntent: AppIntent {
    public static let title: LocalizedStringResource = "Set Timer"
    @Parameter(title: "Hours") public var hours: Int?
    @Parameter(title: "Minutes") public var minutes: Int?
    @Parameter(title: "Seconds") public var seconds: Int?
    @Dependency var timers: VoiceTimers
    public init() {}
    public func perform() async throws -> some IntentResult & ProvidesDialog {
        guard hours != nil || minutes != nil || seconds != nil else {
            throw $minutes.requestValue("For how many minutes?")
        }
        let timer = timers.start(hours: hours ?? 0, minutes: minutes ?? 0, seconds: seconds ?? 0)
        return .result(dialog: "Timer set for \(timer.spokenLength).")
    }
}

/// The timer a command about "the timer" means: the newest of this device's timers that `fits`.
func theTimer(_ timers: VoiceTimers, _ fits: (VoiceTimers.Timer) -> Bool = { _ in true }) -> VoiceTimers
    .Timer?
{
    timers.timersHere.last(where: fits)
}

public struct CancelTimerIntent: AppIntent {
    public static let title: LocalizedStringResource = "Cancel Timer"
    @Dependency var timers: VoiceTimers
    public init() {}
    public func perform() async throws -> some IntentResult & ProvidesDialog {
        guard let timer = theTimer(timers) else { return .result(dialog: "No timer is running.") }
        timers.cancel(timer.id)
        return .result(dialog: "Timer cancelled.")
    }
}

public struct CancelAllTimersIntent: AppIntent {
    public static let title: LocalizedStringResource = "Cancel All Timers"
    @Dependency var timers: VoiceTimers
    public init() {}
    public func perform() async throws -> some IntentResult & ProvidesDialog {
        let all = timers.timersHere
        guard !all.isEmpty else { return .result(dialog: "No timer is running.") }
        for timer in all { timers.cancel(timer.id) }
        return .result(dialog: all.count == 1 ? "Timer cancelled." : "All \(all.count) timers cancelled.")
    }
}

public struct PauseTimerIntent: AppIntent {
    public static let title: LocalizedStringResource = "Pause Timer"
    @Dependency var timers: VoiceTimers
    public init() {}
    public func perform() async throws -> some IntentResult & ProvidesDialog {
        guard let timer = theTimer(timers, \.isActive) else { return .result(dialog: "No timer is running.") }
        timers.setActive(timer.id, false)
        return .result(dialog: "Timer paused.")
    }
}

public struct ResumeTimerIntent: AppIntent {
    public static let title: LocalizedStringResource = "Resume Timer"
    @Dependency var timers: VoiceTimers
    public init() {}
    public func perform() async throws -> some IntentResult & ProvidesDialog {
        guard let timer = theTimer(timers, { !$0.isActive }) else {
            return .result(dialog: "No timer is paused.")
        }
        timers.setActive(timer.id, true)
        return .result(dialog: "Timer resumed.")
    }
}

public struct TimerStatusIntent: AppIntent {
    public static let title: LocalizedStringResource = "Timer Status"
    @Dependency var timers: VoiceTimers
    public init() {}
    public func perform() async throws -> some IntentResult & ProvidesDialog {
        let all = timers.timersHere
        guard let timer = all.last else { return .result(dialog: "No timer is running.") }
        let left = VoiceTimers.Timer.spoken(seconds: timer.secondsLeft)
        let state = timer.isActive ? "" : ", paused"
        let others = all.count == 1 ? "" : " \(all.count - 1) more running."
        return .result(dialog: "\(left) left on \(timer.spokenName)\(state).\(others)")
    }
}

public struct PauseMediaIntent: AppIntent {
    public static let title: LocalizedStringResource = "Pause"
    public init() {}
    public func perform() async throws -> some IntentResult & ProvidesDialog { .result(dialog: "Paused.") }
}

public struct ResumeMediaIntent: AppIntent {
    public static let title: LocalizedStringResource = "Resume"
    public init() {}
    public func perform() async throws -> some IntentResult & ProvidesDialog { .result(dialog: "Playing.") }
}

public struct NextTrackIntent: AppIntent {
    public static let title: LocalizedStringResource = "Next"
    @Parameter(title: "Media Player") public var player: MediaPlayer?
    public init() {}
    public func perform() async throws -> some IntentResult & ProvidesDialog { .result(dialog: "Skipped.") }
}

public struct NevermindIntent: AppIntent {
    public static let title: LocalizedStringResource = "Never Mind"
    public init() {}
    public func perform() async throws -> some IntentResult { .result() }
}

public struct TimeIntent: AppIntent {
    public static let title: LocalizedStringResource = "Time"
    public init() {}
    public func perform() async throws -> some IntentResult & ProvidesDialog {
        .result(dialog: "It's \(Date.now.formatted(date: .omitted, time: .shortened)).")
    }
}

public struct DateIntent: AppIntent {
    public static let title: LocalizedStringResource = "Date"
    public init() {}
    public func perform() async throws -> some IntentResult & ProvidesDialog {
        .result(dialog: "Today is \(Date.now.formatted(date: .complete, time: .omitted)).")
    }
}

public struct TemperatureIntent: AppIntent {
    public static let title: LocalizedStringResource = "Temperature"
    @Parameter(title: "Thermostat") public var thermostat: Thermostat?
    public init() {}
    public func perform() async throws -> some IntentResult & ProvidesDialog {
        .result(dialog: "It's 21 degrees.")
    }
}

public struct WeatherIntent: AppIntent {
    public static let title: LocalizedStringResource = "Weather"
    @Parameter(title: "Place") public var place: Place?
    public init() {}
    public func perform() async throws -> some IntentResult & ProvidesDialog {
        .result(dialog: "It's sunny and 18 degrees.")
    }
}

public struct SensorIntent: AppIntent {
    public static let title: LocalizedStringResource = "Sensor"
    @Parameter(title: "Sensor", requestValueDialog: "Which sensor?") public var sensor: Sensor
    public init() {}
    public func perform() async throws -> some IntentResult & ProvidesDialog {
        .result(dialog: "The \(sensor) is 60 percent.")
    }
}
