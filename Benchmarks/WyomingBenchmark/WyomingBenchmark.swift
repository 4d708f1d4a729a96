// Wyoming benchmark: how fast `serve` answers many satellites at once, and what a connection costs.
//
//     VOICE_INTENTS_BENCHMARKS=1 swift run -c release wyoming-benchmark [--clients 1,2,4,8,16,20] [--rounds N]
//
// An in-process WyomingServer for HomeLights (its models and grammar as `serve` loads them) on a
// port the system chooses. Clients are threads with plain sockets, each streaming people's
// recordings (HomeLights' phrase tests, Tests/Recordings/rhasspy-test-en) at 16 kHz, as
// satellites send audio, as fast as the socket takes them: transcribe, audio-start, 1024-sample
// chunks, audio-stop. The baseline is one client at the recordings' own 24 kHz, which the server
// decodes only at audio-stop. With `--paced yes` the audio is sent in real time, as a satellite's
// microphone gives it; `--clips N` takes the first N recordings. For each number of
// clients: the time from audio-stop to the transcript (median and p90), and whether every
// transcript is the one a single client gets. Memory: resident size before and after 50 idle
// connections, and per connection once each has transcribed (each has a recognizer of its own).
// It prints figures only; it asserts nothing.

import BenchmarkCommand
import BenchmarkSupport
import Foundation
import HomeLights
import Logging
import PhraseMatching
import Synchronization
import VoiceAudio
import VoiceIntents
import VoiceLoop
import Wyoming

#if canImport(Glibc)
    import Glibc
#endif

@main
struct WyomingBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wyoming-benchmark",
        abstract: "How fast `serve` answers many satellites at once, and what a connection costs.",
        discussion: """
            Clients stream people's recordings of HomeLights' commands to an in-process server and \
            time the transcript after audio-stop; the baseline is one client at the recordings' own \
            24 kHz. It prints figures only; it asserts nothing.
            """)

    @Option(
        help: ArgumentHelp(
            "Numbers of clients at once, each measured in turn (default: 1,2,4,8,16,20).",
            valueName: "1,2,4,…"), transform: wholeNumbers)
    var clients = [1, 2, 4, 8, 16, 20]

    @Option(help: "Passes each client makes over the recordings.")
    var rounds = 2

    @Option(
        help:
            "Send audio in real time, as a satellite's microphone gives it, instead of as fast as the socket takes it."
    )
    var paced = YesNo.no

    @Option(help: "Take only the first N recordings.")
    var clips: Int?

    @Option(help: "Clients that ask for long replies to be spoken while another asks describe (0: skip).")
    var synthesizing = 8

    @Option(
        help:
            "Satellites holding whole conversations at once (transcribe in real time, run the command, speak the reply) while another asks describe (0: skip)."
    )
    var conversations = 20

    @Option(help: "Conversations each of those satellites holds, one after another.")
    var turns = 3

    @Option(
        help:
            "Clients that transcribe recordings as fast as the socket takes them and have a reply spoken, over and over, while another asks describe every 50 ms (0: skip)."
    )
    var busy = 20

    func run() async throws {
        let paced = paced.isOn
        let rounds = rounds
        let phrases = packagePhrases
        let tests = try PhraseTestSuite.load(
            from: phrases.appendingPathComponent("en/tests/home-lights.yaml")
        ).cases
        let recorded: [(name: String, audio: [Int16], rate: Int)] = try tests.prefix(
            clips ?? tests.count
        ).compactMap { test in
            guard let url = test.audio else { return nil }
            let buffer = try WAVFile.read(from: url)
            return (url.lastPathComponent, buffer.int16Samples, buffer.sampleRate)
        }
        /// The recordings at 16 kHz, as a satellite sends its microphone's audio: decoded as it arrives.
        let converted = recorded.map { clip in
            (
                clip.name,
                AudioBuffer(int16: clip.audio, sampleRate: clip.rate).resampled(to: 16_000).int16Samples,
                16_000
            )
        }
        print(
            "wyoming benchmark (\(ProcessInfo.processInfo.activeProcessorCount) cores): \(converted.count) recordings of HomeLights"
        )

        let context = AppContext(HomeLightsApp.self)
        var configuration = try VoiceLoop.Configuration(for: context)
        configuration.phrases = PhraseLocation.find(explicit: phrases.path, locale: "en")
        let app = try await WyomingApp(context, configuration: configuration)
        let logger = Logger(label: "wyoming-benchmark") { _ in SwiftLogNoOpLogHandler() }
        let port = Mutex<Int>(0)
        let serving = Task {
            try await WyomingServer(app: app, host: "127.0.0.1", port: 0, logger: logger).run { bound in
                port.withLock { $0 = bound }
            }
        }
        while port.withLock({ $0 }) == 0 { try await Task.sleep(for: .milliseconds(20)) }
        let bound = port.withLock { $0 }

        // Memory: idle connections, then connections that have each transcribed once.
        let before = ProcessMemory.current.resident
        var idle = (0..<50).map { _ in Client(port: bound) }
        for client in idle { client.send(WyomingEvent("ping")); _ = client.receive() }
        let afterIdle = ProcessMemory.current.resident
        print(
            String(
                format: "memory: %.1f MiB before, %.2f MiB per idle connection (50)", before,
                (afterIdle - before) / 50))
        idle = []

        /// One client per thread; each streams `rounds` passes over the recordings, starting at its own
        /// offset so that the server hears different clips at once.
        func stream(
            clients: Int, clips: [(name: String, audio: [Int16], rate: Int)]
        ) -> (latencies: [Double], transcripts: [String: String], mismatches: Int) {
            let results = Mutex<[(String, String, Double)]>([])
            // A thread per client, all at once (concurrentPerform would run only as many as cores).
            let finished = DispatchGroup()
            for index in 0..<clients {
                finished.enter()
                Thread.detachNewThread {
                    let client = Client(port: bound)
                    var mine: [(String, String, Double)] = []
                    for round in 0..<rounds {
                        for offset in clips.indices {
                            let clip = clips[(offset + index * 7 + round) % clips.count]
                            let (text, seconds) = client.transcribe(clip.audio, rate: clip.rate, paced: paced)
                            mine.append((clip.name, text, seconds))
                        }
                    }
                    results.withLock { $0 += mine }
                    finished.leave()
                }
            }
            finished.wait()
            let all = results.withLock { $0 }
            var transcripts: [String: String] = [:]
            var mismatches = 0
            for (name, text, _) in all {
                if let earlier = transcripts[name], earlier != text { mismatches += 1 }
                transcripts[name] = transcripts[name] ?? text
            }
            return (all.map(\.2), transcripts, mismatches)
        }

        // The baseline, in the same process: one client at the recordings' own 24 kHz, which the server
        // resamples as it arrives.
        let baseline = summary(stream(clients: 1, clips: recorded).latencies)
        print(
            String(
                format:
                    "baseline: one client at the recordings' own rate, resampled as it arrives: median %.1f ms, p90 %.1f ms",
                baseline.median, baseline.p90))
        let single = stream(clients: 1, clips: converted)
        let perActive = (ProcessMemory.current.resident - before)
        print(String(format: "memory: %.1f MiB more with one connection that has transcribed", perActive))
        print("at 16 kHz, decoded as it arrives\(paced ? ", sent in real time" : ""):")
        print("clients  requests  median ms  p90 ms  median / baseline  same transcripts as one client")
        var largest = 0
        for count in clients {
            let result = count == 1 ? single : stream(clients: count, clips: converted)
            let (median, p90) = summary(result.latencies)
            let differing =
                result.transcripts.filter { single.transcripts[$0.key] != $0.value }.count + result.mismatches
            print(
                String(
                    format: "%7d  %8d  %9.1f  %6.1f  %17.2f  %@", count, result.latencies.count, median, p90,
                    median / baseline.median, differing == 0 ? "yes" : "no, \(differing) differ"))
            if p90 < 300 { largest = max(largest, count) }
        }
        print("largest number of clients measured with p90 under 300 ms: \(largest)")

        // Synthesis is work a connection waits for: while clients each have a long reply spoken,
        // over and over, another asks describe. The baseline is describe with nobody else there.
        Self.firstAudio(port: bound)
        if synthesizing > 0 {
            let (alone, busy) = await Self.describeWhileSynthesizing(port: bound, speakers: synthesizing)
            print(
                String(
                    format:
                        "describe, alone: median %.1f ms, p90 %.1f ms; while %d clients have replies spoken: median %.1f ms, p90 %.1f ms (%.1f× the median alone)",
                    alone.median, alone.p90, synthesizing, busy.median, busy.p90, busy.median / alone.median))
        }
        if busy > 0 {
            let (alone, times) = Self.describeWhileTranscribing(port: bound, clients: busy, clips: converted)
            let sorted = times.sorted()
            print(
                String(
                    format:
                        "describe, alone: median %.1f ms; while %d clients transcribe and have replies spoken: %d asked, median %.1f ms, p90 %.1f ms, p99 %.1f ms, most %.1f ms (%.1f× the median alone)",
                    alone, busy, times.count, percentile(sorted, 0.5) * 1000, percentile(sorted, 0.9) * 1000,
                    percentile(sorted, 0.99) * 1000, (sorted.last ?? 0) * 1000,
                    percentile(sorted, 0.5) * 1000 / alone))
        }
        if conversations > 0 {
            Self.conversationsUnderLoad(
                port: bound, satellites: conversations, turns: turns, clips: converted)
        }
        print(String(format: "resident memory at the end: %.1f MiB", ProcessMemory.current.resident))
        serving.cancel()
    }
}

extension WyomingBenchmark {
    /// Describe's answer time (median, p90, ms) with nobody else there, then while `speakers`
    /// clients each have a long reply spoken over and over; on threads of their own, as the
    /// clients are blocking sockets.
    static func describeWhileSynthesizing(port: Int, speakers: Int) async -> (
        alone: (median: Double, p90: Double), busy: (median: Double, p90: Double)
    ) {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                func describeTimes(_ count: Int) -> [Double] {
                    let client = Client(port: port)
                    return (0..<count).map { _ in client.describeTime() }
                }
                let alone = summary(describeTimes(20))
                let reply = Array(
                    repeating:
                        "The living room lamp is on. The kitchen lights are off. The garage door is closed.",
                    count: 8
                ).joined(separator: " ")
                let busy = whileBusy(clients: speakers, port: port, settle: 0.5) { client, _ in
                    client.send(WyomingEvent("synthesize", data: ["text": .string(reply)]))
                    while client.receive().type != "audio-stop" {}
                } measure: {
                    summary(describeTimes(20))
                }
                continuation.resume(returning: (alone, busy))
            }
        }
    }
}

extension WyomingBenchmark {
    /// Describe's answer time with nobody else there (median, ms), then each of 40 answer times
    /// (seconds) asked 50 ms apart while `clients` clients each transcribe a recording sent as
    /// fast as the socket takes it and have a three-sentence reply spoken, over and over.
    static func describeWhileTranscribing(
        port: Int, clients: Int, clips: [(name: String, audio: [Int16], rate: Int)]
    ) -> (alone: Double, times: [Double]) {
        let describer = Client(port: port)
        let alone = summary((0..<20).map { _ in describer.describeTime() }).median
        let reply = "The living room lamp is on. The kitchen lights are off. The garage door is closed."
        let times = whileBusy(clients: clients, port: port, settle: 1) { client, turn in
            let clip = clips[turn % clips.count]
            _ = client.transcribe(clip.audio, rate: clip.rate, paced: false)
            client.send(WyomingEvent("synthesize", data: ["text": .string(reply)]))
            while client.receive().type != "audio-stop" {}
        } measure: {
            (0..<40).map { _ in
                defer { Thread.sleep(forTimeInterval: 0.05) }
                return describer.describeTime()
            }
        }
        return (alone, times)
    }

    /// What `measure` gives while `clients` clients, each on a connection and a thread of its own
    /// (the clients are blocking sockets), do `turn` over and over (handed their client and how
    /// many turns before this one, counting from the client's index), after `settle` seconds for
    /// them to get going; they stop when it has.
    static func whileBusy<T>(
        clients: Int, port: Int, settle: Double, turn: @escaping @Sendable (Client, Int) -> Void,
        measure: () -> T
    ) -> T {
        let stop = Atomic(false)
        let finished = DispatchGroup()
        for index in 0..<clients {
            finished.enter()
            Thread.detachNewThread {
                let client = Client(port: port)
                var count = index
                while !stop.load(ordering: .relaxed) {
                    turn(client, count)
                    count += 1
                }
                finished.leave()
            }
        }
        Thread.sleep(forTimeInterval: settle)
        let measured = measure()
        stop.store(true, ordering: .relaxed)
        finished.wait()
        return measured
    }
}

extension WyomingBenchmark {
    /// How soon a reply's audio starts and ends (`synthesize` to the first `audio-chunk`, and to
    /// `audio-stop`), for a sentence and for 24 sentences, median of ten requests each on one
    /// connection; the one sentence is the baseline.
    static func firstAudio(port: Int) {
        let client = Client(port: port)
        let sentence = "The living room lamp is on."
        func timing(_ text: String) -> (first: Double, whole: Double) {
            var firsts: [Double] = []
            var wholes: [Double] = []
            for _ in 0..<10 {
                let asked = ContinuousClock.now
                client.send(WyomingEvent("synthesize", data: ["text": .string(text)]))
                var event = client.receive()
                while event.type != "audio-chunk" && event.type != "audio-stop" { event = client.receive() }
                firsts.append((ContinuousClock.now - asked).inSeconds)
                while event.type != "audio-stop" { event = client.receive() }
                wholes.append((ContinuousClock.now - asked).inSeconds)
            }
            return (summary(firsts).median, summary(wholes).median)
        }
        let short = timing(sentence)
        let long = timing(Array(repeating: sentence, count: 24).joined(separator: " "))
        print(
            String(
                format:
                    "reply audio: one sentence, first chunk %.1f ms, whole %.1f ms; 24 sentences, first chunk %.1f ms (%.1f× one sentence's), whole %.1f ms",
                short.first, short.whole, long.first, long.first / short.first, long.whole))
    }

    /// What each step of a conversation as Home Assistant holds one waits for, with one
    /// satellite and then with `satellites` at once, and how long `describe` takes meanwhile.
    /// A conversation: the recording streamed in real time (transcribe, audio) → `transcript`;
    /// that text as Home Assistant's conversation agent sends it → `handled`; the answer's text
    /// → `synthesize` → audio. Each satellite starts a little after the last, as people do not
    /// all speak at once.
    static func conversationsUnderLoad(
        port: Int, satellites: Int, turns: Int, clips: [(name: String, audio: [Int16], rate: Int)]
    ) {
        struct Steps {
            var transcript: [Double] = []
            var handled: [Double] = []
            var firstAudio: [Double] = []
            var wholeReply: [Double] = []
            var describe: [Double] = []
            var unanswered = 0
            var replies: Set<String> = []
            mutating func add(_ other: Steps) {
                transcript += other.transcript
                handled += other.handled
                firstAudio += other.firstAudio
                wholeReply += other.wholeReply
                describe += other.describe
                unanswered += other.unanswered
                replies.formUnion(other.replies)
            }
        }
        func converse(_ satellites: Int) -> Steps {
            let steps = Mutex(Steps())
            let stop = Atomic(false)
            let finished = DispatchGroup()
            for index in 0..<satellites {
                finished.enter()
                Thread.detachNewThread {
                    Thread.sleep(forTimeInterval: 0.15 * Double(index))
                    let client = Client(port: port)
                    var mine = Steps()
                    for turn in 0..<turns {
                        let clip = clips[(index * 7 + turn) % clips.count]
                        let (text, heard) = client.transcribe(clip.audio, rate: clip.rate, paced: true)
                        mine.transcript.append(heard)
                        var asked = ContinuousClock.now
                        client.send(WyomingEvent("transcript", data: ["text": .string(text)]))
                        let answer = client.receive()
                        mine.handled.append((ContinuousClock.now - asked).inSeconds)
                        guard let reply = answer.data["text"]?.string, !reply.isEmpty else {
                            mine.unanswered += 1
                            continue
                        }
                        mine.replies.insert(reply)
                        asked = ContinuousClock.now
                        client.send(WyomingEvent("synthesize", data: ["text": .string(reply)]))
                        var event = client.receive()
                        while event.type != "audio-chunk" && event.type != "audio-stop" {
                            event = client.receive()
                        }
                        mine.firstAudio.append((ContinuousClock.now - asked).inSeconds)
                        while event.type != "audio-stop" { event = client.receive() }
                        mine.wholeReply.append((ContinuousClock.now - asked).inSeconds)
                    }
                    steps.withLock { $0.add(mine) }
                    finished.leave()
                }
            }
            // Describe, every 50 ms while the conversations last.
            let describer = DispatchGroup()
            describer.enter()
            Thread.detachNewThread {
                let client = Client(port: port)
                var times: [Double] = []
                while !stop.load(ordering: .relaxed) {
                    times.append(client.describeTime())
                    Thread.sleep(forTimeInterval: 0.05)
                }
                steps.withLock { $0.describe += times }
                describer.leave()
            }
            finished.wait()
            stop.store(true, ordering: .relaxed)
            describer.wait()
            return steps.withLock { $0 }
        }
        func row(_ name: String, _ values: [Double], against baseline: [Double]) {
            let sorted = values.sorted()
            guard !sorted.isEmpty else { return print("  \(name): none") }
            let median = percentile(sorted, 0.5) * 1000
            let base = baseline.isEmpty ? Double.nan : percentile(baseline.sorted(), 0.5) * 1000
            print(
                String(
                    format:
                        "  %@: %d; median %.1f ms, p90 %.1f ms, p99 %.1f ms, most %.1f ms (median %.2f× one satellite's)",
                    name, sorted.count, median, percentile(sorted, 0.9) * 1000,
                    percentile(sorted, 0.99) * 1000,
                    sorted.last! * 1000, median / base))
        }
        let alone = converse(1)
        let busy = converse(satellites)
        for (label, steps) in [("one satellite", alone), ("\(satellites) satellites at once", busy)] {
            print(
                "conversations, \(label), \(turns) each (\(steps.unanswered) without an answer to speak; replies such as \"\(steps.replies.sorted().first ?? "")\"):"
            )
            row("transcript after audio-stop", steps.transcript, against: alone.transcript)
            row("handled after transcript", steps.handled, against: alone.handled)
            row("first reply audio after synthesize", steps.firstAudio, against: alone.firstAudio)
            row("whole reply after synthesize", steps.wholeReply, against: alone.wholeReply)
            row("describe meanwhile", steps.describe, against: alone.describe)
        }
    }
}

/// Median and p90 of `latencies`, in milliseconds.
func summary(_ latencies: [Double]) -> (median: Double, p90: Double) {
    let sorted = latencies.sorted()
    return (percentile(sorted, 0.5) * 1000, percentile(sorted, 0.9) * 1000)
}

/// A blocking Wyoming client on a plain socket.
final class Client {
    let socket: Int32

    /// Seconds from sending `describe` to its answer.
    func describeTime() -> Double {
        let asked = ContinuousClock.now
        send(WyomingEvent("describe"))
        _ = receive()
        return (ContinuousClock.now - asked).inSeconds
    }
    /// What has arrived: a reply of audio comes as many events, and one read may hold several,
    /// or part of one.
    private var reader = WyomingFrameReader()
    private var pending: [WyomingEvent] = []

    init(port: Int) {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        precondition(connected == 0, "cannot connect to port \(port)")
    }

    deinit { close(socket) }

    func send(_ event: WyomingEvent) {
        let bytes = event.encoded()
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, 0) }
            precondition(count > 0, "the server closed the connection")
            sent += count
        }
    }

    func receive() -> WyomingEvent {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while pending.isEmpty {
            let count = recv(socket, &chunk, chunk.count, 0)
            precondition(count > 0, "the server closed the connection")
            pending += (try? reader.read(chunk[0..<count])) ?? []
        }
        return pending.removeFirst()
    }

    /// Streams `audio` (16-bit mono at `rate`), in real time when `paced`, and returns the
    /// transcript and the seconds from audio-stop to it.
    func transcribe(_ audio: [Int16], rate: Int, paced: Bool) -> (text: String, seconds: Double) {
        let format: [String: JSONValue] = ["rate": .number(Double(rate)), "width": 2, "channels": 1]
        send(WyomingEvent("transcribe", data: ["language": "en"]))
        send(WyomingEvent("audio-start", data: format))
        var start = 0
        while start < audio.count {
            let end = min(start + 1024, audio.count)
            send(WyomingEvent("audio-chunk", data: format, payload: WAVFile.pcm16(audio[start..<end])))
            if paced { Thread.sleep(forTimeInterval: Double(end - start) / Double(rate)) }
            start = end
        }
        let stopped = ContinuousClock.now
        send(WyomingEvent("audio-stop"))
        // The transcript's pieces come first (transcript-start, transcript-chunk), and its end
        // after it (transcript-stop).
        var transcript = receive()
        while transcript.type != "transcript" && transcript.type != "error" { transcript = receive() }
        let seconds = (ContinuousClock.now - stopped).inSeconds
        if transcript.type == "transcript" {
            var end = receive()
            while end.type != "transcript-stop" { end = receive() }
        }
        return (transcript.data["text"]?.string ?? "", seconds)
    }
}
