import Foundation

/// Synthesised speech kept on disk, keyed by a hash of everything that makes it: the text, the
/// voice, the rate and eSpeak NG's version. A second evaluation of the same sentences reads the
/// WAV files back instead of speaking again, and hears exactly the same audio (eSpeak NG does
/// not always give the same samples twice within one process).
///
/// ```swift
/// let cache = try SpeechCache(folder: SpeechCache.defaultFolder)
/// let samples = try cache.speech("open the map", voice: "en-us", rate: 175)  // 16 kHz
/// ```
public struct SpeechCache: Sendable {
    /// Where the WAV files are.
    public let folder: URL
    private let engineVersion: String

    /// `$XDG_CACHE_HOME/voice-intents/speech`, or `~/.cache/voice-intents/speech`.
    public static var defaultFolder: URL {
        let environment = ProcessInfo.processInfo.environment
        let base =
            environment["XDG_CACHE_HOME"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache")
        return base.appendingPathComponent("voice-intents").appendingPathComponent("speech")
    }

    /// Opens (and makes, if needed) the cache in `folder`.
    public init(folder: URL) throws(SpeechError) {
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
    public func speech(_ text: String, voice: String, rate: Int) throws(SpeechError) -> [Float] {
        let file = folder.appendingPathComponent(
            Self.hash("speech 1|\(engineVersion)|\(voice)|\(rate)|\(text)") + ".wav")
        if let cached = try? WAVFile.read(from: file), cached.sampleRate == AudioFormat.recognizerSampleRate {
            return cached.samples
        }
        let speech = try SpeechSynthesizer(voice: voice, rate: rate).speak(text)
        let audio = AudioBuffer(int16: speech.samples, sampleRate: speech.sampleRate)
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

    /// A stable 64-bit FNV-1a hash of `text`, as 16 hex digits (Swift's `Hasher` changes from
    /// run to run).
    public static func hash(_ text: String) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01B3
        }
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
