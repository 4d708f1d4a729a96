import Foundation
import Testing
import VoiceTestSupport

@testable import VoiceAudio

/// A program outside this package embeds the voice loop: `Examples/EmbeddedLoop`, a package of its
/// own that depends on this one by path, as an app's package would by URL. It builds without the
/// command-line parser and, copied to a folder outside the repository with the models the package
/// ships, hears a person's recorded commands, runs them and says the replies.
@Suite("A package of its own embeds the loop")
struct EmbeddedPackageTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let example = root.appendingPathComponent("Examples/EmbeddedLoop")

    @Test func aProgramOfItsOwnRunsAPersonsCommands() throws {
        // Scripts/test.sh builds it before the tests; here that is a check that it is current.
        let build = try Executables.run(
            command: "swift", ["build", "--package-path", Self.example.path], in: Self.example)
        try #require(build.status == 0, "\(build.output)\(build.errors)")
        let binaries = Self.example.appendingPathComponent(".build/debug")
        let modules = binaries.appendingPathComponent("Modules")
        #expect(
            FileManager.default.fileExists(
                atPath: modules.appendingPathComponent("VoiceLoop.swiftmodule").path))
        #expect(
            !FileManager.default.fileExists(
                atPath: modules.appendingPathComponent("ArgumentParser.swiftmodule").path),
            "the loop alone needs no command-line parser")

        // Two of a person's commands, one after the other, as one recording.
        var samples: [Float] = []
        for name in ["turn_on_the_living_room_lamp.wav", "turn_the_living_room_lamp_off.wav"] {
            let recording = try PeoplesRecordings.file("rhasspy-test-en", name)
            samples += try WAVFile.read(from: recording).resampled(to: 16_000).samples
        }
        let commands = FileManager.default.temporaryDirectory.appendingPathComponent("lamp-\(UUID()).wav")
        let replies = FileManager.default.temporaryDirectory.appendingPathComponent(
            "lamp-replies-\(UUID()).wav")
        defer {
            try? FileManager.default.removeItem(at: commands)
            try? FileManager.default.removeItem(at: replies)
        }
        try WAVFile.write(AudioBuffer(samples: samples, sampleRate: 16_000), to: commands)

        // Run as an app is run outside this repository: from a folder of its own, with the models
        // the package ships beside it (no VOICE_INTENTS_MODELS, no Models folder above it).
        let elsewhere = FileManager.default.temporaryDirectory.appendingPathComponent("lamp-app-\(UUID())")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: elsewhere) }
        let copied = try Executables.run(
            command: "cp",
            [
                "-R", binaries.appendingPathComponent("EmbeddedLoop").path,
                binaries.appendingPathComponent("VoiceIntents_VoiceModels.resources").path, elsewhere.path,
            ], in: elsewhere)
        try #require(copied.status == 0, "\(copied.errors)")
        var environment = ProcessInfo.processInfo.environment
        environment["VOICE_INTENTS_MODELS"] = nil
        let run = try Executables.run(
            command: elsewhere.appendingPathComponent("EmbeddedLoop").path, [commands.path, replies.path],
            in: elsewhere, environment: environment)
        #expect(run.status == 0, "\(run.output)\(run.errors)")
        #expect(
            run.output.contains(
                #"turn on the living room lamp → SwitchLampIntent ["The living room lamp is on."]"#),
            "\(run.output)")
        #expect(
            run.output.contains(
                #"turn the living room lamp off → SwitchLampIntent ["The living room lamp is off."]"#),
            "\(run.output)")
        // The replies, heard back among what the lamp and the loop could have said.
        let said = [
            "The living room lamp is on.", "The living room lamp is off.", "Sorry, I didn't understand that.",
        ]
        #expect(
            try SpokenConversation.heardReplyText(in: replies, among: said)
                == SpokenConversation.spoken(Array(said[0..<2])))
    }
}
