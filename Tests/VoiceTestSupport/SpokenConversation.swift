import Foundation
import Testing

@testable import VoiceAudio
@testable import VoiceEvaluation
@testable import VoiceRecognition
@testable import VoiceSynthesis
@testable import VoiceUnderstanding

/// Conversations with the sample apps' `listen`, spoken by eSpeak NG into a WAV file, and the
/// replies it writes heard back.
package enum SpokenConversation {
    /// The eSpeak NG voice and the first noise seed of the recordings: fixed, so a run hears
    /// what the last one heard. `VOICE_LOOP_VOICE` and `VOICE_LOOP_SEED` change them, to see
    /// how the flows fare in other voices.
    package static let voice = ProcessInfo.processInfo.environment["VOICE_LOOP_VOICE"] ?? "en-us"
    package static let seed =
        ProcessInfo.processInfo.environment["VOICE_LOOP_SEED"].flatMap { UInt64($0) } ?? 0

    /// Sentences spoken one after another with a pause between, as a person would answer.
    ///
    /// Each sentence is spoken by `voice-intents say`, a process of its own: eSpeak NG carries
    /// state from one synthesis to the next, so the same sentence spoken in this process would
    /// sound a little different depending on what tests running alongside said before it, and
    /// the recognizer sometimes hears that difference.
    package static func recording(_ sentences: [String]) throws -> URL {
        let roundTrip = RoundTrip(padding: 0.6)
        var samples: [Int16] = []
        let clip = FileManager.default.temporaryDirectory.appendingPathComponent("sentence-\(UUID()).wav")
        defer { try? FileManager.default.removeItem(at: clip) }
        for (index, sentence) in sentences.enumerated() {
            let said = try Executables.run(
                "voice-intents", ["say", sentence, "-o", clip.path, "--voice", voice, "--rate", "160"])
            try #require(said.status == 0, "\(said.errors)")
            let audio = try WAVFile.read(from: clip)
            let speech = SynthesizedSpeech(samples: audio.int16Samples, sampleRate: audio.sampleRate)
            samples += roundTrip.heard(speech, seed: seed + UInt64(index))
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("commands-\(UUID()).wav")
        try WAVFile.write(AudioBuffer(int16: samples, sampleRate: 16_000), to: url)
        return url
    }

    package static func listen(
        _ arguments: [String], app: String = "travel-tracking"
    ) throws -> (status: Int32, output: String, errors: String) {
        try Executables.run(app, ["listen"] + arguments)
    }

    /// Every reply the flows below can give, right or wrong, as eSpeak NG says it (numbers in
    /// words). A reply of several sentences may be heard whole or sentence by sentence, so its
    /// sentences are candidates too.
    package static let replies = [
        // Closest landmark, with no screen and with one.
        "The closest landmark is Golden Gate Bridge, seven kilometers away.",
        "Golden Gate Bridge is in North America.",
        // Crowd status, asked which landmark, and which of the falls.
        "Which landmark?", "Sorry, I didn't catch that. Which landmark?",
        "Which landmark? The first, Niagara Falls. The second, Victoria Falls. The third, Iguazu Falls.",
        "The first, Niagara Falls.", "The second, Victoria Falls.", "The third, Iguazu Falls.",
        "Niagara Falls is busy right now, with about twelve thousand visitors.",
        "Victoria Falls is quiet right now, with about two thousand visitors.",
        "Iguazu Falls is quiet right now, with about four thousand five hundred visitors.",
        "Uluru is quiet right now, with about one thousand two hundred visitors.",
        // Tickets: how many, confirmed or not, too many.
        "How many tickets?", "Sorry, I didn't catch that. How many tickets?",
        "Search for two tickets to Uluru?", "Search for three tickets to Uluru?",
        "Search for eleven tickets to Uluru?", "Sorry, was that a yes or a no?",
        "I found two tickets to Uluru for fifty dollars in total.",
        "I found three tickets to Uluru for seventy five dollars in total.",
        "Sorry, I can't book eleven tickets at once. The limit is ten.",
        "Sorry, I can't book eleven tickets at once.", "The limit is ten.",
        "Sorry, I can't book seven tickets at once. The limit is ten.", "You need at least one ticket.",
        // Collections: which, then archive, delete or keep.
        "Which collection?", "Sorry, I didn't catch that. Which collection?",
        "Do you want to archive or delete Summer Trip? The first, Cancel. The second, Archive. The third, Delete.",
        "Do you want to archive or delete Waterfalls? The first, Cancel. The second, Archive. The third, Delete.",
        "Do you want to archive or delete Summer Trip?", "Do you want to archive or delete Waterfalls?",
        "The first, Cancel.", "The second, Archive.", "The third, Delete.",
        "Archived Summer Trip.", "Archived Waterfalls.", "Deleted Summer Trip.", "Deleted Waterfalls.",
        "Kept Summer Trip.",
        // Library: a book added by title, and opened.
        "What's the title of the book?", "Sorry, I didn't catch that. What's the title of the book?",
        "Added Dune by Frank Herbert to your library.", "Opening Dune by Frank Herbert.",
        "Added Emma by Jane Austen to your library.", "Opening Emma by Jane Austen.",
        "Added Beloved by Toni Morrison to your library.", "Opening Beloved by Toni Morrison.",
        "There are two books called The Road. Who wrote it?", "Did you mean The Hobbit?",
        "Sorry, I couldn't find a book called Dune.",
        // Anywhere.
        "Okay, cancelled.", "Okay.", "Sorry, I didn't catch that.", "Sorry, I didn't understand that.",
    ]

    /// What the replies say, heard one by one under a grammar of `among` (``replies`` unless
    /// told otherwise; so a wrong reply is heard as itself, not forced onto the expected one).
    ///
    /// `listen` writes the replies with 0.7 s of digital silence between them, and eSpeak NG
    /// pauses for at most a third of a second within one, so the tape is cut at every run of
    /// zeros half a second long: each reply is recognised on its own, whatever the recognizer's
    /// endpointing makes of short replies close together.
    package static func heardReplies(in url: URL, among sentences: [String] = replies) throws -> [String] {
        let grammar = SpeechGrammar(answers: [.phrases(sentences)], name: "replies", cancel: false)
        let recognizer = try SpeechRecognizer(try TestModels.grammarConfiguration())
        try recognizer.useGrammar(grammar)
        let tape = try WAVFile.read(from: url)
        let samples = tape.int16Samples
        let gap = tape.sampleRate / 2
        var heard: [String] = []
        var start = 0
        var zeros = 0
        for index in 0...samples.count {
            if index < samples.count, samples[index] == 0 {
                zeros += 1
                continue
            }
            if zeros >= gap || index == samples.count {
                let end = index - zeros
                if end > start {
                    let reply = SynthesizedSpeech(
                        samples: Array(samples[start..<end]), sampleRate: tape.sampleRate)
                    let text = try recognizer.recognize(RoundTrip(padding: 0.3).heard(reply)).text
                    if !text.isEmpty { heard.append(text) }
                }
                start = index
            }
            zeros = 0
        }
        return heard
    }

    /// ``heardReplies(in:)`` joined into one line: a reply of several sentences reads the same
    /// whether it was heard whole or sentence by sentence.
    package static func heardReplyText(in url: URL, among sentences: [String] = replies) throws -> String {
        try heardReplies(in: url, among: sentences).joined(separator: " ")
    }

    /// `replies` as ``heardReplyText(in:)`` gives them: the words, lower case, numbers in words.
    package static func spoken(_ replies: [String]) -> String {
        replies.map { SpeechGrammar.spokenWords($0).joined(separator: " ") }.joined(separator: " ")
    }

    /// Says `sentences` to `app listen` (`--voice-only` unless other `flags` are given); what it
    /// printed, and its spoken replies as heard back.
    package static func converse(
        _ sentences: [String], app: String = "travel-tracking", flags: [String] = ["--voice-only"]
    ) throws -> (run: (status: Int32, output: String, errors: String), replies: String) {
        let input = try recording(sentences)
        defer { try? FileManager.default.removeItem(at: input) }
        return try converse(input, app: app, flags: flags)
    }

    /// `app listen` on a recording made already.
    package static func converse(
        _ input: URL, app: String = "travel-tracking", flags: [String]
    ) throws -> (run: (status: Int32, output: String, errors: String), replies: String) {
        let replies = FileManager.default.temporaryDirectory.appendingPathComponent("replies-\(UUID()).wav")
        defer { try? FileManager.default.removeItem(at: replies) }
        let run = try listen(["--input", input.path, "--output", replies.path] + flags, app: app)
        return (run, run.status == 0 ? try heardReplyText(in: replies) : "")
    }

    /// What the loop prints of a ticket search whose count is asked for and confirmed.
    package static let ticketsTranscript = """
        > find tickets for uluru with travel tracking
        < How many tickets?
        > three
        < Search for 3 tickets to Uluru?
        > yes
        < I found 3 tickets to Uluru for 75 dollars in total.

        """

    package static let tickets = ["find tickets for uluru with travel tracking", "three", "yes"]

    /// The loop's replies in the tickets conversation, as they are heard back.
    package static let ticketsReplies = spoken([
        "How many tickets?", "Search for three tickets to Uluru?",
        "I found three tickets to Uluru for seventy five dollars in total.",
    ])
}
