import Foundation
import Testing
import VoiceAudio
import VoiceTestSupport

extension WyomingServerTests {
    /// Whether to run the newest Home Assistant that installs here (2025.4, on Python 3.13): its
    /// installation takes about five minutes, more than the whole suite may. Set
    /// `VOICE_INTENTS_NEWEST_HOME_ASSISTANT=1` to run it; 2024.1 runs always.
    static let runsNewestHomeAssistant =
        ProcessInfo.processInfo.environment["VOICE_INTENTS_NEWEST_HOME_ASSISTANT"] == "1"

    /// Home Assistant 2025.4's own Wyoming integration against the server, as it runs when the
    /// service is added: it finds speech to text, text to speech, wake words and a conversation
    /// agent in `info`; its speech-to-text entity hears a person's command, its text-to-speech
    /// entity's audio is heard back, and its conversation agent runs the command. A room's own
    /// address is a service named for the room, whose commands that name none are the room's.
    @Test(.enabled(if: runsNewestHomeAssistant, "VOICE_INTENTS_NEWEST_HOME_ASSISTANT=1 runs it"))
    func theNewestHomeAssistantsIntegrationUsesTheServer() async throws {
        try await offThePool { try Self.newestHomeAssistantUsesTheServer() }
    }

    static func newestHomeAssistantUsesTheServer() throws {
        let python = try python(
            with: "homeassistant", version: "2025.4.4", interpreter: "python3.13", also: ["wyoming==1.5.4"])
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("home-assistant-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let recording = folder.appendingPathComponent("command.wav")
        let person = try WAVFile.read(from: recordings.appendingPathComponent("turn_the_garage_light_on.wav"))
        try WAVFile.write(person.resampled(to: 16_000), to: recording)
        let reply = folder.appendingPathComponent("reply.wav")
        try withServer { uri in
            let result = try runHomeAssistant(
                python,
                [
                    uri, recording.path, reply.path, "turn the garage light on", "--command",
                    "turn the garage light on",
                ],
                in: folder)
            #expect(result["platforms"] as? [String] == ["conversation", "stt", "tts", "wake_word"])
            #expect(result["stt_result"] as? String == "success")
            #expect(result["transcript"] as? String == "turn the garage light on")
            #expect(result["conversation_speech"] as? String == "Turned On the Garage Light.", "\(result)")
            let back = try ask(try Self.python(), uri, ["transcribe", reply.path])
            #expect(back["transcript"] as? String == "turn the garage light on")
        }
        // A room's own address, added as a service of its own: Home Assistant names it after the
        // room, and its agent's command that names no room is the room's.
        let office = folder.appendingPathComponent("office.wav")
        let said = try WAVFile.read(
            from: PeoplesRecordings.file("speech-to-phrase-en", "turn off lights in the Office.wav"))
        try WAVFile.write(said.resampled(to: 16_000), to: office)
        try withRooms(app: "smart-home", options: ["--room", "Kitchen=tcp://127.0.0.1:0"]) { _, rooms in
            let result = try runHomeAssistant(
                python,
                [
                    try #require(rooms["Kitchen"]), office.path, reply.path, "Done.", "--command",
                    "turn off the lights",
                ],
                in: folder)
            #expect(result["name"] as? String == "voice-intents (Kitchen)", "\(result)")
            #expect(result["transcript"] as? String == "turn off lights in the office", "\(result)")
            #expect(
                result["conversation_speech"] as? String == "Turned off the lights in the Kitchen.",
                "\(result)")
        }
    }
}
