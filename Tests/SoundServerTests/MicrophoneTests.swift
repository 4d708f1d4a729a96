import Foundation
import Testing
import VoiceEvaluation
import VoiceTestSupport

/// A real sound server with a virtual microphone: the test starts PulseAudio with a pipe source,
/// speaks into it in real time, and the app hears the command from the default source.
@Suite("Microphone", .serialized)
struct MicrophoneTests {
    @Test(.enabled(if: PrivateSoundServer.isInstalled, PrivateSoundServer.notInstalled))
    func theAppHearsACommandFromTheDefaultSource() async throws {
        try await offThePool {
            let microphone = try PrivateSoundServer()
            defer { microphone.stop() }
            let speech = try TestSpeech.spoken(
                "how busy is kyoto in travel tracking", voice: "en-us", rate: 150)
            let quiet = [Int16](repeating: 0, count: 16_000)
            let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
                .appendingPathComponent("voice-intents")
            try #require(
                FileManager.default.isExecutableFile(atPath: executable.path), "build voice-intents first")

            let process = Process()
            process.executableURL = executable
            process.arguments = ["transcribe", "--microphone", "--match", "--timeout", "20"]
            process.environment = microphone.environment
            process.currentDirectoryURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent()
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            // Quiet first, then the command, then quiet so the end of speech can be heard.
            Thread.sleep(forTimeInterval: 1)
            microphone.speak(quiet + speech + quiet + quiet)
            process.waitUntilExit()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(process.terminationStatus == 0, "\(text)")
            #expect(text.hasPrefix("how busy is kyoto in travel tracking\n"), "\(text)")
            #expect(text.contains("GetCrowdStatusIntent  score 1.00"))
        }
    }

    @Test func aMissingSoundServerIsReportedWithWhatToTry() async throws {
        try await offThePool {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
                .appendingPathComponent("voice-intents")
            process.arguments = ["transcribe", "--microphone", "--timeout", "1"]
            var environment = ProcessInfo.processInfo.environment
            environment["PULSE_SERVER"] = "unix:/nonexistent/pulse/native"
            process.environment = environment
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = Pipe()
            try process.run()
            process.waitUntilExit()
            let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(process.terminationStatus != 0)
            #expect(text.contains("cannot record from the default PulseAudio source"), "\(text)")
            #expect(text.contains("pactl list short sources"))
        }
    }
}
