import Foundation
import VoiceEvaluation

/// A loudspeaker and a microphone in one room, on a private sound server: what is played to the
/// server's `loudspeaker` sink is carried through a simulated room (``EchoPath``), turned to a
/// level and mixed into the live microphone, as a loudspeaker's echo reaches a real microphone.
///
/// The loudspeaker is a pipe sink clocked by the system clock, read here as it plays: a null
/// sink's monitor would do, but a sink that rewinds (as PulseAudio's do when a stream starts or
/// runs dry) has already handed its monitor what it then plays again, so the monitor's copy of a
/// reply is not what a loudspeaker would have played.
package final class Room: @unchecked Sendable {  // the reader thread alone touches the path
    /// The sink to play to: `pulse:loudspeaker`.
    package static let sink = "loudspeaker"

    private let server: PrivateSoundServer
    private let module: String
    private let pipe: FileHandle
    private var path: EchoPath.Room

    /// Starts carrying what `server`'s ``sink`` plays into `microphone`, `gain` times as loud.
    package init(
        server: PrivateSoundServer, microphone: LiveMicrophone, path: EchoPath = EchoPath(delay: 0.02),
        gain: Float
    ) throws {
        self.server = server
        self.path = EchoPath.Room(path)
        let fifo = server.folder.appendingPathComponent("\(Self.sink).fifo")
        module = try server.run(
            "pactl",
            [
                "load-module", "module-pipe-sink", "sink_name=\(Self.sink)", "file=\(fifo.path)",
                "format=s16le",
                "rate=16000", "channels=1", "use_system_clock_for_timing=yes",
            ]
        ).trimmingCharacters(in: .whitespacesAndNewlines)
        // The server holds the FIFO open itself, so opening it does not wait.
        guard let pipe = FileHandle(forReadingAtPath: fifo.path) else {
            throw CocoaError(.fileReadNoPermission, userInfo: [NSFilePathErrorKey: fifo.path])
        }
        self.pipe = pipe
        Thread.detachNewThread { [self] in
            var pending = Data()
            // Each sample played keeps its place in the microphone's stream, 100 ms after where
            // the first was (the microphone is handed its sound 100 ms at a time, and the sink
            // hands over what it played when it can): a room whose delay never moves.
            var position: Int?
            while case let data = pipe.availableData, !data.isEmpty {
                pending += data
                let whole = pending.count / 2 * 2
                guard whole > 0 else { continue }
                let samples = pending.prefix(whole).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
                pending.removeFirst(whole)
                let at = position ?? microphone.nextPosition + 1_600
                microphone.mix(self.path.hear(samples.map { Float($0) * gain }), at: at)
                position = at + samples.count
            }
        }
    }

    /// Takes the loudspeaker away (its FIFO ends, and the reader with it).
    package func stop() {
        _ = try? server.run("pactl", ["unload-module", module])
    }
}
