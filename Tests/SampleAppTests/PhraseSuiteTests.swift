import Foundation
import Library
import PhraseMatching
import Testing
import TravelTracking
import VoiceIntents
import VoiceTestSupport

/// The sample apps' phrase suites (Phrases/en/tests/), one test case per sentence.
@Suite("Phrase suites")
struct PhraseSuiteTests {
    static let phrases = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Phrases")

    /// The matcher of each app, compiled once for all its cases.
    static let travelTracking = Task { try await TestModels.travelTrackingMatcher() }
    static let library = Task { try await TestModels.libraryMatcher() }

    @Test(arguments: try PhraseTestSuite.cases(in: "Phrases/en/tests/travel-tracking.yaml"))
    func travelTracking(_ testCase: PhraseTestSuite.Case) async throws {
        let result = try await Self.travelTracking.value.run(testCase)
        #expect(result.passed, "\(result)")
    }

    @Test(arguments: try PhraseTestSuite.cases(in: "Phrases/en/tests/library.yaml"))
    func library(_ testCase: PhraseTestSuite.Case) async throws {
        let result = try await Self.library.value.run(testCase)
        #expect(result.passed, "\(result)")
    }

    /// Speech that is a command for no app: neither sample may take any of it for one.
    @Test(arguments: try PhraseTestSuite.cases(in: "Phrases/en/tests/out-of-domain.yaml"))
    func outOfDomain(_ testCase: PhraseTestSuite.Case) async throws {
        #expect(testCase.expectation == .noMatch, "\(testCase.source)")
        for matcher in [Self.travelTracking, Self.library] {
            let result = try await matcher.value.run(testCase)
            #expect(result.passed, "\(result)")
        }
    }

    @Test func suitesAreAsLargeAsTheIssueAsks() throws {
        for file in ["travel-tracking", "library"] {
            let cases = try PhraseTestSuite.cases(in: "Phrases/en/tests/\(file).yaml")
            let none = cases.filter { $0.expectation == .noMatch }
            #expect(cases.count - none.count >= 150, "\(file)")
            #expect(none.count >= 30, "\(file)")
            // Issue 7: near misses, at the end of each app's file under their own heading.
            let text = try String(
                contentsOf: Self.phrases.appendingPathComponent("en/tests/\(file).yaml"), encoding: .utf8)
            let nearMisses = text.components(separatedBy: "-- near misses").last ?? ""
            #expect(nearMisses.split(separator: "\n").count { $0.contains("say:") } >= 25, "\(file)")
        }
        let outOfDomain = try PhraseTestSuite.cases(in: "Phrases/en/tests/out-of-domain.yaml")
        #expect(outOfDomain.count >= 110)
    }
}
