import Foundation
import Logging
import PhraseMatching
import ServiceLifecycle
import SmartHome
import Synchronization
import Testing
import TravelTracking
import VoiceIntents
import VoiceLoop
import VoiceRecognition
import VoiceTestSupport

@testable import VoiceAudio

/// The voice loop as a library, in this process: no `listen` command in front of it.
@Suite("Voice loop as a library")
struct EmbeddedLoopTests {
    /// Runs a loop, configured as `listen` is by default, on `input`, with its replies written
    /// to `replies`: how many utterances it did not understand, and its transcript.
    static func converse(_ input: URL, replies: URL) async throws -> (misunderstood: Int, transcript: String)
    {
        let app = AppContext(TravelTrackingApp.self)
        let logger = Logger(label: "embedded-loop")
        let transcript = Transcript()
        let loop = VoiceLoop(
            app: app, input: try VoiceInput(recording: input.path),
            mouth: try Mouth(output: replies.path, applicationName: app.executableName, logger: logger),
            configuration: try VoiceLoop.Configuration(for: app), transcript: transcript.sink, logger: logger)
        let misunderstood = try await loop.listen()
        return (misunderstood, transcript.written)
    }

    static func temporaryWAV(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID()).wav")
    }

    /// eSpeak NG says a command and the answers to the loop's questions into one WAV; the loop
    /// hears it, runs the intent and writes its replies to another WAV, which is recognised back.
    @Test func anEmbeddedLoopAsksHearsTheAnswersAndSpeaksTheResult() async throws {
        let input = try SpokenConversation.recording(SpokenConversation.tickets)
        let replies = Self.temporaryWAV("replies")
        defer {
            try? FileManager.default.removeItem(at: input)
            try? FileManager.default.removeItem(at: replies)
        }

        let (misunderstood, transcript) = try await Self.converse(input, replies: replies)

        #expect(misunderstood == 0)
        #expect(transcript == SpokenConversation.ticketsTranscript, "\(transcript)")
        #expect(try SpokenConversation.heardReplyText(in: replies) == SpokenConversation.ticketsReplies)
    }

    /// Two loops started from one preparation (as a server starts one per satellite) each hold
    /// the whole conversation, the same as a loop that prepares itself.
    @Test func loopsShareOnePreparation() async throws {
        let input = try SpokenConversation.recording(SpokenConversation.tickets)
        defer { try? FileManager.default.removeItem(at: input) }
        let app = AppContext(TravelTrackingApp.self)
        let logger = Logger(label: "embedded-loop")
        let configuration = try VoiceLoop.Configuration(for: app)
        let preparation = try await VoiceLoop.Preparation(
            app: app, configuration: configuration, logger: logger)
        for round in 1...2 {
            let replies = Self.temporaryWAV("prepared-\(round)")
            defer { try? FileManager.default.removeItem(at: replies) }
            let transcript = Transcript()
            let loop = VoiceLoop(
                app: app, input: try VoiceInput(recording: input.path),
                mouth: try Mouth(output: replies.path, applicationName: app.executableName, logger: logger),
                configuration: configuration, transcript: transcript.sink, logger: logger,
                preparation: preparation)
            #expect(try await loop.listen() == 0)
            #expect(
                transcript.written == SpokenConversation.ticketsTranscript,
                "round \(round): \(transcript.written)")
            #expect(try SpokenConversation.heardReplyText(in: replies) == SpokenConversation.ticketsReplies)
        }
    }

    /// A mouth of your own (a server's connection) is handed each reply as it is said, and the
    /// program is told of each turn: what ran, with which values, and what was said.
    @Test func aReplyHandlerIsHandedEveryReply() async throws {
        let input = try SpokenConversation.recording(SpokenConversation.tickets)
        let tape = Self.temporaryWAV("handed")
        defer {
            try? FileManager.default.removeItem(at: input)
            try? FileManager.default.removeItem(at: tape)
        }
        final class Replies: Sendable { let audio = Mutex<[AudioBuffer]>([]) }
        let replies = Replies()
        let turns = Mutex<[VoiceTurn]>([])
        let app = AppContext(TravelTrackingApp.self)
        let logger = Logger(label: "embedded-loop")
        let loop = VoiceLoop(
            app: app, input: try VoiceInput(recording: input.path),
            mouth: Mouth(
                replies: { _, audio in replies.audio.withLock { $0.append(audio) } }, logger: logger),
            configuration: try VoiceLoop.Configuration(for: app), logger: logger
        ) { turn in turns.withLock { $0.append(turn) } }
        #expect(try await loop.listen() == 0)
        let told = turns.withLock { $0 }
        #expect(told.count == 1)
        #expect(told.first?.heard == "find tickets for uluru with travel tracking")
        #expect(told.first?.outcome?.status == .completed && told.first?.rejection == nil)
        #expect(told.first?.outcome?.intent == "FindTicketsIntent")
        #expect(
            told.first?.outcome?.parameters["ticketCount"] == "3", "\(told.first?.outcome?.parameters ?? [:])"
        )
        #expect(told.first?.replies == ["I found 3 tickets to Uluru for 75 dollars in total."])
        #expect((told.first?.confidence ?? 0) > 0)
        let handed = replies.audio.withLock { $0 }
        #expect(handed.count == 3)
        // The replies one after another with a second of silence between, heard back.
        var samples: [Float] = []
        for reply in handed {
            samples += reply.resampled(to: 16_000).samples + [Float](repeating: 0, count: 16_000)
        }
        try WAVFile.write(AudioBuffer(samples: samples, sampleRate: 16_000), to: tape)
        #expect(try SpokenConversation.heardReplyText(in: tape) == SpokenConversation.ticketsReplies)
    }

    /// With a screen, each outcome is handed to the program's display (the snippet, or that the
    /// intent brought the app forward) and the supporting dialog is said; the loop draws nothing
    /// itself.
    @Test func aLoopWithAScreenHandsEachOutcomeToItsDisplay() async throws {
        let input = try SpokenConversation.recording([
            "what is the closest landmark in travel tracking", "how busy is uluru in travel tracking",
        ])
        defer { try? FileManager.default.removeItem(at: input) }
        let app = AppContext(TravelTrackingApp.self)
        let logger = Logger(label: "embedded-loop")
        var configuration = try VoiceLoop.Configuration(for: app)
        configuration.hasScreen = true
        let shown = Mutex<[IntentOutcome]>([])
        let transcript = Transcript()
        let loop = VoiceLoop(
            app: app, input: try VoiceInput(recording: input.path),
            mouth: try Mouth(mute: true, applicationName: app.executableName, logger: logger),
            configuration: configuration, transcript: transcript.sink, logger: logger,
            display: { outcome in shown.withLock { $0.append(outcome) } })
        #expect(try await loop.listen() == 0)
        let outcomes = shown.withLock { $0 }
        #expect(outcomes.map(\.title) == ["Find Closest Landmark", "Get Crowd Status"], "\(outcomes)")
        #expect(outcomes.first?.snippetText?.hasPrefix("Golden Gate Bridge") == true)
        #expect(outcomes.last?.ranInForeground == true)
        #expect(
            transcript.written == """
                > what is the closest landmark in travel tracking
                < Golden Gate Bridge is in North America.
                > how busy is uluru in travel tracking
                < Uluru is quiet right now, with about 1200 visitors.

                """, "\(transcript.written)")
    }

    /// A command under the confidence bar runs nothing, and the program is told why.
    @Test func aTurnUnderTheBarSaysWhyNothingRan() async throws {
        let input = try SpokenConversation.recording([SpokenConversation.tickets[0]])
        defer { try? FileManager.default.removeItem(at: input) }
        let turns = Mutex<[VoiceTurn]>([])
        let app = AppContext(TravelTrackingApp.self)
        let logger = Logger(label: "embedded-loop")
        var configuration = try VoiceLoop.Configuration(for: app)
        configuration.policy = ConfidencePolicy(minimumConfidence: 0.9999)
        let loop = VoiceLoop(
            app: app, input: try VoiceInput(recording: input.path),
            mouth: try Mouth(mute: true, applicationName: app.executableName, logger: logger),
            configuration: configuration, logger: logger
        ) { turn in turns.withLock { $0.append(turn) } }
        #expect(try await loop.listen() == 1)
        let told = turns.withLock { $0 }
        #expect(told.count == 1)
        #expect(told.first?.outcome == nil && told.first?.replies == [])
        #expect(told.first?.rejection?.hasPrefix("confidence ") == true, "\(told.first?.rejection ?? "")")
    }

    /// Three loops in one process at once, as a server with three rooms runs them: each hears
    /// its own stream and holds its own conversation, none waiting for another to end.
    @Test func loopsRunSideBySideInOneProcess() async throws {
        let input = try SpokenConversation.recording(SpokenConversation.tickets)
        let replies = (0..<3).map { _ in Self.temporaryWAV("replies") }
        defer {
            try? FileManager.default.removeItem(at: input)
            for file in replies { try? FileManager.default.removeItem(at: file) }
        }
        let results = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for file in replies { group.addTask { try await Self.converse(input, replies: file) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 3)
        for (misunderstood, transcript) in results {
            #expect(misunderstood == 0)
            #expect(transcript == SpokenConversation.ticketsTranscript, "\(transcript)")
        }
    }

    /// A source of quiet hiss that never ends, in real time as a microphone gives it (100 ms
    /// a chunk), counting the chunks read from it.
    final class EndlessHiss: Sendable {
        private let chunks = Atomic(0)
        var input: VoiceInput {
            VoiceInput(name: "room tone") { () throws(SpeechError) -> [Int16]? in
                self.chunks.add(1, ordering: .relaxed)
                Thread.sleep(forTimeInterval: 0.1)
                return (0..<1_600).map { Int16(truncatingIfNeeded: ($0 * 7_919) % 61 - 30) }
            }
        }
        var read: Int { chunks.load(ordering: .relaxed) }
    }

    static func loop(_ input: VoiceInput) throws -> VoiceLoop {
        let app = AppContext(TravelTrackingApp.self)
        let logger = Logger(label: "embedded-loop")
        return VoiceLoop(
            app: app, input: input,
            mouth: try Mouth(mute: true, applicationName: app.executableName, logger: logger),
            configuration: try VoiceLoop.Configuration(for: app), logger: logger)
    }

    /// A loop waits for speech on a thread of its own: more loops than the machine has cores
    /// (Swift's cooperative threads) all hear their streams, and this test goes on meanwhile.
    ///
    /// Run beside other tests that decode on Swift's threads, the loops may take minutes to
    /// start; a loop that held a thread for good would keep the others from ever starting.
    @Test func aWaitingLoopHoldsNoneOfSwiftsThreads() async throws {
        let sources = (0..<(ProcessInfo.processInfo.activeProcessorCount + 2)).map { _ in EndlessHiss() }
        let inputs = sources.map(\.input)
        // Should loops hold the threads, this test could not wake up: a watchdog on a thread of
        // its own ends every stream after ten minutes, so that it fails instead of hanging.
        final class Flag: Sendable { let raised = Atomic(false) }
        let timedOut = Flag()
        let watchdog = DispatchWorkItem {
            timedOut.raised.store(true, ordering: .relaxed)
            for input in inputs { input.stop() }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + 600, execute: watchdog)
        let loops = try inputs.map { input in try Self.loop(input) }
        let running = loops.map { loop in Task { try await loop.run() } }
        while sources.contains(where: { $0.read < 5 }), !timedOut.raised.load(ordering: .relaxed) {
            try await Task.sleep(for: .milliseconds(50))
        }
        let chunks = sources.map(\.read)
        for task in running { task.cancel() }
        for task in running { _ = try await task.value }
        watchdog.cancel()
        #expect(chunks.allSatisfy { $0 >= 5 }, "chunks read per loop: \(chunks)")
    }

    /// Whether `ending` returns within two minutes. If it does not, `input` is stopped, so that
    /// a loop that goes on fails its test rather than hanging it.
    static func ends(
        _ ending: @escaping @Sendable () async throws -> Void, orStop input: VoiceInput
    ) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                _ = try? await ending()
                return true
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(120))
                return false
            }
            let first = await group.next() ?? false
            if !first { input.stop() }
            group.cancelAll()
            return first
        }
    }

    /// A stream that never ends (a microphone, a network) ends the loop when the task running
    /// it is cancelled: no signal, no exit.
    @Test func cancellingTheTaskEndsALoopOnAnEndlessStream() async throws {
        let source = EndlessHiss()
        let input = source.input
        let listening = Task { try await Self.loop(input).run() }
        // Until the stream is being heard.
        while source.read < 5 { try await Task.sleep(for: .milliseconds(20)) }
        listening.cancel()
        let ended = await Self.ends({ _ = try await listening.value }, orStop: input)
        #expect(ended, "the loop went on for two minutes after its task was cancelled")
        let heard = source.read
        try await Task.sleep(for: .milliseconds(300))
        #expect(source.read == heard, "the stream is still read after the loop ended")
    }

    /// A stream of room tone, in real time, into which speech can be put: what a microphone in
    /// a quiet room hears.
    final class QuietRoom: Sendable {
        private let queued = Mutex<[Int16]>([])
        private let reads = Mutex(0)
        /// How many times the room has been heard.
        var read: Int { reads.withLock { $0 } }
        var input: VoiceInput {
            VoiceInput(name: "a quiet room") { () throws(SpeechError) -> [Int16]? in
                self.reads.withLock { $0 += 1 }
                Thread.sleep(forTimeInterval: 0.1)
                let speech = self.queued.withLock { queued in
                    defer { queued.removeFirst(min(1_600, queued.count)) }
                    return Array(queued.prefix(1_600))
                }
                let tone = (speech.count..<1_600).map { Int16(truncatingIfNeeded: ($0 * 7_919) % 61 - 30) }
                return speech + tone
            }
        }
        func say(_ samples: [Int16]) { queued.withLock { $0 += samples } }
    }

    /// Run as a service, a loop told to shut down gracefully in the middle of a turn finishes
    /// it: the question it asks is still answered, and the answer's answer given; then it stops.
    @Test func gracefulShutdownFinishesTheTurnUnderWay() async throws {
        let room = QuietRoom()
        let input = room.input
        let app = AppContext(TravelTrackingApp.self)
        let logger = Logger(label: "graceful")
        let said = Mutex<[String]>([])
        // Spoken as the loop's other conversations are (`voice-intents say`, in a room).
        func spoken(_ sentence: String) throws -> [Int16] {
            let recording = try SpokenConversation.recording([sentence])
            defer { try? FileManager.default.removeItem(at: recording) }
            return try WAVFile.read(from: recording).int16Samples
        }
        let three = try spoken("three")
        let yes = try spoken("yes")
        let stopping = AsyncStream.makeStream(of: Void.self)
        let mouth = Mouth(
            replies: { text, _ in
                said.withLock { $0.append(text) }
                if text.hasPrefix("How many tickets") {
                    stopping.continuation.yield()  // shut down now, while the question is open
                    room.say(three)
                } else if text.hasPrefix("Search for") {
                    room.say(yes)
                }
            }, logger: logger)
        let loop = VoiceLoop(
            app: app, input: input, mouth: mouth, configuration: try VoiceLoop.Configuration(for: app),
            logger: logger)
        let group = ServiceGroup(services: [loop], logger: logger)
        room.say(try spoken(SpokenConversation.tickets[0]))
        try await withThrowingTaskGroup { tasks in
            tasks.addTask { try await group.run() }
            tasks.addTask {
                for await _ in stopping.stream {
                    await group.triggerGracefulShutdown()
                    break
                }
                // Until the group has ended: the first task to end is the group's.
                try await Task.sleep(for: .seconds(3_600))
            }
            // Should the loop not stop, the test fails after two minutes rather than hanging.
            tasks.addTask {
                try await Task.sleep(for: .seconds(120))
                Issue.record("the loop went on for two minutes after graceful shutdown")
                await group.triggerGracefulShutdown()
                input.stop()
            }
            try await tasks.next()
            tasks.cancelAll()
        }
        #expect(
            said.withLock { $0 } == [
                "How many tickets?", "Search for 3 tickets to Uluru?",
                "I found 3 tickets to Uluru for 75 dollars in total.",
            ])
    }

    /// Run as a service, a loop waiting for a command stops at graceful shutdown.
    @Test func gracefulShutdownStopsALoopWaitingForACommand() async throws {
        let source = EndlessHiss()
        let logger = Logger(label: "graceful")
        let input = source.input
        let group = ServiceGroup(services: [try Self.loop(input)], logger: logger)
        let running = Task { try await group.run() }
        while source.read < 5 { try await Task.sleep(for: .milliseconds(20)) }
        await group.triggerGracefulShutdown()
        let ended = await Self.ends({ try await running.value }, orStop: input)
        #expect(ended, "the loop went on for two minutes after graceful shutdown")
        let heard = source.read
        try await Task.sleep(for: .milliseconds(300))
        #expect(source.read == heard, "the stream is still read after the loop ended")
    }

    /// A timer that runs out while the loop waits for a command is announced at once, between
    /// turns, and the loop goes on: the command a person says next is heard and run.
    @Test func aTimerThatRunsOutIsAnnouncedBetweenTurns() async throws {
        let room = QuietRoom()
        let input = room.input
        let app = AppContext(SmartHomeApp.self)
        let logger = Logger(label: "timers")
        let said = Mutex<[String]>([])
        let cancel = try WAVFile.read(from: PeoplesRecordings.file("speech-to-phrase-en", "cancel timer.wav"))
        let mouth = Mouth(
            replies: { text, _ in
                said.withLock { $0.append(text) }
                if text.hasSuffix("is done.") { room.say(cancel.resampled(to: 16_000).int16Samples) }
            }, logger: logger)
        // Other loops in this process share the app's timers: this one hears its own device's.
        var configuration = try VoiceLoop.Configuration(for: app)
        configuration.once = true
        configuration.device = "the hall \(UUID())"
        let loop = VoiceLoop(
            app: app, input: input, mouth: mouth, configuration: configuration, logger: logger)
        let timers = try #require(app.dependencies.resolve(VoiceTimers.self))
        let listening = Task { try await loop.listen() }
        // Once the room is heard, the loop follows the timers.
        while room.read < 5 { try await Task.sleep(for: .milliseconds(20)) }
        let timer = VoiceTimers.$device.withValue(configuration.device) { timers.start(seconds: 1) }
        let ended = await Self.ends({ _ = try await listening.value }, orStop: input)
        #expect(ended, "the loop did not stop after the command")
        #expect(said.withLock { $0 } == ["The 1 second timer is done.", "No timer is running."])
        #expect(!timers.timers.contains { $0.id == timer.id })
    }

    /// A name the app adds while a loop runs is heard from the next command on: loops sharing a
    /// preparation that follows the app's updates hear "flour" once the pantry holds it and the
    /// app says its names changed (it was in no grammar before), without being restarted.
    @Test func aNameAddedWhileTheLoopRunsIsHeard() async throws {
        let room = QuietRoom()
        let input = room.input
        let app = AppContext(PantryApp.self)
        let logger = Logger(label: "names")
        let said = Mutex<[String]>([])
        let mouth = Mouth(replies: { text, _ in said.withLock { $0.append(text) } }, logger: logger)
        var configuration = try VoiceLoop.Configuration(for: app)
        configuration.once = true
        let preparation = try await VoiceLoop.Preparation(
            app: app, configuration: configuration, logger: logger)
        #expect(!preparation.commands.words.contains("flour"))
        let following = Task { await preparation.followUpdates() }
        defer { following.cancel() }
        let loop = VoiceLoop(
            app: app, input: input, mouth: mouth, configuration: configuration, logger: logger,
            preparation: preparation)
        let listening = Task { try await loop.listen() }
        while room.read < 5 { try await Task.sleep(for: .milliseconds(20)) }
        // Added while the loop waits for a command (bought, synced).
        PantryShelf.items.withLock { $0.append("flour") }
        PantryShortcuts.updateAppShortcutParameters()
        let deadline = ContinuousClock.now + .seconds(60)
        while !preparation.commands.words.contains("flour"), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(preparation.commands.words.contains("flour"))
        let command = try SpokenConversation.recording(["take flour from the pantry"])
        defer { try? FileManager.default.removeItem(at: command) }
        room.say(try WAVFile.read(from: command).int16Samples)
        let ended = await Self.ends({ _ = try await listening.value }, orStop: input)
        #expect(ended, "the loop did not stop after the command")
        #expect(said.withLock { $0 } == ["Taking flour from the pantry."])
    }

    /// A service group names its services in its debug log (`listen -v`): the loop is named by
    /// its app in a few words, not by every field it holds.
    @Test func aLoopIsNamedByItsApp() throws {
        let loop = try Self.loop(EndlessHiss().input)
        #expect(String(describing: loop) == "VoiceLoop(travel-tracking)")
    }

    /// A command that fits two shortcuts equally is answered the same way typed or spoken: the
    /// two are named.
    @Test func aCommandThatFitsTwoShortcutsNamesBoth() async throws {
        let description = AppDescription(TwinsApp.self)
        let matcher = try await PhraseMatcher(app: description)
        let result = await matcher.match("show everything in twins")
        #expect(result.isAmbiguous)
        #expect(
            MissedCommand.question(for: result, in: description)
                == "Sorry, did you mean Menu or Tips? Please say it another way."
                || MissedCommand.question(for: result, in: description)
                    == "Sorry, did you mean Tips or Menu? Please say it another way."
        )
        #expect(await matcher.match("show the tips in twins").best?.intent == "ShowTipsIntent")
    }
}
