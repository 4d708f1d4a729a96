import Foundation
import Testing
import VoiceEvaluation

@testable import VoiceAudio

/// A real, private PulseAudio server for tests: a virtual microphone (the pipe source `vmic`,
/// fed through a FIFO) as the default source, and a null sink `nullsink` as the default sink,
/// whose monitor `nullsink.monitor` records what is played. Everything is 16 kHz mono.
///
/// Clients reach it through ``environment`` (subprocesses) or, after ``useInThisProcess()``,
/// through `PULSE_SERVER` in this process (PulseAudio and ALSA's `pulse` device alike).
/// Call ``stop()`` when done (`defer`): it stops the server and removes its files.
///
/// Unchecked `Sendable`: a test may stop and restart the server from another thread while it
/// reads; the only mutable state, the saved `PULSE_SERVER`, is touched by the test's own thread.
package final class PrivateSoundServer: @unchecked Sendable {
    /// Whether PulseAudio is installed; `Scripts/bootstrap.sh` installs it, so tests run on CI.
    package static let isInstalled = FileManager.default.isExecutableFile(atPath: "/usr/bin/pulseaudio")
    /// Why tests that need the server are skipped without it.
    package static let notInstalled: Comment =
        "pulseaudio is not installed (Scripts/bootstrap.sh installs it)"

    package let folder: URL
    package let fifo: URL
    /// The server's address, as `PULSE_SERVER` takes it.
    package let address: String
    /// This process's environment, pointed at the server.
    package let environment: [String: String]

    package init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "vmic-\(UUID().uuidString.prefix(8))")
        for sub in ["run", "home"] {
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        fifo = folder.appendingPathComponent("vmic.fifo")
        let run = folder.appendingPathComponent("run").path
        address = "unix:\(run)/native"
        var environment = ProcessInfo.processInfo.environment
        environment["PULSE_RUNTIME_PATH"] = run
        environment["XDG_RUNTIME_DIR"] = run
        environment["HOME"] = folder.appendingPathComponent("home").path
        // Named outright, so another test's server (set in this process) is never picked up.
        environment["PULSE_SERVER"] = address
        self.environment = environment
        do {
            try start()
        } catch {
            stop()
            throw error
        }
    }

    /// Starts the server, loads the virtual microphone and makes it the default source.
    package func start() throws {
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
                "load-module", "module-pipe-source", "source_name=vmic", "file=\(fifo.path)", "format=s16le",
                "rate=16000", "channels=1",
            ])
        try run("pactl", ["set-default-source", "vmic"])
    }

    @discardableResult
    package func run(_ tool: String, _ arguments: [String]) throws -> String {
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

    // MARK: Speaking into the microphone

    /// Writers still feeding the FIFO.
    private let writers = DispatchGroup()

    /// Writes `samples` into the microphone in 100 ms blocks at the pace of a real one, on a
    /// thread of its own; a server that stops ends the writer.
    package func speak(_ samples: [Int16]) {
        // A reader that goes away must end the writer, not the test process.
        signal(SIGPIPE, SIG_IGN)
        writers.enter()
        Thread.detachNewThread { [fifo, writers] in
            defer { writers.leave() }
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

    /// A microphone that is never silent: a −70 dBFS noise floor written in real time, with
    /// whatever ``LiveMicrophone/say(_:)`` queues mixed in, until ``LiveMicrophone/close()``.
    /// A loop listening for days hears a stream like this, not a file that ends.
    package func liveMicrophone() -> LiveMicrophone {
        signal(SIGPIPE, SIG_IGN)
        let microphone = LiveMicrophone()
        writers.enter()
        Thread.detachNewThread { [fifo, writers] in
            defer { writers.leave() }
            guard let handle = FileHandle(forWritingAtPath: fifo.path) else { return }
            var noise = SplitMix64(seed: 7)
            let started = Date()
            var written = 0
            while let block = microphone.nextBlock(1_600) {
                let samples = block.map { sample in
                    Int16(clamping: Int(sample) + Int(noise.next() % 21) - 10)
                }
                guard (try? handle.write(contentsOf: samples.withUnsafeBytes { Data($0) })) != nil else {
                    break
                }
                written += samples.count
                let due = started.addingTimeInterval(Double(written) / 16_000)
                Thread.sleep(forTimeInterval: max(0, due.timeIntervalSinceNow))
            }
            try? handle.close()
        }
        return microphone
    }

    // MARK: Clients in this process

    private var previousServer: String??

    /// Points PulseAudio clients in this process (ours and ALSA's `pulse` plugin) at this server
    /// until ``stop()``. The environment is the process's: use it from serialized tests only.
    package func useInThisProcess() {
        if previousServer == nil {
            previousServer = .some(ProcessInfo.processInfo.environment["PULSE_SERVER"])
        }
        setenv("PULSE_SERVER", address, 1)
    }

    // MARK: Stopping

    /// The server's process id, from its pid file.
    package var pid: Int32? {
        (try? String(contentsOf: folder.appendingPathComponent("run/pid"), encoding: .utf8)).flatMap {
            Int32($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    /// Stops the server (as a device that goes away) and waits until it has gone; the files stay,
    /// so ``start()`` brings it back at the same address.
    package func stopServer() {
        guard let pid else { return }
        kill(pid, SIGTERM)
        let deadline = Date().addingTimeInterval(5)
        while Self.isRunning(pid), Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
    }

    /// Whether `pid` is a live process. The daemon is not our child, and PID 1 here may not reap
    /// it: a zombie counts as gone.
    package static func isRunning(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        let state = stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).prefix(1)
        return state != "Z" && state != "X"
    }

    /// Stops the server (which ends writers blocked on the FIFO), waits for the writers, restores
    /// this process's `PULSE_SERVER`, and removes the files.
    package func stop() {
        stopServer()
        _ = writers.wait(timeout: .now() + 10)
        if let previousServer {
            if let value = previousServer {
                setenv("PULSE_SERVER", value, 1)
            } else {
                unsetenv("PULSE_SERVER")
            }
            self.previousServer = nil
        }
        try? FileManager.default.removeItem(at: folder)
    }
}

/// What a ``PrivateSoundServer/liveMicrophone()`` is about to hear.
package final class LiveMicrophone: @unchecked Sendable {  // all state behind `lock`
    private let lock = NSLock()
    private var queued: [Int16] = []
    /// Samples handed to the server so far.
    private var position = 0
    /// Sound under the speech (a loudspeaker's echo), from ``overlayStart`` on.
    private var overlay: [Float] = []
    private var overlayStart = 0
    private var closed = false

    /// Queues `samples` (16 kHz) to be heard after what is already queued.
    package func say(_ samples: [Int16]) {
        lock.withLock { queued += samples }
    }

    /// The position of the next sample the server will be handed, counted from the start.
    package var nextPosition: Int { lock.withLock { position } }

    /// Adds `samples` (16 kHz, on the 16-bit scale) under whatever is heard from `position` on
    /// (``nextPosition`` counts): a loudspeaker's echo, as ``Room`` hands it over. Samples whose
    /// moment has passed are dropped, so the rest keep their place in time.
    package func mix(_ samples: [Float], at position: Int) {
        lock.withLock {
            if overlay.isEmpty { overlayStart = max(overlayStart, position) }
            let end = overlayStart + overlay.count
            if position > end { overlay += [Float](repeating: 0, count: position - end) }
            let skip = max(0, overlayStart + overlay.count - position)
            // Overlapping what is already there: added to it.
            for (offset, sample) in samples.prefix(skip).enumerated() {
                let index = position - overlayStart + offset
                if index >= 0 { overlay[index] += sample }
            }
            overlay += samples.dropFirst(skip)
        }
    }

    /// Whether everything queued has been heard.
    package var isQuiet: Bool { lock.withLock { queued.isEmpty } }

    /// Ends the stream.
    package func close() {
        lock.withLock { closed = true }
    }

    /// The next `count` samples: queued speech, then silence; `nil` once closed.
    fileprivate func nextBlock(_ count: Int) -> [Int16]? {
        lock.withLock {
            if closed { return nil }
            let taken = Array(queued.prefix(count))
            queued.removeFirst(taken.count)
            var block = taken + [Int16](repeating: 0, count: count - taken.count)
            // The overlay's samples that fall in this block; those already late are dropped.
            let late = min(overlay.count, max(0, position - overlayStart))
            overlay.removeFirst(late)
            overlayStart += late
            let from = overlayStart - position
            if from < count {
                let under = overlay.prefix(count - from)
                for (offset, sample) in under.enumerated() {
                    block[from + offset] = Int16(
                        clamping: Int((Float(block[from + offset]) + sample).rounded()))
                }
                overlay.removeFirst(under.count)
                overlayStart += under.count
            }
            position += count
            return block
        }
    }
}
