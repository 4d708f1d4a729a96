import Foundation
import Logging
import Synchronization
import Testing
import VoiceAudio
import VoiceLoop
import VoiceTestSupport

@testable import Wyoming

/// A connection's session, event by event: one mode at a time, each request ending the one
/// before it, and the requests that leave the mode as it is.
@Suite("Wyoming session")
struct WyomingSessionTests {
    /// The session and what it sent by itself (a reply's audio as it is spoken).
    private static func session() async throws -> (WyomingSession, Sent) {
        let context = AppContext(TwinsApp.self)
        let app = try await WyomingApp(context, configuration: try VoiceLoop.Configuration(for: context))
        let sent = Sent()
        let session = WyomingSession(app: app, logger: Logger(label: "test")) { event in
            sent.events.withLock { $0.append(event) }
        }
        return (session, sent)
    }

    private final class Sent: Sendable {
        let events = Mutex<[WyomingEvent]>([])
        var types: [String] { events.withLock { $0.map(\.type) } }
    }

    private static let silence = WyomingEvent.audioChunk(
        WAVFile.pcm16(Array(repeating: 0, count: 1_600)), format: format, milliseconds: 0)
    private static let format = WyomingAudioFormat(rate: 16_000, width: 2, channels: 1)

    /// Text in pieces is its own mode: audio is refused during it, a `transcribe` ends it unspoken,
    /// and its `synthesize-stop` then has no start.
    @Test func textInPiecesIsAModeOfItsOwn() async throws {
        let (session, sent) = try await Self.session()
        #expect(await session.handle(WyomingEvent("synthesize-start")).isEmpty)
        #expect(session.mode.name == "synthesizing")
        #expect(!session.isIdle)
        let refused = await session.handle(.audioStart(Self.format))
        #expect(refused.map(\.type) == ["error"])
        // A whole sentence is spoken at once; the rest waits.
        #expect(
            await session.handle(WyomingEvent("synthesize-chunk", data: ["text": "Hello there. And"])).isEmpty
        )
        #expect(sent.types.first == "audio-start")
        #expect(sent.types.last == "audio-stop")
        // Describe leaves it as it is.
        #expect(await session.handle(WyomingEvent("describe")).map(\.type) == ["info"])
        #expect(session.mode.name == "synthesizing")
        #expect(await session.handle(WyomingEvent("transcribe")).isEmpty)
        #expect(session.mode.name == "idle")
        #expect(await session.handle(WyomingEvent("synthesize-stop")).map(\.type) == ["error"])
        await session.close()
    }

    /// Audio with nothing under way is an utterance to transcribe; `transcribe` drops one under
    /// way, and an `audio-stop` with none answers an empty transcript.
    @Test func audioWithNothingUnderWayIsTranscribed() async throws {
        let (session, _) = try await Self.session()
        #expect(session.isIdle)
        #expect(await session.handle(Self.silence).map(\.type) == ["transcript-start"])
        #expect(session.mode.name == "transcribing")
        #expect(!session.isIdle)
        #expect(await session.handle(WyomingEvent("transcribe")).isEmpty)
        #expect(session.mode.name == "idle")
        #expect(await session.handle(.audioStop(milliseconds: 0)).map(\.type) == ["transcript"])

        #expect(await session.handle(.audioStart(Self.format)).map(\.type) == ["transcript-start"])
        _ = await session.handle(Self.silence)
        let answer = await session.handle(.audioStop(milliseconds: 0))
        #expect(answer.map(\.type).suffix(2) == ["transcript", "transcript-stop"], "\(answer)")
        #expect(session.mode.name == "idle")
        await session.close()
    }

    /// A `detect` that names no installed wake word says so and leaves nothing under way.
    @Test func aDetectForAWordNotInstalledIsRefused() async throws {
        let (session, _) = try await Self.session()
        _ = await session.handle(.audioStart(Self.format))
        #expect(
            await session.handle(WyomingEvent("detect", data: ["names": ["no_such_word"]])).map(\.type) == [
                "error"
            ])
        #expect(session.mode.name == "idle")
        await session.close()
    }

    /// Several commands in one sentence come as a series of intents to a peer of protocol 1.9 or
    /// later; one that writes an older version (or none) is asked for one at a time.
    @Test func severalIntentsGoOnlyToAPeerThatTakesThem() async throws {
        let (session, _) = try await Self.session()
        let sentence = "show the menu in twins and show the tips in twins"
        var older = WyomingEvent("recognize", data: ["text": .string(sentence)])
        older.version = "1.7.2"
        #expect(await session.handle(older).map(\.type) == ["not-recognized"])
        var newer = older
        newer.version = "1.10.2"
        let series = await session.handle(newer)
        #expect(series.map(\.type) == ["intents-start", "intent", "intent", "intents-stop"])
        #expect(series.compactMap { $0.data["name"]?.string } == ["ShowMenuIntent", "ShowTipsIntent"])
        #expect(WyomingEvent.takesSeveralIntents("1.9.0"))
        #expect(!WyomingEvent.takesSeveralIntents("1.8.0"))
        #expect(!WyomingEvent.takesSeveralIntents(nil))
        await session.close()
    }

    /// What goes back says the version the peer speaks, once it has said one; before, the
    /// server's own.
    @Test func answersSayThePeersVersion() async throws {
        let (session, sent) = try await Self.session()
        let first = await session.handle(WyomingEvent("describe"))
        #expect(first.first?.version == nil)
        #expect(
            String(decoding: first[0].encoded(), as: UTF8.self).contains(
                "\"version\":\"\(WyomingEvent.protocolVersion)\""))
        var describe = WyomingEvent("describe")
        describe.version = "1.10.2"
        let answer = await session.handle(describe)
        #expect(answer.first?.version == "1.10.2")
        #expect(String(decoding: answer[0].encoded(), as: UTF8.self).contains("\"version\":\"1.10.2\""))
        // What the session sends by itself (a reply's audio) says it too.
        _ = await session.handle(WyomingEvent("synthesize", data: ["text": "Hello."]))
        #expect(!sent.events.withLock { $0 }.isEmpty)
        #expect(sent.events.withLock { $0 }.allSatisfy { $0.version == "1.10.2" })
        await session.close()
    }
}
