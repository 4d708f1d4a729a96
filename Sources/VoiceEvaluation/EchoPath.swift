import Foundation

/// A loudspeaker heard back by a microphone in a room, for testing echo cancellation without
/// either: what is played comes back late, through the room's reflections, at a level relative
/// to the speech it is heard over.
///
/// The room's response is a direct path, five early reflections (walls, a table) and a tail of
/// diffuse reverberation that falls by 60 dB over ``reverberation`` seconds, one tap a
/// millisecond with random signs, the same for the same ``seed``.
///
/// ```swift
/// let path = EchoPath(delay: 0.06)
/// let echo = path.echo(of: reply)                        // at the reply's own level
/// let heard = path.mix(command, over: reply, echoToSpeech: 0, at: 16_000)
/// ```
package struct EchoPath: Sendable, Hashable {
    /// Seconds from the moment a sample is played to the moment its direct sound is recorded:
    /// the devices' buffers and the air.
    package var delay: Double
    /// Seconds for the reverberation to fall by 60 dB (RT60): 0.3 for a furnished living room.
    package var reverberation: Double
    package var seed: UInt64

    package init(delay: Double = 0.06, reverberation: Double = 0.3, seed: UInt64 = 1) {
        self.delay = delay
        self.reverberation = reverberation
        self.seed = seed
    }

    /// The room's response as (offset in samples, gain) taps, at `rate`.
    package func taps(at rate: Int) -> [(offset: Int, gain: Float)] {
        let samples = { (seconds: Double) in Int((seconds * Double(rate)).rounded()) }
        let start = samples(delay)
        var taps: [(offset: Int, gain: Float)] = [(start, 1)]
        let early: [(Double, Float)] = [
            (0.0021, 0.6), (0.0037, -0.45), (0.0053, 0.35), (0.0079, -0.3), (0.0113, 0.25),
        ]
        taps += early.map { (start + samples($0.0), $0.1) }
        var generator = SplitMix64(seed: seed)
        var time = 0.015
        while time < reverberation {
            let decay = Float(pow(10, -3 * time / reverberation))
            taps.append((start + samples(time), 0.25 * decay * NoiseMixer.gaussian(&generator)))
            time += 0.001
        }
        return taps
    }

    /// `played` as the microphone hears it: delayed and through the room, as long as `played`
    /// plus the path's delay and reverberation.
    package func echo(of played: [Float], at rate: Int = 16_000) -> [Float] {
        var room = Room(self, at: rate)
        return room.hear(played + [Float](repeating: 0, count: room.reach))
    }

    /// The path run on a stream, piece by piece: each piece played gives the same number of
    /// samples heard, and the pieces together give what ``echo(of:at:)`` gives at once.
    package struct Room: Sendable {
        let taps: [(offset: Int, gain: Float)]
        /// The longest a played sample sounds on, in samples.
        package let reach: Int
        /// The last ``reach`` samples played.
        private var history: [Float]

        package init(_ path: EchoPath, at rate: Int = 16_000) {
            taps = path.taps(at: rate)
            reach = taps.map(\.offset).max() ?? 0
            history = [Float](repeating: 0, count: reach)
        }

        /// What the microphone hears while `played` plays.
        package mutating func hear(_ played: [Float]) -> [Float] {
            let input = history + played
            var output = [Float](repeating: 0, count: played.count)
            input.withUnsafeBufferPointer { input in
                output.withUnsafeMutableBufferPointer { output in
                    for tap in taps {
                        let source = input.baseAddress! + (reach - tap.offset)
                        for index in 0..<output.count { output[index] += source[index] * tap.gain }
                    }
                }
            }
            history = Array(input.suffix(reach))
            return output
        }
    }

    /// What the microphone records while `played` plays and a person says `speech`, starting
    /// `speechStart` seconds after the reply starts: the echo at `echoToSpeech` dB over the
    /// speech's active level (0: the reply as loud as the person), with the person's speech.
    /// As long as the longer of the two.
    package func mix(
        _ speech: [Float], over played: [Float], echoToSpeech: Double, speechStart: Double,
        at rate: Int = 16_000
    ) -> [Float] {
        let echo = echo(of: played, at: rate)
        let echoLevel = NoiseMixer.activeLevel(echo)
        let gain =
            echoLevel > 0 ? NoiseMixer.activeLevel(speech) * Float(pow(10, echoToSpeech / 20)) / echoLevel : 0
        let offset = Int(speechStart * Double(rate))
        var mixed = [Float](repeating: 0, count: max(echo.count, offset + speech.count))
        for index in echo.indices { mixed[index] = echo[index] * gain }
        for index in speech.indices { mixed[offset + index] += speech[index] }
        return mixed
    }
}
