import Foundation
import Testing
import VoiceEvaluation

@testable import VoiceAudio
@testable import VoiceRecognition
@testable import VoiceSynthesis
@testable import VoiceUnderstanding

/// The voice loop end to end, with real speech in and out: eSpeak NG speaks commands and the
/// answers to the app's questions into one WAV, `travel-tracking listen --input` (or `library
/// listen`) hears them and runs the intents, and the replies it writes with `--output` are
/// recognised back.
@Suite("Voice loop")
struct VoiceLoopTests {
    /// The eSpeak NG voice and the first noise seed of the recordings: fixed, so a run hears
    /// what the last one heard. `VOICE_LOOP_VOICE` and `VOICE_LOOP_SEED` change them, to see
    /// how the flows fare in other voices.
    static let voice = ProcessInfo.processInfo.environment["VOICE_LOOP_VOICE"] ?? "en-us"
    static let seed = ProcessInfo.processInfo.environment["VOICE_LOOP_SEED"].flatMap { UInt64($0) } ?? 0

    /// Sentences spoken one after another with a pause between, as a person would answer.
    ///
    /// Each sentence is spoken by `voice-intents say`, a process of its own: eSpeak NG carries
    /// state from one synthesis to the next, so the same sentence spoken in this process would
    /// sound a little different depending on what tests running alongside said before it, and
    /// the recognizer sometimes hears that difference.
    static func recording(_ sentences: [String]) throws -> URL {
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

    static func listen(
        _ arguments: [String], app: String = "travel-tracking"
    ) throws -> (status: Int32, output: String, errors: String) {
        try Executables.run(app, ["listen"] + arguments)
    }

    /// Every reply the flows below can give, right or wrong, as eSpeak NG says it (numbers in
    /// words). A reply of several sentences may be heard whole or sentence by sentence, so its
    /// sentences are candidates too.
    static let replies = [
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
    static func heardReplies(in url: URL, among sentences: [String] = replies) throws -> [String] {
        let grammar = SpeechGrammar(answers: [.phrases(sentences)], name: "replies", cancel: false)
        let recognizer = try SpeechRecognizer(try ModelFilesTests.grammarConfiguration())
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
    static func heardReplyText(in url: URL, among sentences: [String] = replies) throws -> String {
        try heardReplies(in: url, among: sentences).joined(separator: " ")
    }

    /// `replies` as ``heardReplyText(in:)`` gives them: the words, lower case, numbers in words.
    static func spoken(_ replies: [String]) -> String {
        replies.map { SpeechGrammar.spokenWords($0).joined(separator: " ") }.joined(separator: " ")
    }

    /// Says `sentences` to `app listen` (`--voice-only` unless other `flags` are given); what it
    /// printed, and its spoken replies as heard back.
    static func converse(
        _ sentences: [String], app: String = "travel-tracking", flags: [String] = ["--voice-only"]
    ) throws -> (run: (status: Int32, output: String, errors: String), replies: String) {
        let input = try recording(sentences)
        defer { try? FileManager.default.removeItem(at: input) }
        return try converse(input, app: app, flags: flags)
    }

    /// `app listen` on a recording made already.
    static func converse(
        _ input: URL, app: String = "travel-tracking", flags: [String]
    ) throws -> (run: (status: Int32, output: String, errors: String), replies: String) {
        let replies = FileManager.default.temporaryDirectory.appendingPathComponent("replies-\(UUID()).wav")
        defer { try? FileManager.default.removeItem(at: replies) }
        let run = try listen(["--input", input.path, "--output", replies.path] + flags, app: app)
        return (run, run.status == 0 ? try heardReplyText(in: replies) : "")
    }

    /// What the loop prints of a ticket search whose count is asked for and confirmed.
    static let ticketsTranscript = """
        > find tickets for uluru with travel tracking
        < How many tickets?
        > three
        < Search for 3 tickets to Uluru?
        > yes
        < I found 3 tickets to Uluru for 75 dollars in total.

        """

    @Test func aMissingValueIsAskedAnsweredConfirmedAndTheResultSpoken() throws {
        let (run, replies) = try Self.converse([
            "find tickets for uluru with travel tracking", "three", "yes",
        ])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output == Self.ticketsTranscript, "\(run.output)")
        #expect(
            replies
                == Self.spoken([
                    "How many tickets?", "Search for three tickets to Uluru?",
                    "I found three tickets to Uluru for seventy five dollars in total.",
                ]))
    }

    @Test func anUnansweredConfirmationCancelsWithNoSideEffects() throws {
        let (run, replies) = try Self.converse(["find tickets for uluru with travel tracking", "three"])
        #expect(run.status == 0, "\(run.errors)")
        #expect(
            run.output.hasSuffix("< Search for 3 tickets to Uluru?\n< Okay, cancelled.\n"), "\(run.output)")
        #expect(replies.hasSuffix("okay cancelled"), "\(replies)")
    }

    /// One recording, several commands: a one-shot question; a landmark picked by a word of its
    /// name and then by its place in the list read out; a search declined; a prompt cancelled;
    /// an intent that fails, after which the loop goes on to the next command.
    @Test func oneShotDisambiguationDeclineCancelAndAFailureInOneRecording() throws {
        let (run, replies) = try Self.converse([
            "what is the closest landmark in travel tracking",
            "get the crowd status in travel tracking", "falls", "the second one",
            "find tickets for uluru with travel tracking", "two", "no",
            "find tickets with travel tracking", "never mind",
            "find tickets for uluru with travel tracking", "eleven",
            "what is the closest landmark in travel tracking",
        ])
        #expect(run.status == 0, "\(run.errors)")
        #expect(
            run.output == """
                > what is the closest landmark in travel tracking
                < The closest landmark is Golden Gate Bridge, 7 kilometers away.
                > get the crowd status in travel tracking
                < Which landmark?
                > falls
                < Which landmark? The first, Niagara Falls. The second, Victoria Falls. The third, Iguazu Falls.
                > the second one
                < Victoria Falls is quiet right now, with about 2000 visitors.
                > find tickets for uluru with travel tracking
                < How many tickets?
                > two
                < Search for 2 tickets to Uluru?
                > no
                < Okay, cancelled.
                > find tickets with travel tracking
                < Which landmark?
                > never mind
                < Okay, cancelled.
                > find tickets for uluru with travel tracking
                < How many tickets?
                > eleven
                < Sorry, I can't book 11 tickets at once. The limit is ten.
                > what is the closest landmark in travel tracking
                < The closest landmark is Golden Gate Bridge, 7 kilometers away.

                """, "\(run.output)")
        #expect(
            replies
                == Self.spoken([
                    "The closest landmark is Golden Gate Bridge, seven kilometers away.",
                    "Which landmark?",
                    "Which landmark? The first, Niagara Falls. The second, Victoria Falls. The third, Iguazu Falls.",
                    "Victoria Falls is quiet right now, with about two thousand visitors.",
                    "How many tickets?", "Search for two tickets to Uluru?", "Okay, cancelled.",
                    "Which landmark?", "Okay, cancelled.",
                    "How many tickets?", "Sorry, I can't book eleven tickets at once. The limit is ten.",
                    "The closest landmark is Golden Gate Bridge, seven kilometers away.",
                ]), "\(replies)")
    }

    /// A choice read out and answered by name or by place; "cancel" at the choice keeps the
    /// collection, as the archive that follows shows.
    @Test func aChoiceIsReadOutAndAnsweredAndACancelChangesNothing() throws {
        let (run, replies) = try Self.converse([
            "delete a collection in travel tracking", "summer trip", "cancel",
            "delete summer trip in travel tracking", "archive",
            "delete a collection in travel tracking", "waterfalls", "the second one",
        ])
        #expect(run.status == 0, "\(run.errors)")
        let choice = { (name: String) in
            "Do you want to archive or delete \(name)? The first, Cancel. The second, Archive. The third, Delete."
        }
        #expect(
            run.output == """
                > delete a collection in travel tracking
                < Which collection?
                > summer trip
                < \(choice("Summer Trip"))
                > cancel
                < Okay, cancelled.
                > delete summer trip in travel tracking
                < \(choice("Summer Trip"))
                > archive
                < Archived Summer Trip.
                > delete a collection in travel tracking
                < Which collection?
                > waterfalls
                < \(choice("Waterfalls"))
                > the second one
                < Archived Waterfalls.

                """, "\(run.output)")
        #expect(
            replies
                == Self.spoken([
                    "Which collection?", choice("Summer Trip"), "Okay, cancelled.",
                    choice("Summer Trip"), "Archived Summer Trip.",
                    "Which collection?", choice("Waterfalls"), "Archived Waterfalls.",
                ]), "\(replies)")
    }

    /// The same commands with no screen and with one: voice only says the full dialog and
    /// prints no snippet; a screen shows the snippet (and the app coming forward) and hears the
    /// supporting dialog.
    @Test func aScreenShowsTheSnippetAndHearsTheSupportingDialog() throws {
        let input = try Self.recording([
            "what is the closest landmark in travel tracking", "how busy is uluru in travel tracking",
        ])
        defer { try? FileManager.default.removeItem(at: input) }

        let (voice, voiceReplies) = try Self.converse(input, flags: ["--voice-only"])
        #expect(voice.status == 0, "\(voice.errors)")
        #expect(
            voice.output == """
                > what is the closest landmark in travel tracking
                < The closest landmark is Golden Gate Bridge, 7 kilometers away.
                > how busy is uluru in travel tracking
                < Uluru is quiet right now, with about 1200 visitors.

                """, "\(voice.output)")
        #expect(
            voiceReplies
                == Self.spoken([
                    "The closest landmark is Golden Gate Bridge, seven kilometers away.",
                    "Uluru is quiet right now, with about one thousand two hundred visitors.",
                ]), "\(voiceReplies)")

        let (screen, screenReplies) = try Self.converse(input, flags: ["--screen"])
        #expect(screen.status == 0, "\(screen.errors)")
        #expect(
            screen.output == """
                > what is the closest landmark in travel tracking
                │ Golden Gate Bridge ★
                │ United States, North America
                │ 37.8199, -122.4783
                < Golden Gate Bridge is in North America.
                > how busy is uluru in travel tracking
                ┌ Travel Tracking: Get Crowd Status
                < Uluru is quiet right now, with about 1200 visitors.

                """, "\(screen.output)")
        #expect(
            screenReplies
                == Self.spoken([
                    "Golden Gate Bridge is in North America.",
                    "Uluru is quiet right now, with about one thousand two hundred visitors.",
                ]), "\(screenReplies)")
    }

    /// A title asked for as free text (heard among the catalogue's titles that the parameter
    /// suggests: dictation does not hear "dune"), and the book opened by the intent that adding
    /// it opens.
    @Test func aFreeTextAnswerAndAnOpenedIntent() throws {
        let (run, replies) = try Self.converse(["add a book to library", "dune"], app: "library")
        #expect(run.status == 0, "\(run.errors)")
        #expect(
            run.output == """
                > add a book to library
                < What's the title of the book?
                > dune
                < Added Dune by Frank Herbert to your library.
                < Opening Dune by Frank Herbert.

                """, "\(run.output)")
        #expect(
            replies
                == Self.spoken([
                    "What's the title of the book?", "Added Dune by Frank Herbert to your library.",
                    "Opening Dune by Frank Herbert.",
                ]), "\(replies)")
    }

    @Test func anUnreadableInputSaysWhy() throws {
        let run = try Self.listen(["--input", "/no/such/file.wav"])
        #expect(run.status != 0)
        #expect(run.errors.contains("/no/such/file.wav"), "\(run.errors)")
    }
}
