import ArgumentParser
import Foundation
import PhraseMatching
import VoiceAudio
import VoiceRecognition
import VoiceSynthesis
import VoiceUnderstanding

/// `say`: speak text with eSpeak NG to a loudspeaker, or into a WAV file.
struct SayCommand<Apps: AppSet>: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "say",
            abstract:
                "Speak text with eSpeak NG (in process) to the default output, or into a WAV file (-o).",
            discussion: """
                Without -o the speech plays on --device: default (PulseAudio's default sink, or ALSA's \
                default device when no sound server answers), pulse, pulse:<sink> (pactl list short \
                sinks), alsa:<pcm> (aplay -L), e.g. alsa:hw:1,0 or alsa:pulse.
                """)
    }

    @Argument(help: "The text to say.")
    var text: String

    @Option(name: .shortAndLong, help: "The WAV file to write (default: play the speech).")
    var output: String?

    @Option(help: "Without -o: where to play (default, pulse, pulse:<sink>, alsa:<pcm>).")
    var device: String?

    @Option(help: "The eSpeak NG voice (en-us, en, en-us+f2, en+m7, …).")
    var voice = "en-us"

    @Option(help: "Words per minute (80 to 450).")
    var rate = 175

    @Option(help: "The sample rate of the file or the output stream (eSpeak's own 22050 when not given).")
    var sampleRate: Int?

    func validate() throws {
        if output != nil, device != nil {
            throw ValidationError("give either -o to write a file or --device to play on, not both")
        }
        if let device { _ = try AudioDevice(parsingOption: device) }
        if let sampleRate, sampleRate <= 0 { throw ValidationError("--sample-rate must be positive") }
    }

    func run() async throws {
        try await reportingFailures {
            let speech = try SpeechSynthesizer(voice: voice, rate: rate).speak(text)
            var audio = AudioBuffer(int16: speech.samples, sampleRate: speech.sampleRate)
            if let sampleRate { audio = audio.resampled(to: sampleRate) }
            let seconds = String(format: "%.2f", audio.duration)
            guard let output else {
                let speaker = try AudioDevice(parsingOption: device ?? "default").openSink(
                    sampleRate: audio.sampleRate)
                try speaker.play(audio)
                try speaker.drain()
                FileHandle.standardError.write(Data("played \(seconds) s on \(speaker.name)\n".utf8))
                return
            }
            try WAVFile.write(audio, to: URL(fileURLWithPath: output))
            FileHandle.standardError.write(
                Data("wrote \(output): \(seconds) s at \(audio.sampleRate) Hz\n".utf8))
        }
    }
}

extension AudioDevice {
    /// Reads a `--device` value, as a validation error (with the syntax) when it is not one.
    init(parsingOption text: String) throws {
        do {
            try self.init(text)
        } catch {
            throw ValidationError(error.message)
        }
    }
}

/// `decoys`: write the decoy list of the installed models (``DecoyCheck``).
struct DecoysCommand<Apps: AppSet>: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "decoys",
            abstract: "Write the language model's most frequent words, the decoys of `listen --decoys`.",
            discussion: """
                The words of three phones or more, most frequent first, one a line: what \
                Models/<locale>/decoys.txt holds. A grammar's own words are left out of its check when \
                it is made, so one list serves every app.
                """)
    }

    @Option(help: "How many words.")
    var count = 1_000

    @Option(name: .shortAndLong, help: "The file to write (default: print the words).")
    var output: String?

    func validate() throws {
        guard count > 0 else { throw ValidationError("--count must be at least 1") }
    }

    func run() async throws {
        try await reportingFailures {
            let models = try SpeechRecognizer.Configuration.installed()
            let words = try DecoyCheck.frequentWords(
                count: count, languageModel: models.languageModel, dictionary: models.dictionary)
            let header = [
                "# The \(words.count) most frequent words of \((models.languageModel as NSString).lastPathComponent) said with three phones or more",
                "# (voice-intents decoys --count \(count)): decoys for `listen --decoys` (Benchmarks/Recognition/README.md, \"Decoys\").",
            ]
            let text = (header + words).joined(separator: "\n") + "\n"
            guard let output else {
                print(text, terminator: "")
                return
            }
            try text.write(toFile: output, atomically: true, encoding: .utf8)
            print("wrote \(words.count) decoys to \(output)")
        }
    }
}

/// `grammar`: write the app's recognizer grammar and the pronunciations it had to guess.
struct GrammarCommand<Apps: AppSet>: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "grammar",
            abstract: "Write the app's JSGF grammar and the pronunciations of its words.")
    }

    @OptionGroup var selection: AppSelection<Apps>

    @OptionGroup var phraseOptions: PhraseOptions

    @Option(
        name: .shortAndLong,
        help: "The folder to write <app>.gram and <app>.dict into (default: print the grammar).")
    var output: String?

    func run() async throws {
        try await reportingFailures {
            let context = try selection.context()
            let grammar = try await context.grammar(phraseOptions.location)
            let recognizer = try SpeechRecognizer(.installed())
            try recognizer.useGrammar(grammar)
            let dictionary = recognizer.loadedPronunciations
            guard let output else {
                print(grammar.jsgf, terminator: "")
                return
            }
            let folder = URL(fileURLWithPath: output)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try grammar.jsgf.write(
                to: folder.appendingPathComponent("\(context.executableName).gram"), atomically: true,
                encoding: .utf8)
            try dictionary.write(
                to: folder.appendingPathComponent("\(context.executableName).dict"), atomically: true,
                encoding: .utf8)
            print(
                "wrote \(context.executableName).gram (\(grammar.words.count) words) and \(context.executableName).dict (\(dictionary.split(separator: "\n").count) pronunciations, \(recognizer.guessedWords.count) guessed) to \(output)"
            )
        }
    }
}

/// `transcribe`: what the recognizer hears in a WAV file or raw PCM on standard input.
struct TranscribeCommand<Apps: AppSet>: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "transcribe",
            abstract: "Transcribe a WAV file, or raw 16 kHz 16-bit mono PCM on standard input (-).",
            discussion: """
                A file or standard input is heard whole, as one utterance, pauses and all; `listen \
                --input FILE` hears it as the voice loop does, an utterance at each end of speech. \
                --microphone hears one utterance.

                arecord -f S16_LE -r 16000 -c 1 | voice-intents transcribe -
                """)
    }

    @OptionGroup var selection: AppSelection<Apps>

    @OptionGroup var phraseOptions: PhraseOptions

    @Flag(help: "Transcribe any English (the general language model) instead of the app's grammar.")
    var dictation = false

    @Flag(help: "Also match the transcript against the app's phrases.")
    var match = false

    @Flag(
        help:
            "Also print how sure the recognizer is that the audio was the words it heard (0 to 1; from the words' acoustic score per frame)."
    )
    var confidence = false

    @Flag(
        help:
            "Also print the best path segment by segment: words, silences and noises, with their times and acoustic scores."
    )
    var segments = false

    @Argument(help: "A WAV file (any common rate and bit depth), or - for raw PCM on standard input.")
    var input: String?

    @Flag(help: "Listen to a microphone (the default source, or --device) until one utterance has ended.")
    var microphone = false

    @Option(
        help: ArgumentHelp(
            "With --microphone: where to listen (default, pulse, pulse:<source>, alsa:<pcm>).",
            discussion: """
                default is PulseAudio's default source, or ALSA's default device when no sound server \
                answers; pulse:<source> as pactl list short sources names it; alsa:<pcm> as arecord -L \
                names it, e.g. alsa:hw:1,0 or alsa:pulse. A name without a colon is a PulseAudio source.
                """))
    var device: String?

    @Option(help: "A wake phrase the grammar hears before a command or alone (\"hey travel tracking\").")
    var wakePhrase: String?

    @Option(help: "With --microphone: seconds to wait for speech.")
    var timeout = 10.0

    @OptionGroup var recognizerOptions: RecognizerOptions

    func validate() throws {
        guard (input != nil) != microphone else {
            throw ValidationError("give a WAV file, - for raw PCM on standard input, or --microphone")
        }
        if let device {
            guard microphone else { throw ValidationError("--device needs --microphone") }
            _ = try AudioDevice(parsingOption: device)
        }
    }

    func run() async throws {
        try await reportingFailures {
            let context = try selection.context()
            let configuration = try recognizerOptions.configuration(app: context.executableName)
            let grammar = try await grammar(for: context)
            // Loading the models and decoding take seconds: on a thread of their own, not one of
            // Swift's cooperative threads.
            if microphone {
                let (device, timeout) = (try AudioDevice(parsingOption: device ?? "default"), timeout)
                let (result, source) = try await onThreadOfItsOwn {
                    () throws -> (RecognitionResult?, String) in
                    let recognizer = try transcribing(configuration, grammar: grammar)
                    // A microphone that goes away (unplugged, the sound server restarted) or sends
                    // nothing for ten seconds is reopened for about ten seconds before the command
                    // gives up.
                    let source = try ReopeningSource(
                        device: device,
                        policy: .init(
                            maximumDelay: .seconds(2), maximumAttempts: 6, stallTimeout: .seconds(10))
                    ) { event in
                        FileHandle.standardError.write(Data("\(event)\n".utf8))
                    }
                    let result = try recognizer.listen(
                        timeout: timeout,
                        read: { () throws(SpeechError) -> [Int16]? in try source.read(1_600) })
                    return (result, source.name)
                }
                guard let result else {
                    throw CommandFailure("no speech within \(Int(timeout)) s from \(source)")
                }
                try await report(result, context: context)
                return
            }
            guard let input else { return }
            let samples: [Int16]
            if input == "-" {
                var reader = RawPCMReader(fileHandle: FileHandle.standardInput)
                samples = try reader.readAll().forRecognizer
            } else {
                samples = try WAVFile.read(from: URL(fileURLWithPath: input)).forRecognizer
            }
            let result = try await onThreadOfItsOwn {
                try transcribing(configuration, grammar: grammar).recognize(samples)
            }
            try await report(result, context: context)
        }
    }

    /// The app's grammar, or `nil` for dictation.
    private func grammar(for context: AppContext) async throws -> SpeechGrammar? {
        guard !dictation else { return nil }
        return context.grammar(
            of: try await context.matcher(phraseOptions.location), wakePhrase: wakePhrase,
            garbage: try recognizerOptions.garbagePath(for: context, locale: phraseOptions.locale).model,
            joinsCommands: recognizerOptions.joinedCommands,
            freeText: try recognizerOptions.freeTextWords(locale: phraseOptions.locale))
    }

    /// Prints the transcript (and its match); exits non-zero when nothing was heard.
    private func report(_ result: RecognitionResult, context: AppContext) async throws {
        print(result.text)
        if confidence, let measured = result.confidence {
            print(
                "confidence \(String(format: "%.2f", measured.value)) (acoustic score \(String(format: "%.1f", measured.scorePerFrame)) per frame)"
            )
        }
        if segments {
            for word in result.words {
                let times = String(format: "%6.2f %6.2f", word.start, word.end)
                print("  \(times)  \(word.word)  \(word.acousticScore)")
            }
        }
        if match, !result.text.isEmpty {
            let matcher = try await context.matcher(phraseOptions.location)
            let matched = await matcher.match(result.commandText)
            // As the voice loop takes it: a value whose words fit the sound too poorly is asked for.
            let margin = recognizerOptions.valueMarginInForce
            if let joined = await matcher.matchJoined(result.commandText, whole: matched) {
                let checked = joined.map {
                    Understanding.checkingValues(of: $0, heard: result, margin: margin)
                }
                print(MatchReport.text(joined: checked, app: context.description), terminator: "")
            } else {
                let checked = Understanding.checkingValues(of: matched, heard: result, margin: margin)
                print(MatchReport.text(checked, app: context.description), terminator: "")
            }
        }
        if result.text.isEmpty { throw ExitCode(1) }
    }
}

/// A recognizer set for `grammar`, or for dictation, for `transcribe`.
private func transcribing(_ configuration: SpeechRecognizer.Configuration, grammar: SpeechGrammar?) throws
    -> SpeechRecognizer
{
    let recognizer = try SpeechRecognizer(configuration)
    if let grammar { try recognizer.useGrammar(grammar) } else { try recognizer.useDictation() }
    return recognizer
}
