import ArgumentParser
import Foundation
import Speech
import Synchronization
import VoiceIntents

/// `listen`: the voice loop over recorded audio: hears commands, talks them through, runs them
/// and answers out loud.
struct ListenCommand<Apps: AppSet>: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "listen",
            abstract: "Hear commands in recorded audio, run them, and answer out loud.",
            discussion: """
                listen --input commands.wav --output replies.wav
                arecord -f S16_LE -r 16000 -c 1 | listen --input -
                The input may hold several commands and the answers to the questions they raise, \
                each after a pause. Listening to a microphone comes in a later version: it must not \
                hear its own replies.
                """)
    }

    @OptionGroup var selection: AppSelection<Apps>
    @OptionGroup var options: AppOptions
    @OptionGroup var phraseOptions: PhraseOptions

    @Option(
        help:
            "A WAV file (any common rate and bit depth), or - for raw 16 kHz 16-bit mono PCM on standard input."
    )
    var input: String

    @Option(name: .shortAndLong, help: "Write what it says to this WAV file instead of playing it.")
    var output: String?

    @Option(help: "Where to play what it says when there is no --output (default, pulse:<sink>, alsa:<pcm>).")
    var device: String?

    @Flag(help: "Print the replies but do not say them.")
    var mute = false

    @Flag(help: "Answer as with no screen: the full dialog, no snippets.")
    var voiceOnly = false

    @Flag(
        help:
            "Answer as with a screen (snippets printed, the supporting dialog spoken) even when standard output is not a terminal."
    )
    var screen = false

    @Flag(help: "Stop after one command.")
    var once = false

    @OptionGroup var recognizerOptions: RecognizerOptions

    func validate() throws {
        if voiceOnly, screen { throw ValidationError("give --voice-only or --screen, not both") }
        if output != nil, device != nil { throw ValidationError("give --output or --device, not both") }
        if let device { _ = try AudioDevice(parsingOption: device) }
    }

    func run() async throws {
        try await reportingFailures {
            let context = try selection.context()
            // The input first: a file that cannot be read is reported before anything else starts.
            let read = try reader()
            let logger = options.logger(for: context)
            try context.validate(logger: logger)
            let recognizer = try SpeechRecognizer(recognizerOptions.configuration())
            let commands = try await context.grammar(phraseOptions.location)
            try recognizer.useGrammar(commands)

            let tape = ReplyTape()
            let sink: (any AudioSink)? =
                mute || output != nil
                ? nil
                : try AudioDevice(parsingOption: device ?? "default").openSink(
                    sampleRate: try SpeechSynthesizer.sampleRate())
            let channel = VoiceChannel(
                recognizer: recognizer, synthesizer: SpeechSynthesizer(), timeout: 10,
                read: read,
                speaker: { speech in
                    if mute { return }
                    let audio = AudioBuffer(int16: speech.samples, sampleRate: speech.sampleRate)
                    if let sink { try sink.play(audio) } else { tape.append(audio) }
                })
            let transcript = TextSink.standardOutput
            // A screen is a terminal on standard output; a service or a pipe is voice only.
            let hasScreen = !voiceOnly && (screen || isatty(STDOUT_FILENO) != 0)
            let session = VoiceSession(
                description: context.description, matcher: try await context.matcher(phraseOptions.location),
                commands: commands, channel: channel, transcript: transcript, voiceOnly: !hasScreen,
                once: once,
                logger: logger)
            let runner = IntentRunner(
                conversation: VoiceConversation(channel: channel, transcript: transcript),
                dependencies: context.dependencies, hasScreen: hasScreen)
            _ = try await session.run(runner)
            try sink?.drain()
            if let output, !mute {
                try WAVFile.write(tape.audio, to: URL(fileURLWithPath: output))
                FileHandle.standardError.write(
                    Data("wrote \(output): \(String(format: "%.2f", tape.audio.duration)) s\n".utf8))
            }
        }
    }

    /// Reads the input in 100 ms chunks of 16 kHz samples.
    private func reader() throws -> () throws(SpeechError) -> [Int16]? {
        if input == "-" {
            var pcm = RawPCMReader()
            return { () throws(SpeechError) -> [Int16]? in
                do {
                    return try pcm.next()
                } catch {
                    throw SpeechError(.invalidInput, "\(error)")
                }
            }
        }
        let stream = SampleStream(try WAVFile.read(from: URL(fileURLWithPath: input)).forRecognizer)
        return { stream.read() }
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
