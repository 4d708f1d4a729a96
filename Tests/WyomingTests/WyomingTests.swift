import Foundation
import Synchronization
import Testing
import VoiceAudio
import VoiceRecognition
import VoiceTestSupport

@testable import Wyoming

/// `voice-intents serve` as Home Assistant and satellites talk to it: the Python `wyoming` package
/// from PyPI, in a virtual environment the test makes, speaking to the server over TCP.
@Suite("Wyoming server", .serialized)
struct WyomingServerTests {
    static let recordings = PeoplesRecordings.folder.appendingPathComponent("rhasspy-test-en")
    static let client = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Wyoming/client.py")

    static let homeAssistant = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Wyoming/home_assistant.py")
    static let zeroconfWatch = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Wyoming/zeroconf_watch.py")
    static let satelliteMicrophone = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Wyoming/satellite_microphone.py")

    /// A virtual environment with `wyoming` from PyPI, made once per machine.
    static func python() throws -> String {
        try python(with: "wyoming", version: "1.10.2")
    }

    /// Held while a virtual environment is looked for or made: the suites that use one run side
    /// by side, and on a fresh machine they would make the same one at once.
    static let makingEnvironment = Mutex(())

    /// A virtual environment with `package` from PyPI (and `also`), made once per machine with
    /// `interpreter`: its Python.
    static func python(
        with package: String, version: String, interpreter: String = "python3", also: [String] = []
    ) throws -> String {
        try makingEnvironment.withLock { _ in
            try makePython(with: package, version: version, interpreter: interpreter, also: also)
        }
    }

    private static func makePython(
        with package: String, version: String, interpreter: String, also: [String]
    ) throws -> String {
        let home = FileManager.default.homeDirectoryForCurrentUser
        let environment = home.appendingPathComponent(".cache/voice-intents/\(package)-\(version)")
        let python = environment.appendingPathComponent("bin/python").path
        let ready = environment.appendingPathComponent("installed")
        if !FileManager.default.fileExists(atPath: ready.path) {
            let made = try Executables.run(command: interpreter, ["-m", "venv", environment.path], in: home)
            try #require(made.status == 0, "\(interpreter) -m venv: \(made.errors)")
            let installed = try Executables.run(
                command: python, ["-m", "pip", "install", "--quiet", "\(package)==\(version)"] + also,
                in: home)
            try #require(installed.status == 0, "pip install \(package): \(installed.errors)")
            _ = FileManager.default.createFile(atPath: ready.path, contents: nil)
        }
        return python
    }

    /// `voice-intents serve --app <app>` (with `options`) on a port the system chooses, and its URI.
    static func withServer(
        app: String = "home-lights", options: [String] = [], environment: [String: String]? = nil,
        _ body: (String) throws -> Void
    ) throws {
        try withRooms(app: app, options: options, environment: environment) { uri, _ in try body(uri) }
    }

    /// ``withServer(app:options:_:)``, with the URI of each room that `options` give an address
    /// of its own (`--room Kitchen=tcp://127.0.0.1:0`), by area.
    static func withRooms(
        app: String, options: [String], environment: [String: String]? = nil,
        _ body: (String, [String: String]) throws -> Void
    ) throws {
        let server = try LiveLoop.Listener(
            ["--app", app, "--uri", "tcp://127.0.0.1:0"] + options, environment: environment,
            command: "serve", executable: "voice-intents")
        defer { _ = server.terminate() }
        try #require(server.waitFor("serving Wyoming", inErrors: true, timeout: 60), "\(server.errors)")
        func uri(after marker: String) throws -> String {
            let line = try #require(server.errors.split(separator: "\n").first { $0.contains(marker) })
            return try String(
                #require(line.split(separator: " ").first { $0.hasPrefix("uri=tcp://") }?.dropFirst(4)))
        }
        var rooms: [String: String] = [:]
        for (option, value) in zip(options, options.dropFirst()) where option == "--room" {
            let area = String(value.prefix { $0 != "=" })
            try #require(server.waitFor("area=\(area) uri=", inErrors: true, timeout: 10), "\(server.errors)")
            rooms[area] = try uri(after: "area=\(area) uri=")
        }
        try body(try uri(after: "serving Wyoming"), rooms)
    }

    /// A person saying "hey mycroft, turn on the living room lamp" (Rhasspy's `precise` take), as
    /// a satellite's microphone gives it (16 kHz mono), written into `folder`.
    static func heyMycroft(in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent("hey-mycroft.wav")
        let take = try WAVFile.read(
            from: PeoplesRecordings.file("rhasspy-test-en", "wake/precise_turn_on_the_living_room_lamp.wav"))
        try WAVFile.write(take.resampled(to: 16_000), to: url)
        return url
    }

    /// Home Assistant's own Wyoming integration (`Wyoming/home_assistant.py`, run by the
    /// environment's `python`) with `arguments`, and the one JSON object it prints.
    static func runHomeAssistant(_ python: String, _ arguments: [String], in folder: URL) throws -> [String:
        Any]
    {
        let used = try Executables.run(command: python, [homeAssistant.path] + arguments, in: folder)
        try #require(used.status == 0, "\(used.errors)")
        let line = try #require(used.output.split(separator: "\n").last)
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    /// A TCP port nothing listens on, for a satellite to take.
    static func freePort() throws -> Int {
        let found = try Executables.run(
            command: try python(),
            [
                "-c",
                "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])",
            ],
            in: FileManager.default.temporaryDirectory)
        return try #require(
            Int(found.output.trimmingCharacters(in: .whitespacesAndNewlines)), "\(found.errors)")
    }

    /// `wyoming-satellite` 1.0.0 from PyPI, named `name`, listening on `port`, without its own
    /// Zeroconf advert, with `arguments` after; end it with ``stop(_:)``.
    static func satellite(_ name: String, port: Int, _ arguments: [String]) throws -> Process {
        let satellite = Process()
        satellite.executableURL = URL(
            fileURLWithPath: try python(with: "wyoming-satellite", version: "1.0.0"))
        satellite.arguments =
            ["-m", "wyoming_satellite", "--name", name, "--no-zeroconf", "--uri", "tcp://127.0.0.1:\(port)"]
            + arguments
        satellite.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        satellite.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try satellite.run()
        return satellite
    }

    /// Ends a satellite: it outlives SIGTERM, and its microphone program ends with it, on a
    /// broken pipe.
    static func stop(_ satellite: Process) {
        kill(satellite.processIdentifier, SIGKILL)
        satellite.waitUntilExit()
    }

    static func ask(_ python: String, _ uri: String, _ arguments: [String]) throws -> [String: Any] {
        try #require(try askForAll(python, uri, arguments).last)
    }

    /// Every line the client printed, each a JSON object.
    static func askForAll(_ python: String, _ uri: String, _ arguments: [String]) throws -> [[String: Any]] {
        let asked = try Executables.run(
            command: python, [client.path, uri] + arguments, in: URL(fileURLWithPath: "/tmp"))
        try #require(asked.status == 0, "\(arguments): \(asked.errors)")
        return try asked.output.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    @Test func thePythonClientDescribesRecognizesTranscribesAndHearsTheReply() async throws {
        try await offThePool {
            let python = try Self.python()
            try Self.withServer { uri in
                // Events of types it does not take (a newer peer's) are ignored: the first answer
                // is describe's.
                let info = try Self.ask(python, uri, ["describe", "timer-started", "satellite-connected"])
                #expect(info["asr"] as? [String] == ["home-lights"])
                #expect(info["intent"] as? [String] == ["home-lights"])

                let intent = try Self.ask(python, uri, ["recognize", "turn the garage light off"])
                #expect(intent["intent"] as? String == "ChangeLightStateIntent")
                #expect(intent["entities"] as? [String: String] == ["light": "Garage Light", "state": "Off"])
                let none = try Self.ask(python, uri, ["recognize", "what's the weather"])
                #expect(none["intent"] is NSNull)
                // Two commands in one sentence: a series of intents, as the 1.10 client takes them.
                let both = try Self.ask(
                    python, uri, ["recognize", "turn the garage light off and what time is it"])
                let intents = both["intents"] as? [[String: Any]] ?? []
                #expect(
                    intents.map { $0["intent"] as? String } == ["ChangeLightStateIntent", "GetTimeIntent"],
                    "\(both)")

                // A person's recording (22 kHz is resampled by the server), heard under the grammar.
                let recording = Self.recordings.appendingPathComponent("turn_the_garage_light_on.wav")
                let heard = try Self.ask(python, uri, ["transcribe", recording.path])
                #expect(heard["transcript"] as? String == "turn the garage light on")

                // The spoken reply, recognised back by the server it came from. (eSpeak NG's speech
                // fits the acoustic model worse than people's: of the lights' commands, this is one
                // it says clearly enough to clear the bar chosen on people.)
                let reply = FileManager.default.temporaryDirectory.appendingPathComponent(
                    "wyoming-\(UUID()).wav")
                defer { try? FileManager.default.removeItem(at: reply) }
                let said = try Self.ask(python, uri, ["synthesize", "turn the garage light on", reply.path])
                #expect((said["bytes"] as? Int ?? 0) > 10_000)
                let back = try Self.ask(python, uri, ["transcribe", reply.path])
                #expect(back["transcript"] as? String == "turn the garage light on")
            }
        }
    }

    /// What the voice loop would ignore is sent as no transcript, with the same settings: under
    /// `serve --decoys`, a command's shape with a verb the app has no phrase for, which `listen
    /// --decoys` ignores (`RejectionLoopTests`), comes back empty, and the app's own command whole.
    /// eSpeak NG says both.
    @Test func transcribeSendsNothingThatTheLoopWouldIgnore() async throws {
        try await offThePool {
            let python = try Self.python()
            try Self.withServer(app: "travel-tracking", options: ["--decoys"]) { uri in
                for (sentence, transcript) in [
                    ("cancel my tickets for machu picchu in travel tracking", ""),
                    ("navigate to the map in travel tracking", "navigate to the map in travel tracking"),
                ] {
                    let recording = try SpokenConversation.recording([sentence])
                    defer { try? FileManager.default.removeItem(at: recording) }
                    let heard = try Self.ask(python, uri, ["transcribe", recording.path])
                    #expect(heard["transcript"] as? String == transcript, "\(sentence): \(heard)")
                }
            }
        }
    }

    /// SIGTERM shuts the server down gracefully: it accepts no more connections and closes an
    /// idle one at once, but an utterance half streamed is still heard and answered before its
    /// connection is closed; then the server exits.
    @Test func aServerStoppingFinishesTheUtteranceUnderWayAndClosesIdleConnections() async throws {
        try await offThePool {
            let python = try Self.python()
            let server = try LiveLoop.Listener(
                ["--app", "home-lights", "--uri", "tcp://127.0.0.1:0", "--no-zeroconf"], command: "serve",
                executable: "voice-intents")
            defer { if server.process.isRunning { server.process.terminate() } }
            try #require(server.waitFor("serving Wyoming", inErrors: true, timeout: 60), "\(server.errors)")
            let uri = try #require(
                server.errors.split(separator: " ").first { $0.hasPrefix("uri=tcp://") }?.dropFirst(4))
            // A person's command, at 16 kHz so that its chunks are the ones sent.
            let recording = try WAVFile.read(
                from: Self.recordings.appendingPathComponent("turn_the_garage_light_on.wav")
            ).resampled(to: 16_000)
            let command = FileManager.default.temporaryDirectory.appendingPathComponent("drain-\(UUID()).wav")
            defer { try? FileManager.default.removeItem(at: command) }
            try WAVFile.write(recording, to: command)

            let drained = try Self.ask(
                python, String(uri), ["drain", "\(server.process.processIdentifier)", command.path])
            #expect(drained["idle_closed"] as? Bool == true, "\(drained)")
            #expect(drained["refused"] as? Bool == true, "\(drained)")
            #expect(drained["transcript"] as? String == "turn the garage light on", "\(drained)")
            #expect(drained["closed"] as? Bool == true, "\(drained)")
            server.process.waitUntilExit()
            #expect(server.process.terminationStatus == 0, "\(server.errors)")
            #expect(server.errors.contains("stopped by SIGTERM"), "\(server.errors)")
        }
    }

    @Test func twentyConcurrentStreamsGetTheTranscriptsOneStreamGets() async throws {
        try await offThePool {
            let python = try Self.python()
            let names = [
                "turn_the_garage_light_on", "turn_the_garage_light_off", "turn_the_living_room_lamp_on",
                "turn_the_living_room_lamp_off",
            ]
            let files = names.map { Self.recordings.appendingPathComponent("\($0).wav").path }
            try Self.withServer { uri in
                let alone = try files.map {
                    try Self.ask(python, uri, ["transcribe", $0])["transcript"] as? String
                }
                // Twenty connections at once, each with its own recognizer: at the recordings' rate,
                // and at 16 kHz, as satellites send it.
                let twenty = Array(repeating: files, count: 5).flatMap { $0 }
                let expected = Array(repeating: alone, count: 5).flatMap { $0 }.compactMap { $0 }
                let together = try Self.ask(python, uri, ["transcribe-together"] + twenty)
                #expect(together["transcripts"] as? [String] == expected)
                let streamed = try Self.ask(python, uri, ["transcribe-together-16k"] + twenty)
                #expect(streamed["transcripts"] as? [String] == expected)
                #expect(alone.allSatisfy { $0?.isEmpty == false })
            }
        }
    }

    /// As Home Assistant's wake-word stream: `detect` with a model `info` lists, then a person's
    /// recording as it is (44.1 kHz stereo, converted by the server). "Hey mycroft" is heard
    /// where the detector hears it (1.25 s in); after another wake word, `not-detected`.
    @Test func aTrainedWakeWordIsDetectedInAPersonsStream() async throws {
        try await offThePool {
            let python = try Self.python()
            let takes = PeoplesRecordings.folder.appendingPathComponent("rhasspy-test-en/wake")
            try Self.withServer { uri in
                let info = try Self.ask(python, uri, ["describe"])
                #expect(info["wake"] as? [String] == ["alexa", "hey_jarvis", "hey_mycroft", "okay_nabu"])
                let heard = try Self.ask(
                    python, uri,
                    [
                        "detect", "hey_mycroft",
                        takes.appendingPathComponent("precise_turn_on_the_living_room_lamp.wav").path,
                    ]
                )
                #expect(heard["detection"] as? String == "hey_mycroft", "\(heard)")
                let timestamp = try #require(heard["timestamp"] as? Int)
                #expect((1_200...1_300).contains(timestamp), "\(timestamp) ms")
                let other = try Self.ask(
                    python, uri,
                    [
                        "detect", "hey_mycroft",
                        takes.appendingPathComponent("porcupine_turn_on_the_living_room_lamp.wav").path,
                    ]
                )
                #expect(other["detection"] is NSNull, "\(other)")
                let unknown = try Self.ask(
                    python, uri,
                    [
                        "detect", "hey_computer",
                        takes.appendingPathComponent("porcupine_turn_on_the_living_room_lamp.wav").path,
                    ]
                )
                #expect((unknown["data"] as? [String: Any])?["text"] as? String != nil, "\(unknown)")
            }
        }
    }

    /// Another person's six takes of "athena" (`wake-word-negatives/athena`), most of which
    /// `okay_nabu` takes for its word, as one stream, as a satellite streams a room: each take,
    /// then more quiet than the model needs to settle; written into `folder`.
    static func athenaStream(in folder: URL) throws -> URL {
        let takes = PeoplesRecordings.folder.appendingPathComponent("wake-word-negatives/athena")
        var audio: [Int16] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: takes.path).sorted()
        where name.hasSuffix(".wav") {
            audio += try WAVFile.read(from: takes.appendingPathComponent(name)).int16Samples
            audio += [Int16](repeating: 0, count: 11 * 16_000)
        }
        let athena = folder.appendingPathComponent("athena.wav")
        try WAVFile.write(AudioBuffer(int16: audio, sampleRate: 16_000), to: athena)
        return athena
    }

    /// With `serve --wake-word-check`, `detect` hears each wake word the model hears again with
    /// the recognizer before it counts: a person's "hey mycroft" is still detected where the model
    /// hears it, and six takes of another person saying "athena", most of which `okay_nabu` takes
    /// for its word without the check, are not.
    @Test func theCheckBehindDetectTurnsAwayAnotherWord() async throws {
        try await offThePool {
            let python = try Self.python()
            let scratch = try temporaryFolder("detect-athena")
            defer { try? FileManager.default.removeItem(at: scratch) }
            let athena = try Self.athenaStream(in: scratch)
            func detected(_ options: [String]) throws -> Int {
                var count = 0
                try Self.withServer(options: options) { uri in
                    count = try Self.askForAll(python, uri, ["detect", "okay_nabu", athena.path]).filter {
                        $0["detection"] as? String == "okay_nabu"
                    }.count
                }
                return count
            }
            let alone = try detected([])
            #expect(alone >= 4, "\(alone) of 6")
            let checked = try detected(["--wake-word-check"])
            #expect(checked == 0, "\(checked) of 6")
            try Self.withServer(options: ["--wake-word-check"]) { uri in
                let take = PeoplesRecordings.folder.appendingPathComponent(
                    "rhasspy-test-en/wake/precise_turn_on_the_living_room_lamp.wav")
                let heard = try Self.ask(python, uri, ["detect", "hey_mycroft", take.path])
                #expect(heard["detection"] as? String == "hey_mycroft", "\(heard)")
                let timestamp = try #require(heard["timestamp"] as? Int)
                #expect((1_200...1_300).contains(timestamp), "\(timestamp) ms")
            }
        }
    }

    /// A wake word the app was calibrated for (`calibrate --wake-word okay_nabu --save`) is heard
    /// by `detect` with the calibration's cutoff and check, as `listen` hears it: the six takes of
    /// "athena" that wake `okay_nabu` at its own cutoff (the test above) wake it neither under a
    /// cutoff raised to 0.99 nor under the calibration's check, and a word with no calibration
    /// (`hey_mycroft`) is heard as before.
    @Test func detectHearsAWordAsTheAppWasCalibratedForIt() async throws {
        try await offThePool {
            let python = try Self.python()
            let scratch = try temporaryFolder("detect-calibrated")
            defer { try? FileManager.default.removeItem(at: scratch) }
            let athena = try Self.athenaStream(in: scratch)
            // A copy of the models, with the app's calibration beside them.
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent()
            let models = scratch.appendingPathComponent("Models")
            try FileManager.default.copyItem(at: root.appendingPathComponent("Models"), to: models)
            let environment = ProcessInfo.processInfo.environment.merging([
                "VOICE_INTENTS_MODELS": models.path
            ]) { $1 }
            let file = models.appendingPathComponent("en/home-lights.wake-word.okay_nabu.json")
            func detected(cutoff: Double, checkMargin: Double?) throws -> Int {
                try WakeWordCalibration(
                    model: "okay_nabu", modelCutoff: 0.85, cutoff: cutoff, checkMargin: checkMargin,
                    takes: [.init(file: "0001.wav", condition: "as recorded", peak: 1)],
                    date: "2026-12-03T00:00:00Z", command: nil
                ).write(to: file)
                var count = 0
                try Self.withServer(environment: environment) { uri in
                    count = try Self.askForAll(python, uri, ["detect", "okay_nabu", athena.path]).filter {
                        $0["detection"] as? String == "okay_nabu"
                    }.count
                    let take = PeoplesRecordings.folder.appendingPathComponent(
                        "rhasspy-test-en/wake/precise_turn_on_the_living_room_lamp.wav")
                    let heard = try Self.ask(python, uri, ["detect", "hey_mycroft", take.path])
                    #expect(heard["detection"] as? String == "hey_mycroft", "\(heard)")
                }
                return count
            }
            let raised = try detected(cutoff: 0.99, checkMargin: nil)
            #expect(raised == 0, "\(raised) of 6 at 0.99")
            let checked = try detected(cutoff: 0.85, checkMargin: -30)
            #expect(checked == 0, "\(checked) of 6 with the check")
        }
    }

    /// `synthesize` with Wyoming 1.10's `text_format: ssml` is read as SSML by eSpeak NG: its
    /// elements are not spoken ("<speak>Hello there, anything else?</speak>" lasts as the text
    /// does), and a `<break>` is a pause of its length.
    @Test func ssmlIsSpokenAsSSML() async throws {
        try await offThePool {
            let python = try Self.python()
            let folder = try temporaryFolder("ssml")
            defer { try? FileManager.default.removeItem(at: folder) }
            try Self.withServer { uri in
                func seconds(_ command: String, _ text: String) throws -> Double {
                    let reply = try Self.ask(
                        python, uri, [command, text, folder.appendingPathComponent("reply.wav").path])
                    let rate = try #require(reply["rate"] as? Int, "\(reply)")
                    return Double(reply["bytes"] as? Int ?? 0) / 2 / Double(rate)
                }
                // One sentence: plain text is spoken sentence by sentence, SSML whole.
                let plain = try seconds("synthesize", "Hello there, anything else?")
                let document = try seconds("synthesize-ssml", "<speak>Hello there, anything else?</speak>")
                // Read aloud, the two tags would add 1.6 s (`espeak-ng` without `-m`); the
                // document's end adds 0.3 s of quiet here.
                #expect(abs(document - plain) < 0.5, "SSML \(document) s, plain \(plain) s")
                let paused = try seconds(
                    "synthesize-ssml", "<speak>Hello there, <break time=\"1500ms\"/> anything else?</speak>")
                #expect(
                    (1.1...1.9).contains(paused - document),
                    "with the break \(paused) s, without \(document) s")
            }
        }
    }

    /// A reply of several sentences is spoken sentence by sentence (the first sentence's audio
    /// leaves while the rest is still spoken) but comes as one stream: one `audio-start`, chunks
    /// timed where they fall, one `audio-stop`, and as long as its sentences spoken one by one
    /// (within 1%).
    @Test func aLongReplyComesAsOneStreamSpokenSentenceBySentence() async throws {
        try await offThePool {
            let python = try Self.python()
            let folder = try temporaryFolder("long-reply")
            defer { try? FileManager.default.removeItem(at: folder) }
            let sentences = [
                "The kitchen light is on.", "The garage door is closed.", "It's 21 degrees inside.",
            ]
            try Self.withServer { uri in
                let whole = try Self.ask(
                    python, uri,
                    [
                        "synthesize", sentences.joined(separator: " "),
                        folder.appendingPathComponent("all.wav").path,
                    ])
                #expect(whole["timed"] as? Bool == true, "\(whole)")
                var parts = 0
                for (index, sentence) in sentences.enumerated() {
                    let one = try Self.ask(
                        python, uri,
                        ["synthesize", sentence, folder.appendingPathComponent("\(index).wav").path])
                    parts += one["bytes"] as? Int ?? 0
                }
                // eSpeak NG's samples vary by a few with what it said before (measured: 22 of 99,000).
                let bytes = whole["bytes"] as? Int ?? 0
                #expect(abs(bytes - parts) < parts / 100, "\(bytes) bytes; the sentences alone: \(parts)")
            }
        }
    }

    /// `info` says the server streams transcripts and takes text in pieces. A person's command
    /// sent in real time is transcribed in pieces while it is still arriving: the pieces,
    /// joined, are the transcript, and then come the whole `transcript` (for clients that take
    /// no pieces) and `transcript-stop`, as the protocol orders them.
    @Test func aTranscriptIsStreamedInPiecesWhileTheSpeechArrives() async throws {
        try await offThePool {
            let python = try Self.python()
            try Self.withServer { uri in
                let described = try Executables.run(
                    command: python,
                    [
                        "-c",
                        """
                        import asyncio, json
                        from wyoming.client import AsyncClient
                        from wyoming.info import Describe, Info
                        async def main():
                            async with AsyncClient.from_uri("\(uri)") as client:
                                await client.write_event(Describe().event())
                                info = Info.from_event(await client.read_event())
                                asr = info.asr[0]
                                print(json.dumps([asr.supports_transcript_streaming,
                                                  info.tts[0].supports_synthesize_streaming,
                                                  asr.requires_external_vad,
                                                  asr.prefers_auto_gain_enabled,
                                                  asr.prefers_noise_reduction_enabled]))
                        asyncio.run(main())
                        """,
                    ], in: URL(fileURLWithPath: "/tmp"))
                // Wyoming 1.10's fields read as sent: the client ends the audio, and the server's
                // own front end wants it as recorded.
                #expect(
                    described.output.contains("[true, true, true, false, false]"),
                    "\(described.output)\(described.errors)")

                let recording = Self.recordings.appendingPathComponent("turn_the_garage_light_on.wav")
                let run = try Executables.run(
                    command: python, [Self.client.path, uri, "transcribe-streaming", recording.path],
                    in: URL(fileURLWithPath: "/tmp"))
                try #require(run.status == 0, "\(run.errors)")
                let events = try run.output.split(separator: "\n").map {
                    try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
                }
                let types = events.compactMap { $0["type"] as? String }
                #expect(types.first == "transcript-start", "\(types)")
                #expect(Array(types.suffix(2)) == ["transcript", "transcript-stop"], "\(types)")
                let pieces = events.filter { $0["type"] as? String == "transcript-chunk" }
                #expect(
                    pieces.compactMap { $0["text"] as? String }.joined() == "turn the garage light on",
                    "\(events)")
                // The first piece came while the command was still being sent (it is 1.9 s long).
                let duration = try WAVFile.read(from: recording).duration
                #expect(
                    (pieces.first?["sent"] as? Double ?? .infinity) < duration - 0.2,
                    "\(events), \(duration) s")
                #expect(
                    events.first { $0["type"] as? String == "transcript" }?["text"] as? String
                        == "turn the garage light on")
            }
        }
    }

    /// Text sent in pieces (as Home Assistant sends a reply while its agent is still writing it)
    /// is spoken sentence by sentence as each sentence is whole: the first sentence's audio comes
    /// before the last piece is sent. Each sentence is a stream of its own, and
    /// `synthesize-stopped` ends them; the whole text sent with them for older servers is not
    /// spoken again: the audio is as long as the whole text's spoken at once (within 1%).
    @Test func textSentInPiecesIsSpokenSentenceBySentence() async throws {
        try await offThePool {
            let python = try Self.python()
            let folder = try temporaryFolder("text-pieces")
            defer { try? FileManager.default.removeItem(at: folder) }
            try Self.withServer { uri in
                let reply = folder.appendingPathComponent("reply.wav")
                let said = try Self.ask(
                    python, uri,
                    [
                        "synthesize-streaming", reply.path, "The kitchen li", "ght is on. Turn the gar",
                        "age light on.",
                    ])
                #expect(said["streams"] as? Int == 2, "\(said)")
                #expect(said["before_last_piece"] as? Bool == true, "\(said)")
                let whole = try Self.ask(
                    python, uri,
                    [
                        "synthesize", "The kitchen light is on. Turn the garage light on.",
                        folder.appendingPathComponent("whole.wav").path,
                    ])
                let bytes = said["bytes"] as? Int ?? 0
                let wholeBytes = whole["bytes"] as? Int ?? 0
                #expect(
                    abs(bytes - wholeBytes) < wholeBytes / 100,
                    "\(bytes) bytes in pieces, \(wholeBytes) whole")
            }
        }
    }

    /// A request's `context` (Wyoming 1.10, the client's from the interactions before) comes
    /// back as it came on the answer, with the 1.10 client: the server keeps no conversation.
    @Test func aRequestsContextComesBackOnItsAnswer() async throws {
        try await offThePool {
            let python = try Self.python()
            try Self.withServer { uri in
                let context = #"{"conversation_id": "kitchen-7", "turn": 2}"#
                func sent(_ answer: [String: Any]) -> Bool {
                    let back = answer["context"] as? [String: Any]
                    return back?["conversation_id"] as? String == "kitchen-7" && back?["turn"] as? Int == 2
                }
                let intent = try Self.ask(python, uri, ["recognize", "turn the garage light off", context])
                #expect(intent["intent"] as? String == "ChangeLightStateIntent")
                #expect(sent(intent), "\(intent)")
                let none = try Self.ask(python, uri, ["recognize", "what's the weather", context])
                #expect(sent(none), "\(none)")
                let done = try Self.ask(python, uri, ["handle", "turn the garage light off", context])
                #expect(done["handled"] as? Bool == true)
                #expect(sent(done), "\(done)")
                let missed = try Self.ask(python, uri, ["handle", "what's the weather", context])
                #expect(missed["handled"] as? Bool == false)
                #expect(sent(missed), "\(missed)")
                let recording = Self.recordings.appendingPathComponent("turn_the_garage_light_on.wav")
                let heard = try Self.ask(python, uri, ["transcribe", recording.path, context])
                #expect(heard["transcript"] as? String == "turn the garage light on")
                #expect(sent(heard), "\(heard)")
                // Without one, none comes back.
                let plain = try Self.ask(python, uri, ["handle", "turn the garage light off"])
                #expect(plain["context"] is NSNull, "\(plain)")
            }
        }
    }

    /// Home Assistant's conversation agent sends the text it heard; the app runs it.
    @Test func aCommandIsRunAndItsDialogReturned() async throws {
        try await offThePool {
            let python = try Self.python()
            try Self.withServer { uri in
                let done = try Self.ask(python, uri, ["handle", "turn the garage light off"])
                #expect(done["handled"] as? Bool == true)
                #expect(done["text"] as? String == "Turned Off the Garage Light.")
                let missed = try Self.ask(python, uri, ["handle", "what's the weather"])
                #expect(missed["handled"] as? Bool == false)
                // The sentence every front end says to a command that fits nothing (TurnReply).
                #expect(missed["text"] as? String == "Sorry, I didn't understand that.")
            }
        }
    }

    /// One exchange holds no confirmation, so an intent that requires authentication is asked
    /// about, never run.
    @Test func aSensitiveCommandIsNotRunFromOneExchange() async throws {
        try await offThePool {
            let python = try Self.python()
            try Self.withServer(app: "smart-home") { uri in
                let unlock = try Self.ask(python, uri, ["handle", "unlock the front door"])
                #expect(unlock["handled"] as? Bool == false)
                #expect(unlock["text"] as? String == "Unlock the Front Door?")
            }
        }
    }

    /// Home Assistant's own Wyoming integration, from PyPI, as it adds the service and uses it:
    /// it reads the info and offers speech to text, text to speech and wake words; its
    /// speech-to-text entity gets a person's recording heard, its text-to-speech entity gets audio
    /// that is heard back, and its wake-word entity hears a person's "hey mycroft". (2024.1 is the last Home Assistant that runs on Debian 12's Python 3.11; the
    /// packages after it are what it installs for these integrations when it starts.)
    @Test func homeAssistantsIntegrationUsesTheServer() async throws {
        try await offThePool {
            let python = try Self.python(
                with: "homeassistant", version: "2024.1.6",
                also: [
                    "wyoming==1.4.0", "hassil==1.5.1", "home-assistant-intents==2024.1.2", "mutagen==1.47.0",
                    "ha-ffmpeg==3.1.0", "webrtc-noise-gain==1.2.3",
                ])
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "home-assistant-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            // Home Assistant's microphones give 16 kHz.
            let recording = folder.appendingPathComponent("command.wav")
            let person = try WAVFile.read(
                from: Self.recordings.appendingPathComponent("turn_the_garage_light_on.wav"))
            try WAVFile.write(person.resampled(to: 16_000), to: recording)
            let reply = folder.appendingPathComponent("reply.wav")
            // A person saying "hey mycroft" and a command, as a satellite's microphone gives it.
            let wake = try Self.heyMycroft(in: folder)
            try Self.withServer { uri in
                let result = try Self.runHomeAssistant(
                    python,
                    [uri, recording.path, reply.path, "turn the garage light on", wake.path, "hey_mycroft"],
                    in: folder)
                #expect(result["platforms"] as? [String] == ["stt", "tts", "wake_word"])
                #expect(
                    result["wake_words"] as? [String] == ["alexa", "hey_jarvis", "hey_mycroft", "okay_nabu"])
                #expect(result["wake_word"] as? String == "hey_mycroft", "\(result)")
                #expect((1_200...1_300).contains(result["wake_timestamp"] as? Int ?? 0), "\(result)")
                #expect(result["name"] as? String == "voice-intents")
                #expect(result["stt_languages"] as? [String] == ["en"])
                #expect(result["stt_result"] as? String == "success")
                #expect(result["transcript"] as? String == "turn the garage light on")
                #expect(result["tts_format"] as? String == "wav")
                let back = try Self.ask(try Self.python(), uri, ["transcribe", reply.path])
                #expect(back["transcript"] as? String == "turn the garage light on")
            }
        }
    }

    /// Listening beyond this machine, the server advertises itself as Home Assistant discovers
    /// Wyoming services (python-zeroconf, which Home Assistant uses, watching), with the port it
    /// listens on, and says goodbye when it stops.
    @Test func theServerIsAdvertisedOverZeroconf() async throws {
        try await offThePool {
            let python = try Self.python(with: "wyoming-satellite", version: "1.0.0")  // has python-zeroconf
            let log = FileManager.default.temporaryDirectory.appendingPathComponent("zeroconf-\(UUID()).log")
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            defer { try? FileManager.default.removeItem(at: log) }
            let watcher = Process()
            watcher.executableURL = URL(fileURLWithPath: python)
            watcher.arguments = [Self.zeroconfWatch.path, "home-lights", "30"]
            watcher.standardOutput = try FileHandle(forWritingTo: log)
            try watcher.run()
            Thread.sleep(forTimeInterval: 1)
            let server = try LiveLoop.Listener(
                ["--app", "home-lights", "--uri", "tcp://0.0.0.0:0"], command: "serve",
                executable: "voice-intents")
            #expect(
                server.waitFor("advertising over Zeroconf", inErrors: true, timeout: 60), "\(server.errors)")
            let port = server.errors.split(separator: " ").first { $0.hasPrefix("uri=tcp://") }?
                .split(separator: ":").last.map(String.init)
            let advertised = Date().addingTimeInterval(15)
            while Date() < advertised,
                !((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains("added")
            {
                Thread.sleep(forTimeInterval: 0.1)
            }
            _ = server.terminate()
            watcher.waitUntilExit()
            let seen = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map(String.init)
            #expect(seen == ["added home-lights \(port ?? "?")", "removed home-lights"], "\(server.errors)")
        }
    }

    @Test func garbageClosesOnlyItsOwnConnection() async throws {
        try await offThePool {
            let python = try Self.python()
            try Self.withServer { uri in
                let garbage = try Self.ask(python, uri, ["send-garbage"])
                #expect((garbage["error"] as? String)?.contains("not a JSON object") == true)
                #expect(garbage["closed"] as? Bool == true)
                let after = try Self.ask(python, uri, ["recognize", "turn the garage light on"])
                #expect(after["intent"] as? String == "ChangeLightStateIntent")
            }
        }
    }

    /// Two inputs that once took the whole server down: two megabytes of blank lines (a stack
    /// frame each) and audio at 1 Hz (16,000 samples a byte). The first is read past, the second
    /// refused, and the server goes on serving.
    @Test func inputsThatOnceCrashedTheServerAreReadOrRefused() async throws {
        try await offThePool {
            let python = try Self.python()
            try Self.withServer { uri in
                let blank = try Self.ask(python, uri, ["send-blank-lines"])
                #expect(blank["type"] as? String == "info", "\(blank)")
                let slow = try Self.ask(python, uri, ["send-slow-audio"])
                #expect(slow["type"] as? String == "error", "\(slow)")
                #expect((slow["text"] as? String)?.contains("4,000 to 768,000 Hz") == true, "\(slow)")
                let after = try Self.ask(python, uri, ["recognize", "turn the garage light on"])
                #expect(after["intent"] as? String == "ChangeLightStateIntent")
            }
        }
    }
}
