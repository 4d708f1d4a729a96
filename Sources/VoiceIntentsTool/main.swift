import ArgumentParser
import Library
import SmartHome
import TravelTracking
import VoiceIntentsCLI

/// The sample apps that `voice-intents` serves; `--app` picks one (TravelTracking by default).
enum SampleApps: AppSet {
    static var apps: [AppContext] {
        [AppContext(TravelTrackingApp.self), AppContext(LibraryApp.self), AppContext(SmartHomeApp.self)]
    }
}

await SampleApps.main()
