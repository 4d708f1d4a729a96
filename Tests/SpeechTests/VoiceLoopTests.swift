import Foundation
import Testing

@testable import Speech

/// The voice loop end to end, with real speech in and out: eSpeak NG speaks a command and the
/// answers to the app's questions into one WAV, `travel-tracking listen --input` hears them and
/// runs the intent, and the replies it writes with `--output` are recognised back.
@Suite("Voice loop")
struct VoiceLoopTests {
    /// Sentences spoken one after another with a pause between, as a person would answer.
    static func recording(_ sentences: [String]) throws -> URL {
        let roundTrip = RoundTrip(padding: 0.6)
        var samples: [Int16] = []
        for (index, sentence) in sentences.enumerated() {
            let speech = try SpeechSynthesizer(voice: "en-us", rate: 160).speak(sentence)
            samples += roundTrip.heard(speech, seed: UInt64(index))
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("commands-\(UUID()).wav")
        try WAVFile.write(AudioBuffer(int16: samples, sampleRate: 16_000), to: url)
        return url
    }

    static func listen(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        try Executables.run("travel-tracking", ["listen"] + arguments)
    }

    /// What the replies say, heard one by one under a grammar of every reply the flows below
    /// can give (so a wrong reply is heard as itself, not forced onto the expected one).
    static func heardReplies(in url: URL) throws -> [String] {
        let candidates = [
            "How many tickets?", "Search for 3 tickets to Uluru?", "Search for 2 tickets to Uluru?",
            "I found 3 tickets to Uluru for 75 dollars in total.", "Okay, cancelled.", "Which landmark?",
            "Sorry, I didn't catch that.",
        ]
        let grammar = SpeechGrammar(answers: [.phrases(candidates)], name: "replies", cancel: false)
        let recognizer = try SpeechRecognizer(try ModelFilesTests.configuration())
        try recognizer.useGrammar(grammar)
        let stream = SampleStream(try WAVFile.read(from: url).forRecognizer)
        var heard: [String] = []
        while let result = try recognizer.listen(timeout: 30, read: stream.read) {
            heard.append(result.text)
        }
        return heard
    }

    /// Says `sentences` to `travel-tracking listen --voice-only`; what it printed, and its
    /// spoken replies as heard back.
    static func converse(_ sentences: [String]) throws -> (
        run: (status: Int32, output: String, errors: String), replies: [String]
    ) {
        let input = try recording(sentences)
        let replies = FileManager.default.temporaryDirectory.appendingPathComponent("replies-\(UUID()).wav")
        defer {
            try? FileManager.default.removeItem(at: input)
            try? FileManager.default.removeItem(at: replies)
        }
        let run = try listen(["--input", input.path, "--output", replies.path, "--voice-only"])
        return (run, run.status == 0 ? try heardReplies(in: replies) : [])
    }

    @Test func aMissingValueIsAskedAnsweredConfirmedAndTheResultSpoken() throws {
        let (run, replies) = try Self.converse([
            "find tickets for uluru with travel tracking", "three", "yes",
        ])
        #expect(run.status == 0, "\(run.errors)")
        #expect(
            run.output == """
                > find tickets for uluru with travel tracking
                < How many tickets?
                > three
                < Search for 3 tickets to Uluru?
                > yes
                < I found 3 tickets to Uluru for 75 dollars in total.

                """, "\(run.output)")
        #expect(
            replies == [
                "how many tickets", "search for three tickets to uluru",
                "i found three tickets to uluru for seventy five dollars in total",
            ])
    }

    @Test func anUnansweredConfirmationCancelsWithNoSideEffects() throws {
        let (run, replies) = try Self.converse(["find tickets for uluru with travel tracking", "three"])
        #expect(run.status == 0, "\(run.errors)")
        #expect(
            run.output.hasSuffix("< Search for 3 tickets to Uluru?\n< Okay, cancelled.\n"), "\(run.output)")
        #expect(replies.last == "okay cancelled")
    }

    @Test func anUnreadableInputSaysWhy() throws {
        let run = try Self.listen(["--input", "/no/such/file.wav"])
        #expect(run.status != 0)
        #expect(run.errors.contains("/no/such/file.wav"), "\(run.errors)")
    }
}
