import BenchmarkSupport
import Foundation
import Synchronization
import VoiceIntents

/// `<app> listen` run as a subprocess: raw 16 kHz PCM written to its standard input on one
/// thread, its standard output and standard error (one pipe, so the transcript and the turn lines
/// keep their order) read line by line on another.
struct ListenProcess {
    let executable: URL
    let arguments: [String]

    /// Runs the loop to its end. `feed` writes the audio (on its own thread; standard input is
    /// closed when it returns); `line` sees every line of output, with the loop's process id.
    /// Returns the exit status.
    func run(
        feed: @escaping @Sendable (FileHandle) throws -> Void,
        line: @escaping @Sendable (String, Int32) -> Void
    ) throws -> Int32 {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let pid = process.processIdentifier
        let done = DispatchGroup()
        done.enter()
        let reading = Thread {
            var pending = Data()
            let handle = output.fileHandleForReading
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                pending.append(data)
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    line(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self), pid)
                    pending.removeSubrange(pending.startIndex...newline)
                }
            }
            if !pending.isEmpty { line(String(decoding: pending, as: UTF8.self), pid) }
            done.leave()
        }
        reading.start()
        done.enter()
        let writing = Thread {
            let handle = input.fileHandleForWriting
            do {
                try feed(handle)
            } catch {
                FileHandle.standardError.write(
                    Data("feeding \(executable.lastPathComponent): \(error)\n".utf8))
            }
            try? handle.close()
            done.leave()
        }
        writing.start()
        process.waitUntilExit()
        done.wait()
        return process.terminationStatus
    }
}

extension ListenProcess {
    /// Runs the loop on `samples` as one recording, fed as fast as it takes them.
    func hear(_ samples: [Int16]) throws -> LoopRun {
        let transcript = Transcript()
        let recording = pcm(samples)
        let began = clock.now
        let status = try run(
            feed: { handle in try handle.write(contentsOf: recording) },
            line: { line, _ in transcript.take(line) })
        return LoopRun(transcript: transcript, status: status, seconds: (clock.now - began).inSeconds)
    }
}

/// What one run of the loop printed, and how long it took.
struct LoopRun {
    let transcript: Transcript
    let status: Int32
    let seconds: Double

    var turns: [TurnLine] { transcript.turns }

    /// Each turn with its clip: the next clip (or one of the three after it) whose words the loop
    /// heard, as written or as `heard` in process; a turn that matches none (a command split in
    /// two, or misheard) is left unpaired.
    func pairs(with clips: [Clip], heard: [String]? = nil) -> [(clip: Int, turn: TurnLine)] {
        var pairs: [(clip: Int, turn: TurnLine)] = []
        var next = 0
        for turn in turns {
            let candidates = next..<min(next + 4, clips.count)
            guard
                let clip = candidates.first(where: {
                    clips[$0].words == turn.transcript || heard?[$0] == turn.transcript
                })
            else { continue }
            pairs.append((clip, turn))
            next = clip + 1
        }
        return pairs
    }
}

/// Samples as the raw 16-bit little-endian PCM `listen --input -` reads.
func pcm(_ samples: [Int16]) -> Data {
    var data = Data(capacity: samples.count * 2)
    for sample in samples { withUnsafeBytes(of: sample.littleEndian) { data.append(contentsOf: $0) } }
    return data
}

/// One `turn` line of `listen --verbose`:
/// `… debug travel-tracking: done=2 ms intent=… match=1 ms … reply=18 ms … transcript=… [VoiceLoop] turn`.
struct TurnLine {
    let transcript: String
    let intent: String
    /// Milliseconds from recognition; `nil` when the line has none ("-", or no intent ran).
    let match: Double?
    let done: Double?
    let reply: Double?
    /// Whether a question was asked and answered within the turn (more than one `> ` line).
    var asked = false

    init?(_ line: String) {
        guard line.hasSuffix("] turn"), let transcript = line.firstMatch(of: /transcript=(.*) \[\w+\] turn$/)
        else { return nil }
        func milliseconds(_ key: String) -> Double? {
            guard let range = line.range(of: " \(key)=") else { return nil }
            let rest = line[range.upperBound...]
            guard let value = rest.split(separator: " ").first, rest.dropFirst(value.count).hasPrefix(" ms")
            else {
                return nil
            }
            return Double(value).map { $0 / 1_000 }
        }
        self.transcript = String(transcript.1)
        intent = line.firstMatch(of: /intent=(\S+)/).map { String($0.1) } ?? "none"
        match = milliseconds("match")
        done = milliseconds("done")
        reply = milliseconds("reply")
    }
}

/// Collects what the loop printed, from the reading thread.
final class Transcript: Sendable {
    private let state = Mutex<(turns: [TurnLine], heard: Int, heardInTurn: Int, other: [String])>(
        ([], 0, 0, []))

    func take(_ line: String) {
        state.withLock { state in
            if line.hasPrefix("> ") {
                state.heard += 1
                state.heardInTurn += 1
            } else if var turn = TurnLine(line) {
                turn.asked = state.heardInTurn > 1
                state.heardInTurn = 0
                state.turns.append(turn)
            } else if !line.hasPrefix("< ") {
                state.other.append(line)
            }
        }
    }

    var turns: [TurnLine] { state.withLock { $0.turns } }
    /// How many `> ` lines (everything heard: commands and answers).
    var heard: Int { state.withLock { $0.heard } }
    /// Lines that are neither transcript nor turns: warnings, errors, "wrote …".
    var other: [String] { state.withLock { $0.other } }
}
