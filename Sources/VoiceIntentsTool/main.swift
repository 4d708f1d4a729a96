import ArgumentParser
import HomeLights
import Library
import SmartHome
import TravelTracking
import VoiceIntentsCLI

/// The sample apps that `voice-intents` serves; `--app` picks one (TravelTracking by default).
enum SampleApps: AppSet {
    static var apps: [AppContext] {
        [
            AppContext(TravelTrackingApp.self), AppContext(LibraryApp.self), AppContext(SmartHomeApp.self),
            AppContext(HomeLightsApp.self),
        ]
    }
}

await SampleApps.main()
