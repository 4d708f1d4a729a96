import Foundation
import PhraseMatching
import Testing
import VoiceEvaluation

@testable import VoiceAudio
@testable import VoiceRecognition
@testable import VoiceUnderstanding

/// The voice loop on a live microphone: a private PulseAudio server whose default source the
/// test speaks into in real time, a reply played on its null sink, a person who waits for the
/// question before answering, and a service manager that stops the loop with SIGTERM.
@Suite("Live voice loop", .serialized)
struct LiveLoopTests {
    /// `travel-tracking listen` (or another of its commands) started on the server, its output
    /// read as it comes.
    final class Listener: @unchecked Sendable {  // `text` behind `lock`
        let process: Process
        private let lock = NSLock()
        private var text = ""
        private var errorText = ""

        init(
            _ arguments: [String], environment: [String: String]? = nil, command: String = "listen",
            executable: String = "travel-tracking"
        ) throws {
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

        var output: String { lock.withLock { text } }
        var errors: String { lock.withLock { errorText } }

        /// Waits until standard output (or standard error, with `inErrors`) contains `text`;
        /// `false` after `timeout` seconds or when the process has ended without it.
        func waitFor(_ text: String, inErrors: Bool = false, timeout: Double = 30) -> Bool {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                let running = process.isRunning
                if (inErrors ? errors : output).contains(text) { return true }
                if !running { return false }
                Thread.sleep(forTimeInterval: 0.05)
            }
            return false
        }

        /// Stops the loop as a service manager would, and waits for it to exit.
        func terminate() -> Int32 {
            process.terminate()  // SIGTERM
            process.waitUntilExit()
            Thread.sleep(forTimeInterval: 0.2)  // the last of its output
            return process.terminationStatus
        }
    }

    /// Starts a private sound server with a live microphone and `travel-tracking listen
    /// <arguments>` on it, waits until it listens, and runs `body`; stops everything after.
    static func withListener(
        _ arguments: [String], _ body: (PrivateSoundServer, LiveMicrophone, Listener) throws -> Void
    ) throws {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        let microphone = server.liveMicrophone()
        defer { microphone.close() }
        let listener = try Listener(arguments, environment: server.environment)
        defer { if listener.process.isRunning { listener.process.terminate() } }
        try #require(listener.waitFor("listening to", inErrors: true), "\(listener.errors)")
        Thread.sleep(forTimeInterval: 1)  // the detector learns the noise floor
        try body(server, microphone, listener)
    }

    static func spoken(_ sentence: String) throws -> [Int16] {
        try RoundTripTests.spoken(sentence, voice: "en-us", rate: 160)
    }

    /// A source that numbers its chunks: chunk `n` holds the value `n`.
    final class CountingSource: AudioSource, @unchecked Sendable {  // `count` behind `lock`
        let name = "the counting source"
        private let lock = NSLock()
        private var count = 0
        var delivered: Int { lock.withLock { count } }

        func read(_ samples: Int) throws(SpeechError) -> [Int16] {
            Thread.sleep(forTimeInterval: 0.002)
            let number = lock.withLock {
                count += 1
                return count
            }
            return [Int16](repeating: Int16(truncatingIfNeeded: number), count: samples)
        }
    }

    @Test func whatTheMicrophoneRecordsWhileTheLoopSpeaksIsThrownAway() throws {
        let source = CountingSource()
        let capture = ContinuousCapture(source: source, chunk: 4)
        capture.start()
        defer { capture.stop() }
        #expect(try #require(capture.read()) == [1, 1, 1, 1])
        capture.muted = true
        let mutedAt = source.delivered
        while source.delivered < mutedAt + 20 { Thread.sleep(forTimeInterval: 0.001) }
        let unmutedAt = source.delivered
        capture.muted = false
        // Everything up to the unmuting is gone, and the echo tail after it.
        let next = Int(try #require(capture.read())[0])
        #expect(next > unmutedAt + capture.echoTail, "chunk \(next) after unmuting at \(unmutedAt)")
        capture.stop()
        #expect(capture.read() == nil)
    }

    /// A live microphone starts with noise the detector has not learnt yet: it takes it for
    /// speech, finds no words, and must still hear the command that follows.
    @Test func aFalseStartOnNoiseDoesNotLoseTheCommandAfterIt() async throws {
        var noise = SplitMix64(seed: 7)
        func floor(_ seconds: Double) -> [Int16] {
            (0..<Int(seconds * 16_000)).map { _ in Int16(Int(noise.next() % 21) - 10) }
        }
        let command = try Self.spoken("buy tickets for uluru in travel tracking")
            .map { Int16(clamping: Int($0) + Int(noise.next() % 21) - 10) }
        let recognizer = try SpeechRecognizer(try ModelFilesTests.configuration())
        try recognizer.useGrammar(
            SpeechGrammar(try await RoundTripTests.travelTrackingMatcher().spokenForms, name: "commands"))
        let stream = SampleStream(floor(1.1) + command + floor(1.5))
        let heard = try recognizer.listen(timeout: 10, read: stream.read)
        #expect(heard?.text == "buy tickets for uluru in travel tracking")
    }

    @Test(.enabled(if: PrivateSoundServer.isInstalled, PrivateSoundServer.notInstalled))
    func aCommandIsTalkedThroughOnTheMicrophoneAndSIGTERMEndsTheLoop() throws {
        try Self.withListener(["--voice-only", "--speaker", "pulse:nullsink", "--verbose"]) {
            _, microphone, listener in
            // Questions are answered the way a person answers them: after hearing them out. The loop
            // prints a reply as it starts saying it, and the longest question here takes under two
            // seconds to play.
            let exchanges = [
                ("buy tickets for uluru in travel tracking", "< How many tickets?\n"),
                ("three", "< Search for 3 tickets to Uluru?\n"),
                ("yes", "< I found 3 tickets to Uluru for 75 dollars in total.\n"),
            ]
            #expect(
                listener.errors.contains("listening to the default PulseAudio source"), "\(listener.errors)")
            for (sentence, reply) in exchanges {
                microphone.say(try Self.spoken(sentence))
                let heard = listener.waitFor(reply)
                #expect(
                    heard,
                    "no \(reply.debugDescription) after \"\(sentence)\":\n\(listener.output)\(listener.errors)"
                )
                guard heard else { break }
                Thread.sleep(forTimeInterval: 2.5)
            }
            let status = listener.terminate()
            #expect(status == 0, "\(listener.errors)")
            #expect(
                listener.output == """
                    > buy tickets for uluru in travel tracking
                    < How many tickets?
                    > three
                    < Search for 3 tickets to Uluru?
                    > yes
                    < I found 3 tickets to Uluru for 75 dollars in total.

                    """, "\(listener.output)")
            #expect(listener.errors.contains("intent=FindTicketsIntent"), "\(listener.errors)")
            #expect(listener.errors.contains("stopped by SIGTERM"), "\(listener.errors)")
        }
    }

    /// The sound server goes away (restarted, or the USB microphone pulled out) and comes back:
    /// the loop reports it, reopens the microphone and the speaker, and hears the next command.
    @Test(.enabled(if: PrivateSoundServer.isInstalled, PrivateSoundServer.notInstalled))
    func theLoopOutlivesTheSoundServerRestarting() throws {
        try Self.withListener(["--voice-only", "--speaker", "pulse:nullsink", "--verbose"]) {
            server, microphone, listener in
            microphone.say(try Self.spoken("how busy is uluru in travel tracking"))
            #expect(
                listener.waitFor("< Uluru is quiet right now, with about 1200 visitors.\n"),
                "\(listener.output)")
            // The turn is logged once its reply has been played out; then the server goes.
            #expect(listener.waitFor("transcript=how busy is uluru", inErrors: true), "\(listener.errors)")

            server.stopServer()
            #expect(listener.waitFor("lost the microphone", inErrors: true), "\(listener.errors)")
            try server.start()
            microphone.close()
            let restarted = server.liveMicrophone()
            defer { restarted.close() }
            #expect(
                listener.waitFor("the microphone is back", inErrors: true, timeout: 15), "\(listener.errors)")
            Thread.sleep(forTimeInterval: 1)
            restarted.say(try Self.spoken("how busy is petra in travel tracking"))
            #expect(
                listener.waitFor("< Petra is "), "\(listener.output)\(listener.errors)")
            // The reply is played on the new server's sink.
            #expect(listener.waitFor("transcript=how busy is petra", inErrors: true), "\(listener.errors)")
            #expect(listener.terminate() == 0, "\(listener.errors)")
            #expect(!listener.errors.contains("could not say"), "\(listener.errors)")
        }
    }

    /// With `--barge-in`, "stop" said over a long question cuts it short and cancels the intent:
    /// nothing is archived or deleted.
    @Test(.enabled(if: PrivateSoundServer.isInstalled, PrivateSoundServer.notInstalled))
    func stopSaidOverAQuestionCutsItShortAndCancels() throws {
        try Self.withListener(["--voice-only", "--speaker", "pulse:nullsink", "--barge-in", "--verbose"]) {
            _, microphone, listener in
            microphone.say(try Self.spoken("delete a collection in travel tracking"))
            #expect(listener.waitFor("< Which collection?\n"), "\(listener.output)")
            Thread.sleep(forTimeInterval: 2.5)
            microphone.say(try Self.spoken("summer trip"))
            // The choice is read out with its options: several seconds of speech.
            #expect(listener.waitFor("< Do you want to archive or delete Summer Trip?"), "\(listener.output)")
            Thread.sleep(forTimeInterval: 1.5)
            microphone.say(try Self.spoken("stop"))
            #expect(listener.waitFor("< Okay, cancelled.\n"), "\(listener.output)\(listener.errors)")
            #expect(listener.waitFor("transcript=delete a collection", inErrors: true), "\(listener.errors)")
            #expect(listener.terminate() == 0, "\(listener.errors)")
            #expect(
                listener.output.hasSuffix(
                    """
                    < Do you want to archive or delete Summer Trip? The first, Cancel. The second, Archive. The third, Delete.
                    > stop
                    < Okay, cancelled.

                    """), "\(listener.output)")
        }
    }
}
