import Foundation
import Testing
import VoiceAudio
import VoiceEvaluation
import VoiceSynthesis
import VoiceTestSupport

/// Real audio devices without a sound card: a private PulseAudio server with a virtual microphone
/// and a null sink, reached through PulseAudio's own API and through ALSA's `pulse` device.
/// The tests point this process at their server (`PULSE_SERVER`), so they run one at a time.
@Suite(
    "Audio devices", .serialized,
    .enabled(if: PrivateSoundServer.isInstalled, PrivateSoundServer.notInstalled))
struct AudioDeviceTests {
    static let sentence = "how busy is kyoto in travel tracking"

    /// The sentence as eSpeak NG says it, at its own rate (22050 Hz).
    static func speech() throws -> AudioBuffer {
        let speech = try TestSpeech.said(sentence, voice: "en-us", rate: 150)
        return AudioBuffer(int16: speech.samples, sampleRate: speech.sampleRate)
    }

    /// Plays `speech` after 0.3 s of quiet (a sink's monitor starts delivering only once the sink
    /// plays), and waits until it has been heard.
    /// What the private server's null sink plays, recorded from its monitor for as long as
    /// `speech` and a second more; it is recording when this returns.
    static func recordingTheNullSink(for speech: AudioBuffer) throws -> BackgroundRecorder {
        let recorder = BackgroundRecorder(seconds: speech.duration + 1) { () throws(SpeechError) in
            try PulseAudioSource(device: "nullsink.monitor")
        }
        try recorder.waitUntilRecording()
        return recorder
    }

    static func play(_ speech: AudioBuffer, to speaker: any AudioSink) throws(SpeechError) {
        try speaker.play(
            AudioBuffer(
                samples: [Float](repeating: 0, count: speech.sampleRate * 3 / 10),
                sampleRate: speech.sampleRate))
        try speaker.play(speech)
        try speaker.drain()
    }

    /// Checks that `recorded` (16 kHz) carries `speech`: its loudness has the same shape over
    /// time, and about as much of it is loud. `skipping` leaves out the start of the speech.
    static func expectSpeech(
        _ speech: AudioBuffer, in recorded: [Int16], skipping: Double = 0,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let expected = Envelope(Array(speech.forRecognizer.dropFirst(Int(skipping * 16_000))))
        let heard = Envelope(recorded)
        let match = heard.bestMatch(of: expected)
        let loud = Double(heard.loudFrames()) / Double(max(expected.loudFrames(), 1))
        #expect(
            match.correlation > 0.98, "the recording's loudness does not follow the speech",
            sourceLocation: sourceLocation)
        #expect(
            (0.8...1.25).contains(loud),
            "loud for \(heard.loudFrames()) frames, the speech for \(expected.loudFrames())",
            sourceLocation: sourceLocation)
    }

    // MARK: Device strings

    @Test func deviceStringsNameTheBackend() throws {
        #expect(try AudioDevice("") == .automatic)
        #expect(try AudioDevice("default") == .automatic)
        #expect(try AudioDevice("pulse") == .pulseAudio(nil))
        #expect(try AudioDevice("pulse:nullsink.monitor") == .pulseAudio("nullsink.monitor"))
        #expect(try AudioDevice("vmic") == .pulseAudio("vmic"))
        #expect(try AudioDevice("alsa") == .alsa("default"))
        #expect(try AudioDevice("alsa:hw:1,0") == .alsa("hw:1,0"))
        #expect(try AudioDevice("alsa:pulse") == .alsa("pulse"))
        for text in ["default", "pulse", "pulse:vmic", "alsa:hw:1,0", "alsa:default"] {
            #expect(try AudioDevice(text).description == text)
        }
    }

    @Test func anUnknownDeviceKindSaysHowToWriteIt() {
        let error = #expect(throws: SpeechError.self) { try AudioDevice("hw:1,0") }
        #expect(error?.kind == .invalidInput)
        #expect(error?.message.contains("alsa:hw:1,0") == true, "\(String(describing: error))")
    }

    // MARK: PulseAudio

    /// Starts a private server, opens a speaker on it with `open` (given the speech's rate), and
    /// checks that speech played there is heard on the null sink's monitor; returns the speaker.
    static func playedOnTheNullSink(
        _ open: (Int) throws -> any AudioSink, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> any AudioSink {
        let server = try PrivateSoundServer()
        defer { server.stop() }
        server.useInThisProcess()
        let speech = try Self.speech()
        let recorder = try Self.recordingTheNullSink(for: speech)

        let speaker = try open(speech.sampleRate)
        try Self.play(speech, to: speaker)
        Self.expectSpeech(speech, in: try recorder.result(), sourceLocation: sourceLocation)
        return speaker
    }

    @Test func pulseAudioPlaybackIsHeardOnTheSinkMonitor() async throws {
        try await offThePool {
            let speaker = try Self.playedOnTheNullSink {
                try PulseAudioSink(device: "nullsink", sampleRate: $0)
            }
            #expect(speaker.name == "the PulseAudio sink \"nullsink\"")
        }
    }

    // MARK: ALSA, through its PulseAudio device

    @Test func alsaRecordsTheMicrophoneThroughThePulseDevice() async throws {
        try await offThePool {
            let server = try PrivateSoundServer()
            defer { server.stop() }
            server.useInThisProcess()
            let speech = try Self.speech()
            let written = speech.forRecognizer
            let quiet = [Int16](repeating: 0, count: 4_800)
            // The pipe source delivers only what is written: record no more than that.
            let recorder = BackgroundRecorder(seconds: Double(written.count + quiet.count) / 16_000) {
                () throws(SpeechError) in try AudioDevice("alsa:pulse").openSource()
            }
            try recorder.waitUntilRecording()
            server.speak(quiet + written + quiet + quiet)
            let recorded = try recorder.result()
            Self.expectSpeech(speech, in: recorded)
            // Nothing on the way converts 16 kHz mono: ALSA hands over what went into the microphone.
            let start = recorded.firstIndex { $0 != 0 } ?? 0
            #expect(recorded[start...].starts(with: written.drop { $0 == 0 }), "the samples differ")
        }
    }

    @Test func alsaPlaybackIsHeardOnTheSinkMonitor() async throws {
        try await offThePool {
            let speaker = try Self.playedOnTheNullSink {
                try AudioDevice("alsa:pulse").openSink(sampleRate: $0)
            }
            #expect(speaker is ALSASink)
        }
    }

    // MARK: Bad devices

    @Test func missingDevicesAreNamedWithWhatToTry() async throws {
        try await offThePool {
            let server = try PrivateSoundServer()
            defer { server.stop() }
            server.useInThisProcess()
            let sources: [(device: String, named: String, why: String)] = [
                ("pulse:no-such-source", "the PulseAudio source \"no-such-source\"", "No such entity"),
                ("alsa:no-such-device", "the ALSA device \"no-such-device\"", "Unknown PCM no-such-device"),
            ]
            for (device, named, why) in sources {
                let error = #expect(throws: SpeechError.self) { try AudioDevice(device).openSource() }
                let message = error?.message ?? ""
                #expect(error?.kind == .deviceUnavailable)
                #expect(message.hasPrefix("cannot record from \(named): \(why)"), "\(message)")
                #expect(message.contains("pactl list short sources"), "\(message)")
                #expect(message.contains("arecord -L"), "\(message)")
                #expect(message.contains("standard input"), "\(message)")
            }
            let sinks: [(device: String, named: String)] = [
                ("pulse:no-such-sink", "the PulseAudio sink \"no-such-sink\""),
                ("alsa:no-such-device", "the ALSA device \"no-such-device\""),
            ]
            for (device, named) in sinks {
                let error = #expect(throws: SpeechError.self) { try AudioDevice(device).openSink() }
                let message = error?.message ?? ""
                #expect(message.hasPrefix("cannot play to \(named): "), "\(message)")
                #expect(
                    message.contains("pactl list short sinks") && message.contains("aplay -L"), "\(message)")
            }
        }
    }

    @Test func withoutASoundServerTheDefaultFallsBackToALSA() throws {
        let previous = ProcessInfo.processInfo.environment["PULSE_SERVER"]
        setenv("PULSE_SERVER", "unix:/nonexistent/pulse/native", 1)
        defer {
            if let previous { setenv("PULSE_SERVER", previous, 1) } else { unsetenv("PULSE_SERVER") }
        }
        do {
            // A machine with a sound card records from it; here there is none, so both are named.
            let source = try AudioDevice.automatic.openSource()
            #expect(source is ALSASource)
        } catch {
            #expect(error.message.hasPrefix("cannot record from the default PulseAudio source: "), "\(error)")
            #expect(error.message.contains("Is a sound server running"), "\(error)")
            #expect(
                error.message.contains("Falling back to ALSA: cannot record from the ALSA device \"default\"")
            )
            #expect(error.message.contains("arecord -L"), "\(error)")
        }
    }

    // MARK: Devices that go away

    @Test(arguments: [
        ("pulse:vmic", "the PulseAudio source \"vmic\""), ("alsa:pulse", "the ALSA device \"pulse\""),
    ])
    func aSourceThatDisappearsIsReportedAndReopened(device: String, named: String) async throws {
        try await offThePool {
            let server = try PrivateSoundServer()
            defer { server.stop() }
            server.useInThisProcess()
            let tone = (0..<48_000).map { Int16(8_000 * sin(Double($0) * 2 * .pi * 440 / 16_000)) }
            server.speak(tone)  // 3 s; the server stopping ends it
            var events: [ReopeningSource.Event] = []
            // A stall timeout too: once (session 43, a loaded machine) libpulse deadlocked in the
            // read as the server went, and the test waited for good.
            let microphone = try ReopeningSource(
                device: try AudioDevice(device),
                policy: .init(
                    firstDelay: .milliseconds(200), maximumDelay: .milliseconds(400), maximumAttempts: 25,
                    stallTimeout: .seconds(5))
            ) { events.append($0) }
            #expect(microphone.name == named)
            let before = try microphone.read(4_000)
            #expect(Envelope(before).loudFrames() > 20)

            // While the next read waits, the server goes away, and comes back a moment later.
            let restarted = DispatchSemaphore(value: 0)
            // Runs before the server's own defer: never stop it while this thread may start it again.
            defer { _ = restarted.wait(timeout: .now() + 10) }
            Thread.detachNewThread { [server] in
                defer { restarted.signal() }
                Thread.sleep(forTimeInterval: 0.2)
                server.stopServer()
                Thread.sleep(forTimeInterval: 0.5)
                guard (try? server.start()) != nil else { return }
                // Long enough to outlast the reopening: a source with nothing to play blocks a read.
                server.speak(Array(repeating: tone, count: 5).flatMap { $0 })
            }
            // Audio recorded before the loss may still arrive first: read until the source is back.
            let started = Date()
            while events.count < 2, Date().timeIntervalSince(started) < 15 { _ = try microphone.read(1_600) }
            let after = try microphone.read(8_000)
            #expect(events.count == 2, "\(events)")
            guard case .lost(let error)? = events.first else {
                Issue.record("the loss was not reported: \(events)")
                return
            }
            #expect(
                error.message.hasPrefix("recording from \(named) stopped: ")
                    || error.message.hasPrefix("\(named) sent no audio for 5.0 s"), "\(error)")
            guard case .reopened(let attempts, _)? = events.last else {
                Issue.record("the return was not reported: \(events)")
                return
            }
            #expect(attempts >= 1)
            #expect(Envelope(after).loudFrames() > 40, "no tone after the server came back")
        }
    }

    /// A sound server that hangs (stopped here with SIGSTOP; a client library that deadlocks
    /// looks the same to the reader): with a stall timeout, the read that waits is left behind,
    /// the loss is reported, and the source opens the device anew once the server answers again.
    @Test func aSoundServerThatHangsIsLeftAndReopened() async throws {
        try await offThePool {
            let server = try PrivateSoundServer()
            defer { server.stop() }
            server.useInThisProcess()
            let microphone = server.liveMicrophone()
            defer { microphone.close() }
            var events: [ReopeningSource.Event] = []
            let source = try ReopeningSource(
                device: .pulseAudio("vmic"),
                policy: .init(
                    firstDelay: .milliseconds(100), maximumDelay: .milliseconds(400), maximumAttempts: 40,
                    stallTimeout: .seconds(1))
            ) { events.append($0) }
            #expect(try source.read(1_600).count == 1_600)
            let pid = try #require(server.pid)
            kill(pid, SIGSTOP)
            // The server answers again three seconds later; it must not be left stopped, or
            // stopping it at the end would wait for nothing.
            let continued = DispatchSemaphore(value: 0)
            defer { _ = continued.wait(timeout: .now() + 10) }
            Thread.detachNewThread {
                defer { continued.signal() }
                Thread.sleep(forTimeInterval: 3)
                kill(pid, SIGCONT)
            }
            let started = Date()
            while events.count < 2, Date().timeIntervalSince(started) < 20 { _ = try source.read(1_600) }
            #expect(events.count == 2, "\(events)")
            guard case .lost(let error)? = events.first else {
                Issue.record("the hang was not reported: \(events)")
                return
            }
            #expect(
                error.message
                    == "the PulseAudio source \"vmic\" sent no audio for 1.0 s: the device or the sound server hangs",
                "\(error)")
            guard case .reopened(let attempts, let after)? = events.last else {
                Issue.record("the return was not reported: \(events)")
                return
            }
            #expect(attempts >= 2, "the stopped server was tried while it hung")
            // Reopened only once the server answered again: it was stopped for 3 s and the loss
            // was seen after the 1 s stall, so about 2 s after it (a loss seen a millisecond
            // late makes it a millisecond less).
            #expect(after >= .milliseconds(1_800), "\(after)")
            #expect(try source.read(1_600).count == 1_600)
        }
    }

    @Test func aSourceThatStaysAwayGivesUpWithAClearError() async throws {
        try await offThePool {
            let server = try PrivateSoundServer()
            defer { server.stop() }
            server.useInThisProcess()
            server.speak([Int16](repeating: 1_000, count: 16_000))
            var events: [ReopeningSource.Event] = []
            let microphone = try ReopeningSource(
                device: .pulseAudio("vmic"),
                policy: .init(
                    firstDelay: .milliseconds(100), maximumDelay: .milliseconds(200), maximumAttempts: 3)
            ) { events.append($0) }
            _ = try microphone.read(1_600)
            server.stopServer()
            let started = Date()
            let error = #expect(throws: SpeechError.self) {
                while true { _ = try microphone.read(1_600) }
            }
            #expect(Date().timeIntervalSince(started) < 5)
            #expect(events.count == 1, "\(events)")
            let message = error?.message ?? ""
            #expect(
                message.hasPrefix("lost the PulseAudio source \"vmic\" and could not reopen it (3 attempts"),
                "\(message)")
            #expect(message.contains("pactl list short sources"), "\(message)")
        }
    }

    // MARK: The command line

    /// Runs the built `voice-intents` against `server`, returning its exit status, output and errors.
    static func voiceIntents(_ arguments: [String], server: PrivateSoundServer) throws -> (
        status: Int32, output: String, errors: String
    ) {
        try Executables.run("voice-intents", arguments, environment: server.environment)
    }

    @Test func sayWithoutAFilePlaysOnTheDefaultOutput() async throws {
        try await offThePool {
            let server = try PrivateSoundServer()
            defer { server.stop() }
            server.useInThisProcess()
            let speech = try Self.speech()
            let recorder = try Self.recordingTheNullSink(for: speech)
            let run = try Self.voiceIntents(
                ["say", Self.sentence, "--voice", "en-us", "--rate", "150"], server: server)
            #expect(run.status == 0, "\(run.errors)")
            #expect(run.errors.hasPrefix("played 2."), "\(run.errors)")
            #expect(run.errors.contains("on the default PulseAudio sink"), "\(run.errors)")
            // A stream that starts on the running null sink loses up to 0.2 s from its monitor (the sink
            // had rendered that stretch ahead as silence, then rewound); a loudspeaker would play it.
            Self.expectSpeech(speech, in: try recorder.result(), skipping: 0.3)
        }
    }

    @Test func sayNamesAMissingOutputAndWhatToTry() async throws {
        try await offThePool {
            let server = try PrivateSoundServer()
            defer { server.stop() }
            let run = try Self.voiceIntents(
                ["say", "hello", "--device", "pulse:no-such-sink"], server: server)
            #expect(run.status == 1)
            #expect(
                run.errors.contains("cannot play to the PulseAudio sink \"no-such-sink\": No such entity"),
                "\(run.errors)")
            #expect(run.errors.contains("pactl list short sinks"), "\(run.errors)")
        }
    }

    @Test func transcribeListensThroughAnALSADevice() async throws {
        try await offThePool {
            let server = try PrivateSoundServer()
            defer { server.stop() }
            let speech = try TestSpeech.spoken(Self.sentence, voice: "en-us", rate: 150)
            let quiet = [Int16](repeating: 0, count: 16_000)
            // Quiet to start with (the command needs a moment to open the device), the command, then
            // quiet so that the end of speech can be heard.
            server.speak(quiet + speech + quiet + quiet)
            let run = try Self.voiceIntents(
                ["transcribe", "--microphone", "--device", "alsa:pulse", "--match", "--timeout", "20"],
                server: server)
            #expect(run.status == 0, "\(run.errors)")
            #expect(run.output.hasPrefix(Self.sentence + "\n"), "\(run.output)")
            #expect(run.output.contains("GetCrowdStatusIntent  score 1.00"), "\(run.output)")
        }
    }
}
