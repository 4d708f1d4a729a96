import Foundation
import PhraseMatching
import Testing
import VoiceAudio
import VoiceTestSupport

@testable import VoiceRecognition
@testable import VoiceUnderstanding

/// The end of speech knows the grammar: a pause ends an utterance only when the words heard so
/// far are a whole sentence after which nothing can follow, or after the manifest's
/// `maximumSilence`.
@Suite("End of speech")
struct EndOfSpeechTests {
    /// A person's "what's the weather like in New York", with 0.6 s of the recording's own room
    /// tone (from after the speech) put into its pause after "what's": a fixed silence window of
    /// 0.4 s ends an utterance there and hears the rest as a second one; waiting while the words
    /// so far are no whole command hears it as one. (With the audio front end and WebRTC's end of
    /// speech, the default half second ends nothing there.)
    @Test func aPauseInsideACommandDoesNotCutItInTwo() throws {
        let input = try Self.paused(
            "what's the weather like in New York.wav", count: 47_200, at: 8_000, room: 35_200..<44_800)
        defer { try? FileManager.default.removeItem(at: input) }
        let plain = try PeoplesRecordings.listen(
            input, ["--silence", "0.4", "--max-silence", "0", "--min-confidence", "0"])
        #expect(plain.status == 0, "\(plain.errors)")
        #expect(
            plain.output.components(separatedBy: "\n> ").count + (plain.output.hasPrefix("> ") ? 0 : -1) >= 2,
            "\(plain.output)")
        let waiting = try PeoplesRecordings.listen(input, ["--silence", "0.4", "--min-confidence", "0"])
        #expect(waiting.status == 0, "\(waiting.errors)")
        #expect(
            waiting.output == "> what's the weather like in new york\n< It's sunny and 18 degrees.\n",
            "\(waiting.output)")
    }

    /// A whole command ends at the usual half second, so the next one is heard apart even after
    /// a pause shorter than the longest silence: a person's command said twice, with 0.9 s of
    /// the recording's own room between, is two turns.
    @Test func aWholeCommandEndsAtTheUsualSilence() throws {
        let heard = try Self.saidTwice("is the Front Door locked")
        #expect(heard == ["> is the front door locked", "> is the front door locked"])
    }

    /// So does a whole command whose phrase may go on only with words that take no value:
    /// "run Party Time" may be followed by "script", and "activate Mood Lighting" by "scene",
    /// which would say nothing new. Each, said twice by a person with 0.9 s between, is two turns
    /// (waiting up to the longest silence for the word ran the two into one utterance).
    @Test(arguments: ["run Party Time", "activate Mood Lighting"])
    func aWholeCommandThatMayGoOnOnlyWithWordsThatSayNothingEndsAtTheUsualSilence(_ command: String)
        throws
    {
        let heard = try Self.saidTwice(command)
        let said = "> " + SpeechGrammar.spokenWords(command).joined(separator: " ")
        #expect(heard == [said, said])
    }

    /// What `listen` hears of speech-to-phrase's recording `name` said twice, with 0.9 s of the
    /// recording's own room between: the `> ` lines.
    static func saidTwice(_ name: String) throws -> [String] {
        let audio = try WAVFile.read(from: try PeoplesRecordings.file("speech-to-phrase-en", "\(name).wav"))
        let samples = audio.resampled(to: 16_000).int16Samples
        // Speech: 50 ms windows 20 dB above the quietest one.
        let window = 800
        let levels = stride(from: 0, to: samples.count - window, by: window).map { start in
            10
                * log10(
                    samples[start..<start + window].reduce(1.0) { $0 + Double($1) * Double($1) }
                        / Double(window))
        }
        let floor = try #require(levels.min())
        let loud = levels.indices.filter { levels[$0] > floor + 20 }
        let start = try #require(loud.first) * window
        let end = try #require(loud.last) * window + window
        let command = Array(samples[max(0, start - 4_800)..<min(samples.count, end + 4_800)])
        let room = Array(samples[min(samples.count, end + 4_800)...].prefix(4_800))
        try #require(room.count == 4_800, "the recording has less than 0.3 s of room after the speech")
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("twice-\(UUID()).wav")
        defer { try? FileManager.default.removeItem(at: input) }
        try WAVFile.write(AudioBuffer(int16: command + room + command, sampleRate: 16_000), to: input)
        let run = try PeoplesRecordings.listen(input, ["--min-confidence", "0"])
        #expect(run.status == 0, "\(run.errors)")
        return run.output.split(separator: "\n").filter { $0.hasPrefix("> ") }.map(String.init)
    }

    /// A person's "set a timer for 3 hours and 10 minutes", with 0.7 s of the recording's own
    /// room put into its pause after "hours": "set a timer for three hours" is a whole command
    /// that may go on, so the end of speech waits for "and ten minutes" and hears one command;
    /// ending whole commands at the short silence cuts it in two and loses the minutes.
    @Test func aWholeCommandThatMayGoOnWaitsForTheRest() throws {
        // "hours" ends at about 1.85 s.
        let input = try Self.paused(
            "set a timer for 3 hours and 10 minutes.wav", count: 57_440, at: 29_600, room: 42_400..<53_600)
        defer { try? FileManager.default.removeItem(at: input) }
        let flags = ["--silence", "0.4", "--min-confidence", "0"]
        let cut = try PeoplesRecordings.listen(input, flags + ["--no-wait-for-continuation"])
        #expect(cut.status == 0, "\(cut.errors)")
        #expect(cut.output.hasPrefix("> set a timer for three hours\n"), "\(cut.output)")
        let whole = try PeoplesRecordings.listen(input, flags)
        #expect(whole.status == 0, "\(whole.errors)")
        #expect(whole.output.hasPrefix("> set a timer for three hours and ten minutes\n"), "\(whole.output)")
    }

    /// A WAV file of speech-to-phrase's recording `name` (which must have `count` samples at
    /// 16 kHz) with its own room tone from `room` put in at sample `at`; the caller removes it.
    static func paused(_ name: String, count: Int, at: Int, room: Range<Int>) throws -> URL {
        let audio = try WAVFile.read(from: try PeoplesRecordings.file("speech-to-phrase-en", name))
        let samples = audio.resampled(to: 16_000).int16Samples
        try #require(samples.count == count, "the recording changed: \(samples.count) samples")
        let paused = Array(samples[..<at]) + Array(samples[room]) + Array(samples[at...])
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("paused-\(UUID()).wav")
        try WAVFile.write(AudioBuffer(int16: paused, sampleRate: 16_000), to: input)
        return input
    }
}

/// Speech that goes on (a room of people talking, a television) ends at the longest
/// utterance, so the loop is not held by one search over minutes of sound.
@Suite("The longest utterance")
struct LongestUtteranceTests {
    /// Five people's commands laid over one another, each stream starting elsewhere, for 20 s:
    /// talk with hardly a pause in it. With a longest utterance of 1 s, the listening ends a
    /// second after the speech began; with none, it goes on past that.
    @Test func talkThatGoesOnEndsAtTheLongestUtterance() throws {
        let folder = PeoplesRecordings.folder.appendingPathComponent("speech-to-phrase-en")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            $0.hasSuffix(".wav")
        }.sorted()
        var line: [Float] = []
        for name in names {
            line += try WAVFile.read(from: folder.appendingPathComponent(name)).resampled(to: 16_000).samples
        }
        let length = 20 * 16_000
        try #require(line.count > 2 * length)
        var talk = [Float](repeating: 0, count: length)
        for voice in 0..<5 {
            let start = voice * line.count / 5
            for index in 0..<length { talk[index] += line[(start + index) % line.count] / 3 }
        }
        let audio = AudioBuffer(samples: talk, sampleRate: 16_000).int16Samples
        func listened(longest: Double?) throws -> (began: Int, ended: Int) {
            var configuration = try SpeechRecognizer.Configuration.installed()
            configuration.longestUtterance = longest
            let recognizer = try SpeechRecognizer(configuration)
            try recognizer.useGrammar(SpeechGrammar(answers: [.values(.integer())], name: "number"))
            var offset = 0
            var began = -1
            _ = try recognizer.listen(
                timeout: 10,
                read: { () throws(SpeechError) -> [Int16]? in
                    guard offset < audio.count else { return nil }
                    defer { offset += 1_600 }
                    return Array(audio[offset..<min(offset + 1_600, audio.count)])
                }, speechStarted: { began = $0 })
            return (began, offset)
        }
        // Without a limit, the talk is one utterance of some seconds (the detector finds a pause
        // in it somewhere); with a limit of a second, it ends a second after it began.
        let unlimited = try listened(longest: nil)
        try #require(
            unlimited.began >= 0 && unlimited.ended - unlimited.began >= 2 * 16_000,
            "ended \(Double(unlimited.ended - unlimited.began) / 16_000) s after the speech began")
        let limited = try listened(longest: 1)
        #expect(limited.began == unlimited.began)
        #expect(
            limited.ended - limited.began <= 16_000 + 2 * 1_600,
            "ended \(Double(limited.ended - limited.began) / 16_000) s after the speech began")
    }
}
