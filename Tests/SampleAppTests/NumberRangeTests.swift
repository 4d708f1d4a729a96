import Foundation
import PhraseMatching
import SmartHome
import Testing
import VoiceAudio
import VoiceIntents
import VoiceTestSupport

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

    /// Numbers of three digits and more, said as people say them, are heard by voice and reach
    /// the timer's seconds (unbounded, so its grammar says up to the thousands). eSpeak NG says
    /// them (not people).
    @Test(arguments: [
        ("set a timer for one hundred and twenty seconds", 120),
        ("set a timer for twelve hundred seconds", 1200),
        ("set a timer for two thousand seconds", 2000),
    ])
    func largeNumbersAreHeard(_ sentence: String, _ seconds: Int) async throws {
        try await offThePool {
            let folder = try temporaryFolder("numbers")
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("said.wav")
            try WAVFile.write(
                AudioBuffer(
                    int16: try TestSpeech.spoken(sentence, voice: "en-us", rate: 160), sampleRate: 16_000),
                to: file)
            let heard = try Executables.run(
                "voice-intents", ["transcribe", "--app", "smart-home", "--match", file.path])
            #expect(heard.status == 0, "\(heard.errors)")
            #expect(heard.output.hasPrefix(sentence + "\n"), "\(heard.output)")
            #expect(heard.output.contains("seconds = \(seconds)"), "\(heard.output)")
        }
    }
}
