import Foundation
import Testing
import VoiceEvaluation
import VoiceTestSupport

@testable import VoiceAudio
@testable import VoiceRecognition
@testable import VoiceSynthesis
@testable import VoiceUnderstanding

/// The voice loop end to end, with real speech in and out: eSpeak NG speaks commands and the
/// answers to the app's questions into one WAV, `travel-tracking listen --input` (or `library
/// listen`) hears them and runs the intents, and the replies it writes with `--output` are
/// recognised back.
@Suite("Voice loop")
struct VoiceLoopConversationTests {
    /// Raw 16 kHz PCM on standard input (`arecord … | travel-tracking listen --input -`) is heard
    /// as the same recording in a WAV file is.
    @Test func rawPCMOnStandardInputIsHeardAsARecordingIs() throws {
        let input = try SpokenConversation.recording(SpokenConversation.tickets)
        defer { try? FileManager.default.removeItem(at: input) }
        let samples = try WAVFile.read(from: input).int16Samples
        let run = try Executables.run(
            "travel-tracking", ["listen", "--input", "-", "--voice-only", "--mute"],
            standardInput: Data(WAVFile.pcm16(samples[...])))
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output == SpokenConversation.ticketsTranscript, "\(run.output)")
    }

    @Test func aMissingValueIsAskedAnsweredConfirmedAndTheResultSpoken() throws {
        let (run, replies) = try SpokenConversation.converse([
            "find tickets for uluru with travel tracking", "three", "yes",
        ])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output == SpokenConversation.ticketsTranscript, "\(run.output)")
        #expect(
            replies
                == SpokenConversation.spoken([
                    "How many tickets?", "Search for three tickets to Uluru?",
                    "I found three tickets to Uluru for seventy five dollars in total.",
                ]))
    }

    @Test func anUnansweredConfirmationCancelsWithNoSideEffects() throws {
        let (run, replies) = try SpokenConversation.converse([
            "find tickets for uluru with travel tracking", "three",
        ])
        #expect(run.status == 0, "\(run.errors)")
        #expect(
            run.output.hasSuffix("< Search for 3 tickets to Uluru?\n< Okay, cancelled.\n"), "\(run.output)")
        #expect(replies.hasSuffix("okay cancelled"), "\(replies)")
    }

    /// One recording, several commands: a one-shot question; a landmark picked by a word of its
    /// name and then by its place in the list read out; a search declined; a prompt cancelled;
    /// an intent that fails, after which the loop goes on to the next command.
    @Test func oneShotDisambiguationDeclineCancelAndAFailureInOneRecording() throws {
        let (run, replies) = try SpokenConversation.converse([
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
                == SpokenConversation.spoken([
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
        let (run, replies) = try SpokenConversation.converse([
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
                == SpokenConversation.spoken([
                    "Which collection?", choice("Summer Trip"), "Okay, cancelled.",
                    choice("Summer Trip"), "Archived Summer Trip.",
                    "Which collection?", choice("Waterfalls"), "Archived Waterfalls.",
                ]), "\(replies)")
    }

    /// The same commands with no screen and with one: voice only says the full dialog and
    /// prints no snippet; a screen shows the snippet (and the app coming forward) and hears the
    /// supporting dialog.
    @Test func aScreenShowsTheSnippetAndHearsTheSupportingDialog() throws {
        let input = try SpokenConversation.recording([
            "what is the closest landmark in travel tracking", "how busy is uluru in travel tracking",
        ])
        defer { try? FileManager.default.removeItem(at: input) }

        let (voice, voiceReplies) = try SpokenConversation.converse(input, flags: ["--voice-only"])
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
                == SpokenConversation.spoken([
                    "The closest landmark is Golden Gate Bridge, seven kilometers away.",
                    "Uluru is quiet right now, with about one thousand two hundred visitors.",
                ]), "\(voiceReplies)")

        let (screen, screenReplies) = try SpokenConversation.converse(input, flags: ["--screen"])
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
                == SpokenConversation.spoken([
                    "Golden Gate Bridge is in North America.",
                    "Uluru is quiet right now, with about one thousand two hundred visitors.",
                ]), "\(screenReplies)")
    }

    /// A title asked for as free text (heard among the catalogue's titles that the parameter
    /// suggests: dictation does not hear "dune"), and the book opened by the intent that adding
    /// it opens.
    @Test func aFreeTextAnswerAndAnOpenedIntent() throws {
        let (run, replies) = try SpokenConversation.converse(
            ["add a book to library", "dune"], app: "library")
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
                == SpokenConversation.spoken([
                    "What's the title of the book?", "Added Dune by Frank Herbert to your library.",
                    "Opening Dune by Frank Herbert.",
                ]), "\(replies)")
    }

    @Test func anUnreadableInputSaysWhy() throws {
        let run = try SpokenConversation.listen(["--input", "/no/such/file.wav"])
        #expect(run.status != 0)
        #expect(run.errors.contains("/no/such/file.wav"), "\(run.errors)")
    }
}
