import Foundation
import VoiceAudio
import VoiceSynthesis

/// Synthesised speech kept on disk, keyed by a hash of everything that makes it: the text, the
/// voice, the rate and eSpeak NG's version. A second evaluation of the same sentences reads the
/// WAV files back instead of speaking again, and hears exactly the same audio.
///
/// What is missing is spoken by the `espeak-ng` program, one process a sentence, rather than in
/// this process: eSpeak NG carries state from one sentence to the next, so within a process the
/// same text in the same voice comes out different each time (most samples differ), and a cache
/// filled in process would hold whatever order the sentences happened to be spoken in. A fresh
/// process always gives the same samples, so every machine fills its cache with the same audio.
/// Without the program (Debian's `espeak-ng`), speech is made in process.
///
/// ```swift
/// let cache = try SpeechCache(folder: SpeechCache.defaultFolder)
/// let samples = try cache.speech("open the map", voice: "en-us", rate: 175)  // 16 kHz
/// ```
package struct SpeechCache: Sendable {
    /// Where the WAV files are.
    package let folder: URL
    private let engineVersion: String

    /// `$XDG_CACHE_HOME/voice-intents/speech`, or `~/.cache/voice-intents/speech`.
    package static var defaultFolder: URL {
        let environment = ProcessInfo.processInfo.environment
        let base =
            environment["XDG_CACHE_HOME"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache")
        return base.appendingPathComponent("voice-intents").appendingPathComponent("speech")
    }

    /// Opens (and makes, if needed) the cache in `folder`.
    package init(folder: URL) throws(SpeechError) {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw SpeechError(
                .invalidInput,
                "cannot use \(folder.path) as the speech cache (\(error.localizedDescription)); give another with --cache"
            )
        }
        self.folder = folder
        self.engineVersion = try SpeechSynthesizer.engineVersion()
    }

    /// `text` spoken in `voice` at `rate`, at the recognizer's 16 kHz, from the cache or newly
    /// spoken (and then kept).
    package func speech(_ text: String, voice: String, rate: Int) throws(SpeechError) -> [Float] {
        let file = folder.appendingPathComponent(
            Self.hash("speech 2|\(engineVersion)|\(voice)|\(rate)|\(text)") + ".wav")
        if let cached = try? WAVFile.read(from: file), cached.sampleRate == AudioFormat.recognizerSampleRate {
            return cached.samples
        }
        let audio = try Self.speakInOwnProcess(text, voice: voice, rate: rate)
            .resampled(to: AudioFormat.recognizerSampleRate)
        // Written aside and moved into place, so a reader never sees half a file.
        let partial = folder.appendingPathComponent(".\(UUID().uuidString).wav")
        do {
            try WAVFile.write(audio, to: partial)
            _ = try? FileManager.default.removeItem(at: file)
            try FileManager.default.moveItem(at: partial, to: file)
        } catch {
            try? FileManager.default.removeItem(at: partial)
        }
        return AudioBuffer(samples: audio.samples, sampleRate: audio.sampleRate).int16Samples.map {
            Float($0) / 32_768
        }
    }

    /// `text` spoken by a process of its own (`espeak-ng -w`), or in this one when there is no
    /// `espeak-ng` on the `PATH`.
    static func speakInOwnProcess(_ text: String, voice: String, rate: Int) throws(SpeechError) -> AudioBuffer
    {
        guard let program = ChildProcess.program("espeak-ng") else {
            let speech = try SpeechSynthesizer(voice: voice, rate: rate).speak(text)
            return AudioBuffer(int16: speech.samples, sampleRate: speech.sampleRate)
        }
        // An unknown voice is named here: the program would fall back to another one without a word.
        let engine = try ESpeakEngine.shared()
        try engine.exclusively { () throws(SpeechError) in try engine.selectVoice(voice) }
        let name = FileManager.default.temporaryDirectory.appendingPathComponent(
            "voice-intents-speech-\(UUID().uuidString)")
        let input = name.appendingPathExtension("txt")
        let output = name.appendingPathExtension("wav")
        defer {
            try? FileManager.default.removeItem(at: input)
            try? FileManager.default.removeItem(at: output)
        }
        // The text from a file, so that text starting with "-" is not read as an option.
        do {
            try text.write(to: input, atomically: false, encoding: .utf8)
        } catch {
            throw SpeechError(
                .invalidInput, "cannot write \(input.path) for espeak-ng: \(error.localizedDescription)")
        }
        let status = ChildProcess.run([
            program, "-v", voice, "-s", String(min(max(rate, 80), 450)), "-p", "50", "-b", "1", "-f",
            input.path,
            "-w", output.path,
        ]).status
        guard status == 0 else {
            throw SpeechError(.engineFailure, "espeak-ng failed to speak \"\(text)\" (exit status \(status))")
        }
        do {
            return try WAVFile.read(from: output)
        } catch {
            throw SpeechError(.engineFailure, "espeak-ng wrote no readable speech for \"\(text)\": \(error)")
        }
    }

    /// A stable 64-bit FNV-1a hash of `text`, as 16 hex digits (Swift's `Hasher` changes from
    /// run to run).
    package static func hash(_ text: String) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01B3
        }
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
