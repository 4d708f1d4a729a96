import Foundation
import PhraseMatching
import SmartHome
import Testing
import VoiceLoop
import VoiceTestSupport

@testable import VoiceIntentsCLI

/// `--other-speech-of`: another app's recordings as speech that is no command of this one.
@Suite("Other apps' recordings as other speech")
struct OtherSpeechTests {
    /// Each recording becomes a test that expects nothing, but for a sentence this app's phrases
    /// match word for word (a command of both), which is left out, and one this app's own tests
    /// already hold. Tests without a recording are not taken.
    @Test func anotherAppsRecordingsAreSpeechThatIsNoCommand() async throws {
        let folder = try temporaryFolder("other-speech")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("other.yaml")
        try """
        tests:
          - { say: "turn on the garage light", intent: SwitchLightIntent, audio: "a.wav" }
          - { say: "what time is it", intent: TimeIntent, audio: "b.wav" }
          - { say: "is the front door locked", intent: LockStateIntent, audio: "c.wav" }
          - { say: "turn off the garage light", intent: SwitchLightIntent }
        """.write(to: file, atomically: true, encoding: .utf8)
        let own = PhraseTestSuite.Case(
            sentence: "is the Front Door locked", expectation: .noMatch,
            source: PhraseSource(file: "own.yaml", line: 1, column: 1))
        let others = try await SpokenTestOptions.otherSpeech(
            [file], besides: [own], matcher: try await TestModels.matcher(SmartHomeApp.self, "smart-home"),
            app: AppContext(SmartHomeApp.self))
        #expect(others.map(\.sentence) == ["turn on the garage light"])
        #expect(others.first?.expectation == .noMatch)
        #expect(others.first?.audio?.lastPathComponent == "a.wav")
    }
}
