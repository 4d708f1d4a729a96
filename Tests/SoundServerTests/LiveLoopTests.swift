import Foundation
import PhraseMatching
import Testing
import VoiceEvaluation
import VoiceSynthesis
import VoiceTestSupport

@testable import VoiceAudio
@testable import VoiceRecognition
@testable import VoiceUnderstanding

/// The voice loop on a live microphone: a private PulseAudio server whose default source the
/// test speaks into in real time, a reply played on its null sink, a person who waits for the
/// question before answering, and a service manager that stops the loop with SIGTERM.
@Suite("Live voice loop", .serialized)
struct LiveLoopTests {
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

    @Test func whatTheMicrophoneRecordsWhileTheLoopSpeaksIsThrownAway() async throws {
        try await offThePool {
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
    }

    /// A reply heard over ends at one moment and the loop gets round to dropping its echo later
    /// (on a busy machine, a second later): what was recorded in between is someone's answer.
    @Test func whatWasRecordedAfterTheReplyEndedIsKeptHoweverLateItIsDropped() async throws {
        try await offThePool {
            let source = CountingSource()
            let capture = ContinuousCapture(source: source, chunk: 4)
            capture.start()
            defer { capture.stop() }
            #expect(try #require(capture.read()) == [1, 1, 1, 1])
            while source.delivered < 10 { Thread.sleep(forTimeInterval: 0.001) }
            let endedAt = source.delivered
            let ended = ContinuousClock.now
            while source.delivered < endedAt + 20 { Thread.sleep(forTimeInterval: 0.001) }
            let droppedAt = source.delivered
            capture.dropRecorded(before: ended)
            // Nothing recorded before the end is left, and nothing after it is lost.
            let next = Int(try #require(capture.read())[0])
            // (The chunk counted as the end was taken may have been timed just after it.)
            #expect(next >= endedAt && next <= endedAt + 2, "chunk \(next): ended at \(endedAt)")
            #expect(next < droppedAt)
            var last = next
            while last < droppedAt + 2 {
                let chunk = Int(try #require(capture.read())[0])
                #expect(chunk == last + 1)
                last = chunk
            }
        }
    }

    /// A live microphone starts with noise the detector has not learnt yet: it takes it for
    /// speech, finds no words, and must still hear the command that follows.
    @Test func aFalseStartOnNoiseDoesNotLoseTheCommandAfterIt() async throws {
        var noise = SplitMix64(seed: 7)
        func floor(_ seconds: Double) -> [Int16] {
            (0..<Int(seconds * 16_000)).map { _ in Int16(Int(noise.next() % 21) - 10) }
        }
        let command = try LiveLoop.spoken("buy tickets for uluru in travel tracking")
            .map { Int16(clamping: Int($0) + Int(noise.next() % 21) - 10) }
        let recognizer = try SpeechRecognizer(try TestModels.configuration())
        try recognizer.useGrammar(
            SpeechGrammar(try await TestModels.travelTrackingMatcher().spokenForms, name: "commands"))
        let stream = SampleStream(floor(1.1) + command + floor(1.5))
        let heard = try recognizer.listen(timeout: 10, read: stream.read)
        #expect(heard?.text == "buy tickets for uluru in travel tracking")
    }

    @Test(.enabled(if: PrivateSoundServer.isInstalled, PrivateSoundServer.notInstalled))
    func aCommandIsTalkedThroughOnTheMicrophoneAndSIGTERMEndsTheLoop() async throws {
        try await offThePool {
            try LiveLoop.withListener(["--voice-only", "--speaker", "pulse:nullsink", "--verbose"]) {
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
                    listener.errors.contains("listening to the default PulseAudio source"),
                    "\(listener.errors)")
                for (sentence, reply) in exchanges {
                    microphone.say(try LiveLoop.spoken(sentence))
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
    }

    /// From a microphone, `listen` with no wake option waits for "okay nabu": a command said
    /// without it is not acted on, the same command after it is.
    @Test(.enabled(if: PrivateSoundServer.isInstalled, PrivateSoundServer.notInstalled))
    func theMicrophoneWaitsForTheDefaultWakeWord() async throws {
        try await offThePool {
            try LiveLoop.withListener(
                ["--voice-only", "--speaker", "pulse:nullsink"], keepsTheDefaultWakeWord: true
            ) { _, microphone, listener in
                #expect(listener.errors.contains("say \"Okay Nabu\" before a command"), "\(listener.errors)")
                let command = "what is the closest landmark in travel tracking"
                microphone.say(try LiveLoop.spoken(command))
                #expect(
                    !listener.waitFor("< The closest landmark", timeout: 8),
                    "acted on without the wake word:\n\(listener.output)")
                microphone.say(try LiveLoop.spoken("okay nabu. " + command))
                #expect(listener.waitFor("< The closest landmark"), "\(listener.output)\(listener.errors)")
                #expect(listener.terminate() == 0, "\(listener.errors)")
            }
        }
    }

    /// A first SIGTERM lets the turn under way finish; a second one, sent while the reply is
    /// playing, stops the program at once: the reply is cut, not played to its end.
    @Test(.enabled(if: PrivateSoundServer.isInstalled, PrivateSoundServer.notInstalled))
    func aSecondSIGTERMCutsTheReplyBeingPlayed() async throws {
        try await offThePool {
            try LiveLoop.withListener(["--voice-only", "--speaker", "pulse:nullsink", "--verbose"]) {
                _, microphone, listener in
                microphone.say(try LiveLoop.spoken("what is the closest landmark in travel tracking"))
                // Printed as it starts to play.
                try #require(
                    listener.waitFor("< The closest landmark is"), "\(listener.output)\(listener.errors)")
                #expect(listener.waitFor(" away.\n", timeout: 1))
                let reply = try #require(
                    listener.output.split(separator: "\n").first { $0.hasPrefix("< ") }.map {
                        String($0.dropFirst(2))
                    })
                // As the loop says it: eSpeak NG's default voice and rate.
                let speech = try TestSpeech.said(reply, voice: "en-us", rate: 175)
                let replySeconds = Double(speech.samples.count) / Double(speech.sampleRate)
                listener.process.terminate()
                #expect(listener.waitFor("SIGTERM: ", inErrors: true, timeout: 1), "\(listener.errors)")
                listener.process.terminate()
                listener.process.waitUntilExit()
                #expect(
                    listener.waitFor("stopped by SIGTERM", inErrors: true, timeout: 1), "\(listener.errors)")
                // Cut, not played out: read off what the loop played rather than the clock, which
                // under a full parallel run on two cores measured the machine (an idle one ends
                // within a second of the signal).
                let played = try #require(LiveLoop.cutShort(in: listener.errors), "\(listener.errors)")
                #expect(played.played < replySeconds - 1, "played \(played.played) s of \(replySeconds) s")
                #expect(abs(played.of - replySeconds) < 0.5, "\(played.of) s, said alone \(replySeconds) s")
            }
        }
    }

    /// The sound server goes away (restarted, or the USB microphone pulled out) and comes back:
    /// the loop reports it, reopens the microphone and the speaker, and hears the next command.
    @Test(.enabled(if: PrivateSoundServer.isInstalled, PrivateSoundServer.notInstalled))
    func theLoopOutlivesTheSoundServerRestarting() async throws {
        try await offThePool {
            try LiveLoop.withListener(["--voice-only", "--speaker", "pulse:nullsink", "--verbose"]) {
                server, microphone, listener in
                microphone.say(try LiveLoop.spoken("how busy is uluru in travel tracking"))
                #expect(
                    listener.waitFor("< Uluru is quiet right now, with about 1200 visitors.\n"),
                    "\(listener.output)")
                // The turn is logged once its reply has been played out; then the server goes.
                #expect(
                    listener.waitFor("transcript=how busy is uluru", inErrors: true), "\(listener.errors)")

                server.stopServer()
                #expect(listener.waitFor("lost the microphone", inErrors: true), "\(listener.errors)")
                try server.start()
                microphone.close()
                let restarted = server.liveMicrophone()
                defer { restarted.close() }
                #expect(
                    listener.waitFor("the microphone is back", inErrors: true, timeout: 15),
                    "\(listener.errors)")
                Thread.sleep(forTimeInterval: 1)
                restarted.say(try LiveLoop.spoken("how busy is petra in travel tracking"))
                #expect(
                    listener.waitFor("< Petra is "), "\(listener.output)\(listener.errors)")
                // The reply is played on the new server's sink.
                #expect(
                    listener.waitFor("transcript=how busy is petra", inErrors: true), "\(listener.errors)")
                #expect(listener.terminate() == 0, "\(listener.errors)")
                #expect(!listener.errors.contains("could not say"), "\(listener.errors)")
            }
        }
    }

    /// With `--barge-in`, "stop" said over a long question cuts it short and cancels the intent:
    /// nothing is archived or deleted.
    @Test(.enabled(if: PrivateSoundServer.isInstalled, PrivateSoundServer.notInstalled))
    func stopSaidOverAQuestionCutsItShortAndCancels() async throws {
        try await offThePool {
            try LiveLoop.withListener([
                "--voice-only", "--speaker", "pulse:nullsink", "--barge-in", "--verbose",
            ]) {
                _, microphone, listener in
                try LiveLoop.askTheLongestQuestion(microphone, listener)
                Thread.sleep(forTimeInterval: 1.5)
                microphone.say(try LiveLoop.spoken("stop"))
                #expect(listener.waitFor("< Okay, cancelled.\n"), "\(listener.output)\(listener.errors)")
                #expect(
                    listener.waitFor("transcript=delete a collection", inErrors: true), "\(listener.errors)")
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
}
