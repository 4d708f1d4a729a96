import Foundation
import Testing
import VoiceTestSupport

extension WyomingServerTests {
    /// A name the app adds while the server runs is heard from then on, with no restart: Home
    /// Assistant's agent adds "flour" to SmartHome's shopping list (text, which takes any item),
    /// the app says its names changed, and the same spoken command, heard as something else
    /// before, is transcribed whole.
    @Test func aNameAddedWhileServingIsHeardWithoutARestart() async throws {
        try await offThePool { try Self.aNameAddedWhileServingIsHeard() }
    }

    static func aNameAddedWhileServingIsHeard() throws {
        let python = try python()
        let command = FileManager.default.temporaryDirectory.appendingPathComponent("flour-\(UUID()).wav")
        defer { try? FileManager.default.removeItem(at: command) }
        let said = try Executables.run(
            "voice-intents",
            [
                "say", "add flour to my shopping list", "-o", command.path, "--voice", "en-us+f2",
                "--sample-rate", "16000",
            ])
        try #require(said.status == 0, "\(said.errors)")
        let sentence = "add flour to my shopping list"
        // The grammar lets a command begin with a hesitation ("uh add …").
        func heard(_ transcript: [String: Any]) -> Bool {
            let words = (transcript["transcript"] as? String ?? "").split(separator: " ")
            return words.drop { ["uh", "um"].contains($0) }.joined(separator: " ") == sentence
        }
        try withServer(app: "smart-home") { uri in
            let before = try ask(python, uri, ["transcribe", command.path])
            #expect(!heard(before), "\(before)")
            let added = try ask(python, uri, ["handle", sentence])
            #expect(added["text"] as? String == "Added flour to your Shopping List.", "\(added)")
            // The grammar is made again in the background, in a fraction of a second.
            let deadline = Date().addingTimeInterval(30)
            var after = try ask(python, uri, ["transcribe", command.path])
            while !heard(after), Date() < deadline {
                Thread.sleep(forTimeInterval: 0.5)
                after = try ask(python, uri, ["transcribe", command.path])
            }
            #expect(heard(after), "\(after)")
        }
    }
}
