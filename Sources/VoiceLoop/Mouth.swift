import Foundation
import Logging
import Synchronization
import VoiceAudio
import VoiceSynthesis

/// Says the loop's replies: on a speaker (waiting until each has been heard), into a WAV file,
/// to a handler of your own (a network connection), or nowhere. A speaker that goes away is
/// opened again for the next reply; a reply that cannot be played is logged and skipped, so the
/// loop goes on.
public final class Mouth: Sendable {
    private let sink: Mutex<(any AudioSink)?>
    private let open: (@Sendable () throws(SpeechError) -> any AudioSink)?
    private let tape: ReplyTape?
    private let handler: (@Sendable (String, AudioBuffer) throws -> Void)?
    private let output: String?
    private let synthesizer = SpeechSynthesizer()
    private let logger: Logger
    /// Told what is played and when it sounds, to take it out of what the microphone hears.
    private let echoCanceller: EchoCanceller?

    /// - Parameters:
    ///   - mute: Say nothing (the replies are only written to the transcript).
    ///   - output: Write the replies to this WAV file, one after another, instead of playing
    ///     them (``finish()`` writes it).
    ///   - speaker: Where to play them.
    ///   - applicationName: The name the sound server shows for the stream.
    ///   - echoCanceller: Handed every piece played on the speaker, with the moment it sounds:
    ///     the microphone's recorder (``VoiceInput/init(microphone:echoCanceller:logger:)``) takes
    ///     it out of what it hears.
    public init(
        mute: Bool = false, output: String? = nil, speaker: AudioDevice = .automatic, applicationName: String,
        echoCanceller: EchoCanceller? = nil, logger: Logger
    ) throws {
        self.output = mute ? nil : output
        self.logger = logger
        self.echoCanceller = echoCanceller
        handler = nil
        tape = !mute && output != nil ? ReplyTape() : nil
        if mute || output != nil {
            open = nil
            sink = Mutex(nil)
        } else {
            let rate = try SpeechSynthesizer.sampleRate()
            let open: @Sendable () throws(SpeechError) -> any AudioSink = { () throws(SpeechError) in
                try speaker.openSink(sampleRate: rate, applicationName: applicationName)
            }
            self.open = open
            sink = Mutex(try open())
        }
    }

    /// Plays the replies on the sinks `open` gives (one, opened again after it fails).
    package init(
        sink open: @escaping @Sendable () throws(SpeechError) -> any AudioSink, echoCanceller: EchoCanceller?,
        logger: Logger
    ) throws {
        output = nil
        self.logger = logger
        self.echoCanceller = echoCanceller
        handler = nil
        tape = nil
        self.open = open
        sink = Mutex(try open())
    }

    /// Hands each reply, its text and the audio eSpeak NG says it as (mono, at its rate:
    /// 22,050 Hz), to `replies`, and returns once it has: a server sends it to the client that
    /// asked. A handler that throws is logged, and the loop goes on.
    public init(
        replies: @escaping @Sendable (_ text: String, _ speech: AudioBuffer) throws -> Void, logger: Logger
    ) {
        output = nil
        self.logger = logger
        echoCanceller = nil
        handler = replies
        tape = nil
        open = nil
        sink = Mutex(nil)
    }

    /// Whether anything is said at all.
    public var isMute: Bool { tape == nil && open == nil && handler == nil }

    /// Whether replies are played on a device (and so can be heard by the microphone).
    public var playsAloud: Bool { open != nil }

    /// Whether what is played is taken out of what the microphone hears (an echo canceller was
    /// given).
    public var cancelsEcho: Bool { echoCanceller != nil && playsAloud }

    /// Whether the echo canceller, if there is one, has learnt the room from what was played
    /// (``EchoCanceller/hasLearntTheRoom``).
    package var echoCancellerHasLearnt: Bool { echoCanceller?.hasLearntTheRoom ?? true }

    /// What the echo canceller, if there is one, has measured of the room so far.
    package var echoMetrics: EchoCanceller.Metrics? { echoCanceller?.metrics }

    /// Says `text`, returning once it has been played (or recorded); `started` is called when
    /// the speech is ready and starts to sound. Played speech stops early, within 100 ms or so,
    /// once `interrupted` returns `true`, and logs (debug) how much of it was played; speech
    /// played to its end logs (debug) "reply played". Each piece (100 ms) is played at the
    /// `volume` it returns then (0 to 1): the loop turns a reply down while someone speaks over it.
    ///
    /// - Returns: Whether it was interrupted.
    @discardableResult
    public func say(
        _ text: String, started: () -> Void = {}, interrupted: @Sendable () -> Bool = { false },
        volume: @Sendable () -> Float = { 1 }
    ) throws -> Bool {
        guard !isMute else { return false }
        let speech = try synthesizer.speak(text)
        let audio = AudioBuffer(int16: speech.samples, sampleRate: speech.sampleRate)
        started()
        if let tape {
            tape.append(audio)
            return false
        }
        if let handler {
            do {
                try handler(text, audio)
            } catch {
                logger.error("could not hand over \"\(text)\": \(error)")
            }
            return false
        }
        guard let open else { return false }
        return sink.withLock { sink in
            for attempt in 1...2 {
                do throws(SpeechError) {
                    if sink == nil { sink = try open() }
                    guard let device = sink else { return false }
                    // In 100 ms pieces (at the device's rate, so none is resampled alone), to
                    // stop soon after an interruption.
                    let piece = max(1, audio.sampleRate / 10)
                    var start = 0
                    var reference = StreamingResampler(
                        from: audio.sampleRate, to: AudioFormat.recognizerSampleRate)
                    var previous: Float?
                    while start < audio.samples.count {
                        if interrupted() {
                            logger.debug(
                                "reply cut short",
                                metadata: [
                                    "played":
                                        "\(String(format: "%.2f", Double(start) / Double(audio.sampleRate))) s",
                                    "of": "\(String(format: "%.2f", audio.duration)) s",
                                ])
                            return true
                        }
                        let level = volume()
                        // Turned down: what the device holds and has not played yet is dropped
                        // and played again turned down, so that the turn-down is heard now, not
                        // once the device has played what it holds (100 ms or more).
                        if let previous, level < previous, let queued = device.latency {
                            try device.flush()
                            let left = device.latency ?? queued
                            let dropped = Int(((queued - left) * Double(audio.sampleRate)).rounded())
                            start -= min(max(0, dropped), start)
                            echoCanceller?.unplayed(from: .now + .seconds(left))
                            reference = StreamingResampler(
                                from: audio.sampleRate, to: AudioFormat.recognizerSampleRate)
                        }
                        previous = level
                        let end = min(start + piece, audio.samples.count)
                        let samples = audio.samples[start..<end].map { $0 * level }
                        if let echoCanceller {
                            // Handed over before it is played, so the canceller has it before
                            // the microphone hears it: the piece sounds once what the device
                            // holds has played (pieces of one reply follow one another).
                            echoCanceller.played(
                                AudioBuffer(
                                    samples: reference.resample(samples),
                                    sampleRate: AudioFormat.recognizerSampleRate
                                ).int16Samples,
                                at: .now + .seconds(device.latency ?? 0.1))
                        }
                        try device.play(AudioBuffer(samples: samples, sampleRate: audio.sampleRate))
                        start = end
                    }
                    try device.drain()
                    logger.debug(
                        "reply played", metadata: ["of": "\(String(format: "%.2f", audio.duration)) s"])
                    return false
                } catch {
                    sink = nil  // closes the device; the next attempt opens it again
                    if attempt == 2 { logger.error("could not say \"\(text)\": \(error.message)") }
                }
            }
            return false
        }
    }

    /// Writes the replies' file, if one was asked for.
    public func finish() throws {
        guard let tape, let output else { return }
        try WAVFile.write(tape.audio, to: URL(fileURLWithPath: output))
        logger.notice("wrote \(output): \(String(format: "%.2f", tape.audio.duration)) s")
    }
}

/// What the loop said, one reply after another with a short pause between, for `--output`.
final class ReplyTape: Sendable {
    private let buffer = Mutex(AudioBuffer(samples: [], sampleRate: 22_050))

    func append(_ speech: AudioBuffer) {
        buffer.withLock { tape in
            let audio = speech.resampled(to: tape.sampleRate)
            if !tape.samples.isEmpty {
                tape.samples += [Float](repeating: 0, count: tape.sampleRate * 7 / 10)
            }
            tape.samples += audio.samples
        }
    }

    var audio: AudioBuffer { buffer.withLock { $0 } }
}
