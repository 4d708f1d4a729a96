import Foundation
import HomeLights
import Library
import PhraseMatching
import SmartHome
import Testing
import TravelTracking
import VoiceIntents
import VoiceRecognition
import VoiceUnderstanding

/// The repository's models (`Models/en`) and the sample apps' matchers, as the tests load them.
package enum TestModels {
    package static let models = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Models/en")

    package static func matcher<App: VoiceApp>(_ app: App.Type, _ file: String) async throws -> PhraseMatcher
    {
        let dependencies = AppDependencyManager()
        if app == TravelTrackingApp.self { TravelTrackingApp.registerDependencies(in: dependencies) }
        if app == LibraryApp.self { LibraryApp.registerDependencies(in: dependencies) }
        return try await AppDependencyManager.$current.withValue(dependencies) {
            try await PhraseMatcher(
                app: AppDescription(app),
                catalog: try PhraseCatalog.load(
                    app: file, locale: "en",
                    in: models.deletingLastPathComponent().deletingLastPathComponent()
                        .appendingPathComponent("Phrases")))
        }
    }

    /// The matcher of the sample whose phrase file is `file` (`travel-tracking`, `library`,
    /// `smart-home`, `home-lights`).
    package static func matcher(sample file: String) async throws -> PhraseMatcher {
        switch file {
        case "library": try await matcher(LibraryApp.self, file)
        case "smart-home": try await matcher(SmartHomeApp.self, file)
        case "home-lights": try await matcher(HomeLightsApp.self, file)
        default: try await matcher(TravelTrackingApp.self, file)
        }
    }

    package static func configuration() throws -> SpeechRecognizer.Configuration {
        try SpeechRecognizer.Configuration(manifest: models.appendingPathComponent("manifest.yaml"))
    }

    /// The manifest's configuration without the audio front end: for the tests of the grammar's
    /// mechanics, which hear eSpeak NG's clean clips whole (`recognize`). The denoiser starts
    /// each whole clip knowing no noise, and on those clips it costs words (the phrase suites'
    /// round trip: 79% word for word without it, 70% with it); what it is for, people in
    /// noise, is tested on people's recordings (`AudioFrontEndTests`).
    package static func grammarConfiguration() throws -> SpeechRecognizer.Configuration {
        var configuration = try configuration()
        configuration.frontEnd = nil
        return configuration
    }

    package static func travelTrackingMatcher() async throws -> PhraseMatcher {
        try await matcher(TravelTrackingApp.self, "travel-tracking")
    }

    package static func libraryMatcher() async throws -> PhraseMatcher {
        try await matcher(LibraryApp.self, "library")
    }
}
