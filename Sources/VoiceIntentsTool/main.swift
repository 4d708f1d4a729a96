import ArgumentParser
import Library
import TravelTracking
import VoiceIntentsCLI

/// The sample apps that `voice-intents` serves; `--app` picks one (TravelTracking by default).
enum SampleApps: AppSet {
    static var apps: [AppContext] { [AppContext(TravelTrackingApp.self), AppContext(LibraryApp.self)] }
}

await SampleApps.main()
