// The sample apps as the benchmarks load them: with their dependencies and their phrase catalogs.

import Foundation
import Library
import PhraseMatching
import TravelTracking
import VoiceIntents

/// The package's `Phrases` folder.
public let packagePhrases = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Phrases")

/// One sample app: its executable name, its declaration, and how its dependencies are registered.
public struct SampleApp: Sendable {
    public let name: String
    public let description: AppDescription
    public let register: @Sendable (AppDependencyManager) -> Void

    /// TravelTracking and Library.
    public static let all = [
        SampleApp(
            name: "travel-tracking", description: AppDescription(TravelTrackingApp.self),
            register: TravelTrackingApp.registerDependencies),
        SampleApp(
            name: "library", description: AppDescription(LibraryApp.self),
            register: LibraryApp.registerDependencies),
    ]

    /// The matcher over the app's Swift phrases and its English catalog, its dependencies
    /// registered in a manager of its own.
    public func matcher(phrases: URL = packagePhrases) async throws -> PhraseMatcher {
        let dependencies = AppDependencyManager()
        register(dependencies)
        return try await AppDependencyManager.$current.withValue(dependencies) {
            try await PhraseMatcher(
                app: description, catalog: try PhraseCatalog.load(app: name, locale: "en", in: phrases))
        }
    }

    /// The app's English phrase tests.
    public func testCases(phrases: URL = packagePhrases) throws -> [PhraseTestSuite.Case] {
        try PhraseTestSuite.load(from: phrases.appendingPathComponent("en/tests/\(name).yaml")).cases
    }
}
