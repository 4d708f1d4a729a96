import Foundation
import NIOCore
import NIOEmbedded
import Testing
import VoiceAudio

@testable import Wyoming

/// Event framing as a peer may send it: whole, cut anywhere, or hostile.
@Suite("Wyoming framing")
struct WyomingFramingTests {
    /// An event's data is logged as the JSON it came as, not as Swift's enum cases.
    @Test func dataReadsAsJSONInTheLogs() {
        let data: JSONValue = [
            "start_stage": "asr", "restart_on_end": false, "rate": 16_000, "tags": ["a/b"],
        ]
        #expect(
            data.description == #"{"rate":16000,"restart_on_end":false,"start_stage":"asr","tags":["a/b"]}"#)
    }

    /// A reply is spoken sentence by sentence: cut after a sentence's end before a space, and
    /// nowhere else (a decimal point, a number's end, text with no end).
    @Test func aReplyIsCutIntoItsSentences() {
        #expect(
            WyomingSession.sentences(of: "The lamp is on. Is the door shut?  Yes! It's 21.5 degrees")
                == ["The lamp is on.", "Is the door shut?", "Yes!", "It's 21.5 degrees"])
        #expect(WyomingSession.sentences(of: "Done.") == ["Done."])
        #expect(WyomingSession.sentences(of: "  ").isEmpty)
    }

    /// Text that arrives in pieces: the sentences already whole, and the rest, which may go on
    /// ("21." may be "21.5").
    @Test func wholeSentencesAreTakenFromTextThatGoesOn() {
        #expect(
            WyomingSession.wholeSentences(of: "The lamp is on. Is the door shut? It's 21.")
                == (["The lamp is on.", "Is the door shut?"], " It's 21."))
        #expect(WyomingSession.wholeSentences(of: "The lamp") == ([], "The lamp"))
        #expect(WyomingSession.wholeSentences(of: "Done.\n") == (["Done."], "\n"))
    }

    /// A partial transcript's words are sent once they have held for the window, each once, and
    /// the final words add what is left; a word the search changed after it was sent stops the
    /// pieces.
    @Test func partialWordsAreSentOnceTheyHold() {
        var partials = StablePartials(window: 100)
        #expect(partials.update(["turn"], after: 50).isEmpty)
        #expect(partials.update(["turn", "on"], after: 100).isEmpty)
        // "turn" has held from 50 to 160; "on" only from 100.
        #expect(partials.update(["turn", "on", "the"], after: 160) == ["turn"])
        #expect(partials.chunkText(["turn"]) == "turn")
        // "on" has held from 100 to 210; "the" only from 160.
        #expect(partials.update(["turn", "on", "the", "garage"], after: 210) == ["on"])
        #expect(partials.chunkText(["on"]) == " on")
        #expect(partials.finish(["turn", "on", "the", "garage", "light"]) == ["the", "garage", "light"])

        var changed = StablePartials(window: 100)
        _ = changed.update(["turn", "off"], after: 0)
        #expect(changed.update(["turn", "off"], after: 100) == ["turn", "off"])
        _ = changed.update(["turn", "on"], after: 200)
        #expect(changed.update(["turn", "on", "the"], after: 300).isEmpty)
        #expect(changed.finish(["turn", "on", "the", "light"]).isEmpty)
    }

    @Test func anEventReadsBackAsWritten() throws {
        let event = WyomingEvent(
            "audio-chunk", data: ["rate": 16000, "width": 2, "channels": 1], payload: [1, 2, 3, 4])
        var reader = WyomingFrameReader()
        #expect(try reader.read(event.encoded()) == [event])
        #expect(reader.bufferedCount == 0)
    }

    @Test func eventsCutAnywhereAreReassembled() throws {
        let events = [
            WyomingEvent("describe"), WyomingEvent("recognize", data: ["text": "turn the garage light on"]),
            WyomingEvent("audio-chunk", data: ["rate": 22050], payload: Array(repeating: 7, count: 3000)),
        ]
        let bytes = events.flatMap { $0.encoded() }
        for size in [1, 2, 7, 100, 4096] {
            var reader = WyomingFrameReader()
            var read: [WyomingEvent] = []
            var start = 0
            while start < bytes.count {
                read += try reader.read(bytes[start..<min(start + size, bytes.count)])
                start += size
            }
            #expect(read == events, "in pieces of \(size) bytes")
        }
    }

    /// In the channel: bytes in pieces come out as events, events go out as bytes, and what is
    /// not an event is an error that names it.
    @Test func theChannelFramesEventsBothWays() throws {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addWyomingFraming(limits: WyomingFrameReader.Limits())
        let events = [
            WyomingEvent("describe"),
            WyomingEvent(
                "audio-chunk", data: ["rate": 16000, "width": 2, "channels": 1], payload: [1, 2, 3, 4]),
        ]
        let bytes = events.flatMap { $0.encoded() }
        for start in stride(from: 0, to: bytes.count, by: 5) {
            try channel.writeInbound(ByteBuffer(bytes: bytes[start..<min(start + 5, bytes.count)]))
        }
        #expect(try channel.readInbound(as: WyomingEvent.self) == events[0])
        #expect(try channel.readInbound(as: WyomingEvent.self) == events[1])
        #expect(try channel.readInbound(as: WyomingEvent.self) == nil)

        try channel.writeOutbound(events[1])
        let written = try #require(try channel.readOutbound(as: ByteBuffer.self))
        #expect(Array(written.readableBytesView) == events[1].encoded())

        #expect(throws: WyomingFrameError("a header that is not a JSON object")) {
            try channel.writeInbound(ByteBuffer(string: "not json\n"))
        }
        _ = try? channel.finish()
    }

    /// Events of types the server does not take are ignored, as the protocol asks; the ones it
    /// takes are read by area.
    @Test func eventsAreReadByAreaAndUnknownOnesIgnored() {
        guard case .ignored(type: "timer-started") = WyomingRequest(WyomingEvent("timer-started")) else {
            Issue.record("an unknown event is not ignored")
            return
        }
        guard
            case .audio(.chunk(let format, let bytes)) = WyomingRequest(
                WyomingEvent(
                    "audio-chunk", data: ["rate": 22050, "width": 2, "channels": 1], payload: [9, 9]))
        else {
            Issue.record("an audio chunk is not read as one")
            return
        }
        #expect(format == WyomingAudioFormat(rate: 22050, width: 2, channels: 1))
        #expect(bytes == [9, 9])
        guard
            case .tts(.synthesize(text: "hello", voice: "en-gb", format: .text)) = WyomingRequest(
                WyomingEvent("synthesize", data: ["text": "hello", "voice": ["name": "en-gb"]]))
        else {
            Issue.record("synthesize is not read with its text and voice")
            return
        }
        // Wyoming 1.10's text_format: SSML, or a name the server refuses.
        guard
            case .tts(.synthesize(text: "<speak>hi</speak>", voice: nil, format: .ssml)) = WyomingRequest(
                WyomingEvent("synthesize", data: ["text": "<speak>hi</speak>", "text_format": "ssml"])),
            case .tts(.start(voice: nil, format: .unknown("markdown"))) = WyomingRequest(
                WyomingEvent("synthesize-start", data: ["text_format": "markdown"]))
        else {
            Issue.record("text_format is not read")
            return
        }
    }

    @Test func dataInTheHeaderIsMergedWithTheDataAfterIt() throws {
        let bytes =
            Array(#"{"type":"transcribe","data":{"language":"en"},"data_length":13}"#.utf8) + [0x0A]
            + Array(#"{"name":"x"} "#.utf8)
        var reader = WyomingFrameReader()
        #expect(
            try reader.read(bytes) == [WyomingEvent("transcribe", data: ["language": "en", "name": "x"])])
    }

    @Test(arguments: [
        (#"not json"#, "not a JSON object"),
        (#"{"data_length":2}"#, "without a \"type\""),
        (#"{"type":"audio-chunk","payload_length":-1}"#, "not a length"),
        (#"{"type":"audio-chunk","payload_length":104857600}"#, "over"),
        (#"{"type":"x","data_length":"ten"}"#, "not a length"),
    ])
    func aBadHeaderIsRefusedWithItsReason(_ header: String, _ reason: String) {
        var reader = WyomingFrameReader()
        #expect {
            try reader.read(Array(header.utf8) + [0x0A])
        } throws: { error in
            "\(error)".contains(reason)
        }
    }

    /// Blank lines between events are skipped, however many arrive at once: two megabytes of
    /// them once ran the reader out of stack, a line at a time.
    @Test func manyBlankLinesAreSkippedInOneRead() throws {
        var reader = WyomingFrameReader()
        let blank = [UInt8](repeating: 0x0A, count: 2 << 20) + Array(" \r\n".utf8)
        #expect(try reader.read(blank + WyomingEvent("describe").encoded()) == [WyomingEvent("describe")])
        #expect(reader.bufferedCount == 0)
    }

    /// An audio format is read at the rates audio files are: below them, each byte of a chunk
    /// would be thousands of samples at 16 kHz.
    @Test(arguments: [
        (1, false), (3_999, false), (4_000, true), (16_000, true), (768_000, true), (768_001, false),
    ])
    func anAudioFormatIsReadAtTheRatesAudioFilesAre(_ rate: Int, _ read: Bool) {
        let start = WyomingEvent(
            "audio-start", data: ["rate": .number(Double(rate)), "width": 2, "channels": 1])
        #expect((WyomingAudioFormat(of: start) != nil) == read)
    }

    @Test func aHeaderLineWithoutEndIsRefusedAtTheLimit() throws {
        var reader = WyomingFrameReader(limits: .init(header: 1024))
        #expect(try reader.read(Array(repeating: UInt8(ascii: "a"), count: 1000)).isEmpty)
        #expect(throws: WyomingFrameError.self) {
            try reader.read(Array(repeating: UInt8(ascii: "a"), count: 100))
        }
    }

    /// Random bytes, and valid events with bytes flipped, end in events or an error: never a
    /// crash, and never more held than the limits allow.
    @Test func fuzzedStreamsNeverCrash() {
        var generator = SystemRandomNumberGenerator()
        let limits = WyomingFrameReader.Limits(header: 4096, data: 4096, payload: 8192)
        let valid = WyomingEvent(
            "audio-chunk", data: ["rate": 16000, "width": 2, "channels": 1], payload: [0, 1]
        )
        .encoded()
        for round in 0..<2000 {
            var reader = WyomingFrameReader(limits: limits)
            var bytes =
                round % 2 == 0
                ? valid + valid : (0..<64).map { _ in UInt8.random(in: 0...255, using: &generator) }
            for _ in 0..<3 {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = .random(
                    in: 0...255, using: &generator)
            }
            _ = try? reader.read(bytes)
            #expect(reader.bufferedCount <= limits.header + limits.data + limits.payload + bytes.count)
        }
    }
}

/// What a satellite's microphone gives the voice loop, and which pipelines the server runs.
@Suite("Satellite microphone")
struct SatelliteMicrophoneTests {
    @Test func audioWhileAReplyPlaysIsNotHeard() {
        let microphone = SatelliteMicrophone()
        microphone.append([1, 2, 3])
        microphone.mute(for: 5)
        microphone.append([4, 5, 6])  // all dropped: the reply plays
        microphone.append([7, 8, 9])  // two more dropped, then heard
        microphone.end()
        #expect(microphone.read() == [1, 2, 3])
        #expect(microphone.read() == [9])
        #expect(microphone.read() == nil)
    }

    @Test func playedEndsTheDropping() {
        let microphone = SatelliteMicrophone()
        microphone.mute(for: 16_000)
        microphone.append([1, 2])
        microphone.unmute()
        microphone.append([3, 4])
        microphone.end()
        #expect(microphone.read() == [3, 4])
        #expect(microphone.read() == nil)
    }

    @Test func aLoopThatDoesNotReadHoldsThirtySecondsAtMost() {
        let microphone = SatelliteMicrophone()
        let second = [Int16](repeating: 1, count: 16_000)
        for _ in 0..<40 { microphone.append(second) }
        microphone.end()
        var held = 0
        while let chunk = microphone.read() { held += chunk.count }
        #expect(held == 30 * 16_000)
    }

    @Test func aClosedConversationDropsWhatComes() {
        let microphone = SatelliteMicrophone()
        microphone.append([1])
        microphone.close()
        microphone.append([2])
        #expect(microphone.isClosed)
        #expect(microphone.read() == nil)
    }

    @Test(arguments: [
        ("asr", "tts", false, true, true), ("wake", "tts", false, false, true),
        ("asr", "handle", false, true, false),
        ("asr", "tts", true, false, true),
    ])
    func stagesSayHowLongAndWhetherItSpeaks(
        _ start: String, _ end: String, _ restarts: Bool, _ once: Bool, _ speaks: Bool
    ) throws {
        let event = WyomingEvent(
            "run-pipeline",
            data: [
                "start_stage": .string(start), "end_stage": .string(end), "restart_on_end": .bool(restarts),
            ])
        let stages = try SatellitePipeline.Stages.of(event).get()
        #expect(stages.once == once)
        #expect(stages.speaks == speaks)
    }

    @Test(arguments: [("tts", "tts"), ("intent", "handle"), ("asr", "asr"), ("asr", "intent")])
    func stagesItCannotRunAreRefused(_ start: String, _ end: String) {
        let event = WyomingEvent(
            "run-pipeline", data: ["start_stage": .string(start), "end_stage": .string(end)])
        #expect(throws: WyomingFrameError.self) { try SatellitePipeline.Stages.of(event).get() }
    }
}

/// A satellite's audio as the recognizer takes it, chunk by chunk.
@Suite("Satellite audio")
struct SatelliteAudioTests {
    /// An 8 kHz stream (a telephone line's) comes out as the same audio read from a file does:
    /// resampled, and the band it lacks filled (`NarrowbandTests`), whatever its chunks' sizes.
    @Test func aNarrowbandStreamIsHeardAsTheSameRecordingWouldBe() {
        let audio = AudioBuffer(
            samples: (0..<5_600).map { Float(0.3 * sin(Double($0) * 2 * .pi * 2_900 / 8_000)) },
            sampleRate: 8_000)
        let pcm = audio.int16Samples.flatMap {
            [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)]
        }
        let expected = AudioBuffer(int16: audio.int16Samples, sampleRate: 8_000).forRecognizer
        for size in [2, 320, 3_000] {
            var converter = ChunkConverter(WyomingAudioFormat(rate: 8_000, width: 2, channels: 1))
            var heard: [Int16] = []
            for start in stride(from: 0, to: pcm.count, by: size) {
                heard += converter.convert(Array(pcm[start..<min(start + size, pcm.count)])) ?? []
            }
            heard += converter.finish()
            #expect(heard == expected, "in chunks of \(size) bytes")
        }
    }
}

/// The advert's multicast DNS, byte by byte.
@Suite("Zeroconf advert")
struct ZeroconfAdvertTests {
    static let records = MulticastDNS.ServiceRecords(
        instance: "home-lights", service: "_wyoming._tcp", host: "kitchen.local", port: 10700,
        addresses: [[192, 168, 1, 20]])

    /// A question for `name` of `type`, its name written whole or (from "_tcp") as a pointer back.
    static func query(_ name: String, type: UInt16) -> [UInt8] {
        var bytes: [UInt8] = [0x12, 0x34, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0]
        bytes += MulticastDNS.encode("_tcp.local") + [0, 12, 0, 1]  // at 12: "_tcp.local"
        let label = Array(name.split(separator: ".")[0].utf8)
        bytes += [UInt8(label.count)] + label + [0xC0, 12] + [UInt8(type >> 8), UInt8(type & 0xFF), 0x80, 1]
        return bytes
    }

    @Test func questionsForTheServiceOrTheInstanceAreAnswered() throws {
        let browse = try #require(MulticastDNS.Query(Self.query("_wyoming._tcp.local", type: 12)))
        #expect(browse.id == 0x1234)
        #expect(browse.questions.map(\.name) == ["_tcp.local", "_wyoming._tcp.local"])
        #expect(Self.records.answers(browse))
        #expect(
            !Self.records.answers(try #require(MulticastDNS.Query(Self.query("_hap._tcp.local", type: 12)))))
    }

    @Test func theAnnouncementHoldsEveryRecordAndAGoodbyeNoTime() throws {
        let hello = Self.records.announcement(ttl: true)
        #expect(Array(hello[2...3]) == [0x84, 0x00])  // an authoritative answer
        #expect(Array(hello[6...7]) == [0, 5])  // PTR, SRV, TXT, A, and the service type
        let port = MulticastDNS.encode("kitchen.local")
        #expect(hello.count > port.count)
        #expect(hello.firstRange(of: [0x29, 0xCC] + port) != nil)  // the SRV's port 10700, then its host
        let goodbye = Self.records.announcement(ttl: false)
        #expect(goodbye.count == hello.count && goodbye != hello)
    }

    @Test func answersAndBrokenPacketsAreNotQuestions() {
        var answer = Self.query("_wyoming._tcp.local", type: 12)
        answer[2] = 0x84
        #expect(MulticastDNS.Query(answer) == nil)
        #expect(MulticastDNS.Query([0, 1, 0, 0, 0, 1]) == nil)
        var loop: [UInt8] = [0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0xC0, 12, 0, 12, 0, 1]
        #expect(MulticastDNS.Query(loop) == nil)  // a pointer to itself
        loop[13] = 200
        #expect(MulticastDNS.Query(loop) == nil)  // a pointer past the end
    }
}
