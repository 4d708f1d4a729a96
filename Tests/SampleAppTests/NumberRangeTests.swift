import Foundation
import PhraseMatching
import SmartHome
import Testing
import VoiceIntents

/// SmartHome's brightness is declared `inclusiveRange: (0, 100)`: a number outside is no value,
/// so the command is heard without one and the runtime asks.
@Suite("Numbers within bounds")
struct NumberRangeTests {
    static let phrases = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Phrases")

    @Test func aNumberOutsideTheRangeFillsNothing() async throws {
        let matcher = try await PhraseMatcher(
            app: AppDescription(SmartHomeApp.self),
            catalog: try PhraseCatalog.load(app: "smart-home", locale: "en", in: Self.phrases))
        let within = try #require(await matcher.match("set Bed Light brightness to 100 percent").best)
        #expect(within.values["brightness"]?.value as? Int == 100)
        let beyond = await matcher.match("set Bed Light brightness to 150 percent")
        #expect(beyond.best.map { $0.values["brightness"]?.isKnown != true } ?? true)
        #expect(beyond.best?.values["brightness"]?.value as? Int != 150)
    }
}
