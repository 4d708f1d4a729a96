import Foundation
import Testing

/// The voice loop on a private sound server's live microphone: `travel-tracking listen` (or
/// another command) started on it, and its output read as it comes.
package enum LiveLoop {
    /// `travel-tracking listen` (or another of its commands) started on the server, its output
    /// read as it comes.
    package final class Listener: @unchecked Sendable {  // `text` behind `lock`
        package let process: Process
        private let lock = NSLock()
        private var text = ""
        private var errorText = ""

        /// `listen` from the microphone waits for a wake word by default; the loop started here
        /// hears every command unless `arguments` choose a wake word or phrase, or
        /// `keepsTheDefaultWakeWord`.
        package init(
            _ arguments: [String], environment: [String: String]? = nil, command: String = "listen",
            executable: String = "travel-tracking", keepsTheDefaultWakeWord: Bool = false
        ) throws {
            let choosesWake = arguments.contains {
                ["--wake-word", "--wake-phrase", "--input", "--text"].contains($0)
            }
            let arguments =
                command == "listen" && !choosesWake && !keepsTheDefaultWakeWord
                ? arguments + ["--wake-word", "none"] : arguments
            process = try Executables.process(executable, [command] + arguments, environment: environment)
            let output = Pipe()
            let errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            for (pipe, isError) in [(output, false), (errors, true)] {
                Thread.detachNewThread { [self] in
                    while case let data = pipe.fileHandleForReading.availableData, !data.isEmpty {
                        lock.withLock {
                            if isError {
                                errorText += String(decoding: data, as: UTF8.self)
                            } else {
                                text += String(decoding: data, as: UTF8.self)
                            }
                        }
                    }
                }
            }
        }

        package var output: String { lock.withLock { text } }
        package var errors: String { lock.withLock { errorText } }

        /// Waits until standard output (or standard error, with `inErrors`) contains `text`;
        /// `false` after `timeout` seconds or when the process has ended without it.
        package func waitFor(_ text: String, inErrors: Bool = false, timeout: Double = 30) -> Bool {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                let running = process.isRunning
                if (inErrors ? errors : output).contains(text) { return true }
                if !running { return false }
                Thread.sleep(forTimeInterval: 0.05)
            }
            return false
        }

        /// Waits until the last reply printed so far has been played to its end or cut short, as
        /// the loop's log (`--verbose`) tells, and a little more, as a person waits for the
        /// loudspeaker to fall quiet before answering; `false` after `timeout` seconds.
        @discardableResult
        package func waitForTheReplyToEnd(timeout: Double = 30) -> Bool {
            let replies = output.split(separator: "\n").filter { $0.hasPrefix("< ") }.count
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                let ended = errors.split(separator: "\n").filter {
                    $0.contains("reply played") || $0.contains("reply cut short")
                }.count
                if ended >= replies {
                    Thread.sleep(forTimeInterval: 0.5)
                    return true
                }
                Thread.sleep(forTimeInterval: 0.05)
            }
            return false
        }

        /// Stops the loop as a service manager would, and waits for it to exit; one that has not
        /// exited after 30 s is killed (`SIGKILL`'s status), so a hung loop fails its test
        /// instead of holding up the suite.
        package func terminate() -> Int32 {
            process.terminate()  // SIGTERM
            let deadline = Date().addingTimeInterval(30)
            while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            Thread.sleep(forTimeInterval: 0.2)  // the last of its output
            return process.terminationStatus
        }
    }

    /// Starts a private sound server with a live microphone and `travel-tracking listen
    /// <arguments>` on it, waits until it listens, and runs `body`; stops everything after.
    /// `executable` is the app's (`voice-intents` serves every sample app); `room`, when given,
    /// builds the room the loop plays into before the loop starts.
    package static func withListener(
        _ arguments: [String], executable: String = "travel-tracking", keepsTheDefaultWakeWord: Bool = false,
        room: ((PrivateSoundServer, LiveMicrophone) throws -> Room)? = nil,
        _ body: (PrivateSoundServer, LiveMicrophone, Listener) throws -> Void
    ) throws {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        let microphone = server.liveMicrophone()
        defer { microphone.close() }
        let room = try room?(server, microphone)
        defer { room?.stop() }
        let listener = try Listener(
            arguments, environment: server.environment, executable: executable,
            keepsTheDefaultWakeWord: keepsTheDefaultWakeWord)
        defer { if listener.process.isRunning { listener.process.terminate() } }
        try #require(listener.waitFor("listening to", inErrors: true), "\(listener.errors)")
        Thread.sleep(forTimeInterval: 1)  // the detector learns the noise floor
        try body(server, microphone, listener)
    }

    /// Brings travel tracking's loop to its longest question, as a person would: "delete a
    /// collection", "summer trip" once asked which, and the choice read out with its options
    /// ("Do you want to archive or delete Summer Trip? The first, Cancel. …", several seconds of
    /// speech), which has just started when this returns. The person answers once the loop has
    /// finished asking (its log, `--verbose`, says when): on a loaded machine a question still
    /// played when a fixed wait had passed, its echo as loud as the person. Asked again
    /// ("Sorry, I didn't catch that"), the person says it again, as people do. What the tests
    /// check comes after this.
    package static func askTheLongestQuestion(_ microphone: LiveMicrophone, _ listener: Listener) throws {
        microphone.say(try spoken("delete a collection in travel tracking"))
        #expect(listener.waitFor("< Which collection?\n"), "\(listener.output)")
        let question = "< Do you want to archive or delete Summer Trip?"
        #expect(listener.waitForTheReplyToEnd(), "\(listener.errors)")
        microphone.say(try spoken("summer trip"))
        let again = "< Sorry, I didn't catch that. Which collection?\n"
        var asked = false
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, !listener.output.contains(question) {
            if !asked, listener.output.contains(again) {
                asked = true
                #expect(listener.waitForTheReplyToEnd(), "\(listener.errors)")
                microphone.say(try spoken("summer trip"))
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(listener.output.contains(question), "\(listener.output)")
    }

    package static func spoken(_ sentence: String) throws -> [Int16] {
        try TestSpeech.spoken(sentence, voice: "en-us", rate: 160)
    }
}

extension LiveLoop {
    /// What the loop's log (`--verbose`) says of the last reply it cut short: seconds played, and
    /// of how many; `nil` when it cut none.
    package static func cutShort(in log: String) -> (played: Double, of: Double)? {
        guard let line = log.split(separator: "\n").last(where: { $0.contains("reply cut short") }) else {
            return nil
        }
        func seconds(_ key: String) -> Double? {
            guard let range = line.range(of: "\(key)=") else { return nil }
            return Double(line[range.upperBound...].prefix { $0.isNumber || $0 == "." })
        }
        guard let played = seconds("played"), let total = seconds("of") else { return nil }
        return (played, total)
    }
}
