import VoiceIntents

// The House sample's intents: lights by name, by room and by floor, brightness and color, blinds
// and the garage door, the heating, the door locks and the speakers' volume. They share most of
// their words ("turn", "on", "off", "set", "to", "the … lights", "percent"), which is the point:
// the sample is a stress test for the phrase matcher (issue 22). The replies stand in for a
// real house.

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

public struct TurnOnFloorLightsIntent: AppIntent {
    public static let title: LocalizedStringResource = "Turn On Lights on Floor"
    @Parameter(title: "Floor", requestValueDialog: "On which floor?") public var floor: Floor
    public init() {}
    public func perform() async throws -> some IntentResult & ProvidesDialog {
        .result(dialog: "Turned on the lights: \(floor).")
    }
}

public struct TurnOffFloorLightsIntent: AppIntent {
    public static let title: LocalizedStringResource = "Turn Off Lights on Floor"
    @Parameter(title: "Floor", requestValueDialog: "On which floor?") public var floor: Floor
    public init() {}
    public func perform() async throws -> some IntentResult & ProvidesDialog {
        .result(dialog: "Turned off the lights: \(floor).")
    }
}

/// One light's brightness, or a room's; with neither, the runtime asks for the light.
public struct SetBrightnessIntent: AppIntent {
    public static let title: LocalizedStringResource = "Set Brightness"
    @Parameter(title: "Light") public var light: Light?
    @Parameter(title: "Area") public var area: Area?
    @Parameter(title: "Brightness", requestValueDialog: "How bright, in percent?")
    public var brightness: Int
    public init() {}
    public func perform() async throws -> some IntentResult & ProvidesDialog {
        let level = min(max(brightness, 0), 100)
        if let light { return .result(dialog: "The \(light) is at \(level) percent.") }
        if let area { return .result(dialog: "The \(area) lights are at \(level) percent.") }
        throw $light.requestValue("Which light?")
    }
}

/// One light's color, or a room's lights'; with neither, the runtime asks for the room.
public struct SetLightColorIntent: AppIntent {
    public static let title: LocalizedStringResource = "Set Light Color"
    @Parameter(title: "Light") public var light: Light?
    @Parameter(title: "Area") public var area: Area?
    @Parameter(title: "Color", requestValueDialog: "Which color?") public var color: LightColor
    public init() {}
    public func perform() async throws -> some IntentResult & ProvidesDialog {
        if let light { return .result(dialog: "The \(light) is \(color) now.") }
        if let area { return .result(dialog: "The \(area) lights are \(color) now.") }
        throw $area.requestValue("In which room?")
    }
}

public struct OpenCoverIntent: AppIntent {
    public static let title: LocalizedStringResource = "Open Cover"
    @Parameter(title: "Cover", requestValueDialog: "Which one?") public var cover: Cover
    public init() {}
    public func perform() async throws -> some IntentResult & ProvidesDialog {
        .result(dialog: "Opening the \(cover).")
    }
}

public struct CloseCoverIntent: AppIntent {
    public static let title: LocalizedStringResource = "Close Cover"
    @Parameter(title: "Cover", requestValueDialog: "Which one?") public var cover: Cover
    public init() {}
    public func perform() async throws -> some IntentResult & ProvidesDialog {
        .result(dialog: "Closing the \(cover).")
    }
}

/// The heating's target temperature, in a room or (without one) the whole house.
public struct SetTemperatureIntent: AppIntent {
    public static let title: LocalizedStringResource = "Set Temperature"
    @Parameter(title: "Area") public var area: Area?
    @Parameter(title: "Temperature", requestValueDialog: "How many degrees?") public var temperature: Int
    public init() {}
    public func perform() async throws -> some IntentResult & ProvidesDialog {
        if let area { return .result(dialog: "The \(area) is set to \(temperature) degrees.") }
        return .result(dialog: "The heating is set to \(temperature) degrees.")
    }
}

public struct GetTemperatureIntent: AppIntent {
    public static let title: LocalizedStringResource = "Get Temperature"
    @Parameter(title: "Area") public var area: Area?
    public init() {}
    public func perform() async throws -> some IntentResult & ProvidesDialog {
        if let area { return .result(dialog: "It's 21 degrees in the \(area).") }
        return .result(dialog: "It's 21 degrees inside.")
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

public struct SetVolumeIntent: AppIntent {
    public static let title: LocalizedStringResource = "Set Volume"
    @Parameter(title: "Media Player", requestValueDialog: "On which speaker?") public var player: MediaPlayer
    @Parameter(title: "Volume", requestValueDialog: "How loud, in percent?") public var volume: Int
    public init() {}
    public func perform() async throws -> some IntentResult & ProvidesDialog {
        .result(dialog: "The \(player) volume is \(min(max(volume, 0), 100)) percent.")
    }
}

public struct GetSensorStateIntent: AppIntent {
    public static let title: LocalizedStringResource = "Sensor State"
    @Parameter(title: "Sensor", requestValueDialog: "Which sensor?") public var sensor: Sensor
    @Parameter(title: "State") public var state: SensorState?
    public init() {}
    public func perform() async throws -> some IntentResult & ProvidesDialog {
        .result(dialog: "The \(sensor.id) is \(state?.rawValue ?? "fine").")
    }
}
