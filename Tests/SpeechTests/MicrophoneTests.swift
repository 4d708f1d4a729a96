import Foundation
import Speech
import Testing

/// A real sound server with a virtual microphone: the test starts PulseAudio with a pipe source,
/// speaks into it in real time, and the app hears the command from the default source.
@Suite("Microphone", .serialized)
struct MicrophoneTests {
    /// A private PulseAudio server whose default source is a FIFO the test writes to.
    final class VirtualMicrophone {
        let folder: URL
        let fifo: URL
        let environment: [String: String]

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "vmic-\(UUID().uuidString.prefix(8))")
            for sub in ["run", "home"] {
                try FileManager.default.createDirectory(
                    at: folder.appendingPathComponent(sub), withIntermediateDirectories: true)
            }
            fifo = folder.appendingPathComponent("vmic.fifo")
            var environment = ProcessInfo.processInfo.environment
            environment["PULSE_RUNTIME_PATH"] = folder.appendingPathComponent("run").path
            environment["XDG_RUNTIME_DIR"] = folder.appendingPathComponent("run").path
            environment["HOME"] = folder.appendingPathComponent("home").path
            self.environment = environment
            try run(
                "pulseaudio",
                [
                    "-D", "-n", "--exit-idle-time=-1", "--disallow-exit", "--use-pid-file=yes",
                    "-L", "module-native-protocol-unix auth-anonymous=1",
                    "-L", "module-null-sink sink_name=nullsink rate=16000 channels=1",
                ])
            // The pipe source is loaded once the server runs; it makes the FIFO itself.
            try run(
                "pactl",
                [
                    "load-module", "module-pipe-source", "source_name=vmic", "file=\(fifo.path)",
                    "format=s16le",
                    "rate=16000", "channels=1",
                ])
            try run("pactl", ["set-default-source", "vmic"])
        }

        @discardableResult
        func run(_ tool: String, _ arguments: [String]) throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/\(tool)")
            process.arguments = arguments
            process.environment = environment
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            try process.run()
            process.waitUntilExit()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            guard process.terminationStatus == 0 else {
                throw SpeechError(
                    .deviceUnavailable, "\(tool) \(arguments.joined(separator: " ")) failed: \(text)")
            }
            return text
        }

        /// Signalled when the writer has finished (or given up).
        private let finished = DispatchSemaphore(value: 0)
        private var speaking = false

        /// Writes `samples` into the microphone in 100 ms blocks at the pace of a real one.
        func speak(_ samples: [Int16]) {
            // A reader that goes away must end the writer, not the test process.
            signal(SIGPIPE, SIG_IGN)
            speaking = true
            Thread.detachNewThread { [fifo, finished] in
                defer { finished.signal() }
                guard let handle = FileHandle(forWritingAtPath: fifo.path) else { return }
                let block = 1_600
                var offset = 0
                let started = Date()
                while offset < samples.count {
                    let end = min(offset + block, samples.count)
                    let data = samples[offset..<end].withUnsafeBytes { Data($0) }
                    guard (try? handle.write(contentsOf: data)) != nil else { break }
                    offset = end
                    let due = started.addingTimeInterval(Double(offset) / 16_000)
                    Thread.sleep(forTimeInterval: max(0, due.timeIntervalSinceNow))
                }
                try? handle.close()
            }
        }

        /// Stops the server (which ends a writer still blocked on the FIFO), waits for the writer,
        /// and removes the files.
        func stop() {
            defer {
                if speaking { _ = finished.wait(timeout: .now() + 10) }
                try? FileManager.default.removeItem(at: folder)
            }
            let pidFile = folder.appendingPathComponent("run/pid")
            if let pid = (try? String(contentsOf: pidFile, encoding: .utf8)).flatMap({
                Int32($0.trimmingCharacters(in: .whitespacesAndNewlines))
            }) {
                kill(pid, SIGTERM)
            }
        }
    }

    @Test func theAppHearsACommandFromTheDefaultSource() throws {
        let microphone = try VirtualMicrophone()
        defer { microphone.stop() }
        let speech = try RoundTripTests.spoken(
            "how busy is uluru in travel tracking", voice: "en-us", rate: 150)
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
        #expect(text.hasPrefix("how busy is uluru in travel tracking\n"), "\(text)")
        #expect(text.contains("GetCrowdStatusIntent  score 1.00"))
    }

    @Test func aMissingSoundServerIsReportedWithWhatToTry() throws {
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
