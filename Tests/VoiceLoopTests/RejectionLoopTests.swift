import Foundation
import Testing
import VoiceTestSupport

/// How the voice loop uses the recognizer's confidence, over real speech: eSpeak NG says the
/// commands and answers into a recording, `travel-tracking listen --input` hears them, and its
/// transcript shows what it acted on. The bars here sit far above or below any confidence the recordings get, so each test
/// shows the loop's behaviour on either side of a bar, whatever the measure's exact value.
@Suite("Voice loop rejection")
struct RejectionLoopTests {
    static func listen(_ sentences: [String], _ flags: [String]) throws -> (
        status: Int32, output: String, errors: String
    ) {
        let input = try SpokenConversation.recording(sentences)
        defer { try? FileManager.default.removeItem(at: input) }
        return try Executables.run(
            "travel-tracking", ["listen", "--input", input.path, "--mute", "--voice-only"] + flags)
    }

    /// The sample app ships no calibration (none was chosen on people saying its commands), so it
    /// listens with the models' default bar and garbage path, chosen on people: out of the box,
    /// always listening, talk in the room is not taken for a command. With no bar and no garbage
    /// path it acts on anything the grammar fits, and the talk becomes a command (which one
    /// depends on how the grammar forces it: a question or a reply is spoken).
    @Test func talkInTheRoomIsIgnoredByDefault() throws {
        let talk = ["could you pass me the salt please", "did you remember to feed the cat"]
        let shipped = try Self.listen(talk, [])
        #expect(shipped.status == 0, "\(shipped.errors)")
        #expect(
            shipped.errors.contains("the models' default for an app with no calibration"), "\(shipped.errors)"
        )
        #expect(!shipped.output.contains("\n<") && !shipped.output.hasPrefix("<"), "\(shipped.output)")
        let anything = try Self.listen(talk, ["--min-confidence", "0", "--garbage", "off"])
        #expect(!anything.output.contains("(ignored: "), "\(anything.output)")
        #expect(anything.output.contains("\n< "), "\(anything.output)")
    }

    /// Asked "How many tickets?", "um three" is three: the answer grammar may hear the hesitation
    /// as a word, and the conversation reads the rest. (`answer-benchmark --question number
    /// --hesitate um` measures what the hesitations in the grammar are worth: 111 of 150 clean
    /// clips heard right without them, 124 with them.)
    @Test func anAnswerMayBeginWithAHesitation() throws {
        let run = try Self.listen(["buy tickets for uluru in travel tracking", "um three", "yes"], [])
        #expect(run.status == 0, "\(run.errors)")
        #expect(
            run.output.contains("< How many tickets?\n> um three\n< Search for 3 tickets to Uluru?\n")
                || run.output.contains("< How many tickets?\n> three\n< Search for 3 tickets to Uluru?\n"),
            "\(run.output)")
        #expect(run.output.contains("< I found 3 tickets to Uluru"), "\(run.output)")
    }

    /// Always listening, a command heard less surely than the bar is ignored without a word; the
    /// same command is run when it clears the bar.
    @Test func alwaysListeningACommandBelowTheBarIsIgnoredQuietly() throws {
        let sentence = "navigate to the map in travel tracking"
        let ignored = try Self.listen([sentence], ["--min-confidence", "0.9999"])
        #expect(ignored.status == 0, "\(ignored.errors)")
        #expect(ignored.output.hasPrefix("> \(sentence) (ignored: confidence "), "\(ignored.output)")
        #expect(!ignored.output.contains("\n<"), "\(ignored.output)")
        let run = try Self.listen([sentence], ["--min-confidence", "0.05"])
        #expect(run.output == "> \(sentence)\n< Opening Map.\n", "\(run.output)")
    }

    /// After the wake phrase the person spoke to the app, so a command below the bar is answered:
    /// the loop says it did not understand it.
    @Test func afterTheWakePhraseACommandBelowTheBarIsAnsweredSorry() throws {
        let run = try Self.listen(
            ["hey travel tracking navigate to the map in travel tracking"],
            ["--wake-phrase", "hey travel tracking", "--min-confidence", "0.9999"])
        #expect(run.status == 0, "\(run.errors)")
        #expect(
            run.output == "> navigate to the map in travel tracking\n< Sorry, I didn't understand that.\n",
            "\(run.output)")
    }

    /// A confirmation has a bar of its own: an answer that clears the bar for commands but not
    /// that one is asked for again, then taken as no answer; "cancel" is always taken.
    @Test func aConfirmationDemandsItsOwnBarAndCancelIsAlwaysTaken() throws {
        let command = "find two tickets for uluru in travel tracking"
        let strict = try Self.listen(
            [command, "yes", "yes"], ["--min-confidence", "0.05", "--confirmation-confidence", "0.9999"])
        #expect(strict.status == 0, "\(strict.errors)")
        let lines = strict.output.split(separator: "\n").map(String.init)
        #expect(
            lines.filter { $0.hasPrefix("> yes (not taken: confidence ") }.count == 2, "\(strict.output)")
        #expect(
            strict.output.contains("< Sorry, was that a yes or a no? Search for 2 tickets to Uluru?\n"),
            "\(strict.output)")
        #expect(!strict.output.contains("I found"), "\(strict.output)")

        let usual = try Self.listen(
            [command, "yes"], ["--min-confidence", "0.05", "--confirmation-confidence", "0.1"])
        #expect(usual.output.contains("> yes\n< I found 2 tickets to Uluru"), "\(usual.output)")

        let cancelled = try Self.listen(
            [command, "cancel"], ["--min-confidence", "0.05", "--confirmation-confidence", "0.9999"])
        #expect(cancelled.output.hasSuffix("> cancel\n< Okay, cancelled.\n"), "\(cancelled.output)")
    }

    /// A confirmation is answered with a word or two: a news sentence heard in its place is
    /// forced onto an answer with seconds of it heard as silence, and is not taken, with no
    /// confidence bar at all; a plain "yes" still is.
    @Test func aLongSentenceHeardAsAnAnswerDoesNotConfirm() throws {
        let command = "find two tickets for uluru in travel tracking"
        let news = try Self.listen([command, "good evening and welcome to the six o'clock news", "yes"], [])
        #expect(news.status == 0, "\(news.errors)")
        #expect(
            news.output.contains(" (not taken: ")
                && news.output.contains(" s of sound around the words, over 1.2)\n"),
            "\(news.output)")
        #expect(news.output.contains("> yes\n< I found 2 tickets to Uluru"), "\(news.output)")

        // Someone who pauses inside their answers can turn it off.
        let unlimited = try Self.listen(
            [command, "good evening and welcome to the six o'clock news"], ["--answer-slack", "off"])
        #expect(!unlimited.output.contains("(not taken: "), "\(unlimited.output)")
        #expect(unlimited.output.contains("< I found 2 tickets to Uluru"), "\(unlimited.output)")
    }

    /// A name is answered in a few words too: the news heard in place of a landmark is asked
    /// about again, and the landmark said after it is taken. With no limit, the news is taken
    /// for whatever landmark it fits best.
    @Test func aLongSentenceHeardAsAValueIsAskedAgain() throws {
        let sentences = [
            "get the crowd status in travel tracking", "good evening and welcome to the six o'clock news",
            "uluru",
        ]
        // No confidence bar (the app's calibration would have one): only the limit on sound
        // around the answer turns the news away.
        let asked = try Self.listen(sentences, ["--min-confidence", "0"])
        #expect(asked.status == 0, "\(asked.errors)")
        #expect(asked.output.contains("< Which landmark?\n"), "\(asked.output)")
        #expect(
            asked.output.contains(" (not taken: ")
                && asked.output.contains(" s of sound around the words, over 1.5)\n"),
            "\(asked.output)")
        #expect(
            asked.output.hasSuffix("> uluru\n< Uluru is quiet right now, with about 1200 visitors.\n"),
            "\(asked.output)")

        let unlimited = try Self.listen(
            Array(sentences.prefix(2)), ["--min-confidence", "0", "--answer-slack", "off"])
        #expect(!unlimited.output.contains("(not taken: "), "\(unlimited.output)")
        #expect(
            unlimited.output.contains(" is quiet right now") || unlimited.output.contains(" is busy"),
            "\(unlimited.output)")
    }

    /// One of the app's negative phrases is not for the app: always listening, it is ignored
    /// quietly; after the wake phrase, it is acknowledged and nothing runs.
    @Test func aNegativePhraseIsIgnoredOrAcknowledged() throws {
        let ignored = try Self.listen(
            ["stop tracking my travel", "navigate to the map in travel tracking"], [])
        #expect(
            ignored.output.hasPrefix("> stop tracking my travel (ignored: negative phrase "),
            "\(ignored.output)")
        #expect(ignored.output.hasSuffix("\n> navigate to the map in travel tracking\n< Opening Map.\n"))
        let acknowledged = try Self.listen(
            ["hey travel tracking stop tracking my travel"], ["--wake-phrase", "hey travel tracking"])
        #expect(acknowledged.output == "> stop tracking my travel\n< Okay.\n", "\(acknowledged.output)")
    }

    /// A near miss becomes a question: with value loops in the grammar, a landmark the app does
    /// not know is heard as garbage in the command's slot ("how busy is the … "), or, heard as a
    /// name it knows, fits the sound too poorly to keep (`--value-margin`), and the runner asks for
    /// the landmark instead of picking the nearest-sounding one it knows. Without both, the
    /// grammar forces the Alhambra onto a landmark it has. (Measured on eSpeak NG: the loops catch
    /// some unknown names, far from all; "the louvre" is heard as "uluru" even with them. Through
    /// the standard front end the loop catches this one; through RNNoise the value check does.)
    @Test func anUnknownLandmarkIsAskedForNotGuessed() throws {
        let sentences = ["how busy is the alhambra in travel tracking", "uluru"]
        let asked = try Self.listen(sentences, ["--garbage", "values"])
        #expect(asked.status == 0, "\(asked.errors)")
        #expect(asked.output.hasPrefix("> how busy is the "), "\(asked.output)")
        #expect(
            asked.output.hasSuffix(
                """
                 in travel tracking
                < Which landmark?
                > uluru
                < Uluru is quiet right now, with about 1200 visitors.

                """), "\(asked.output)")
        let forced = try Self.listen(Array(sentences.prefix(1)), ["--value-margin", "off"])
        #expect(forced.output.hasPrefix("> how busy is "), "\(forced.output)")
        #expect(!forced.output.contains("Which landmark?"), "\(forced.output)")
    }

    /// With the decoy check, a command's shape with a verb the app has no phrase for is ignored,
    /// and a landmark it does not know is asked for; without it (and without the value check,
    /// which asks for that landmark too), neither is: the grammar forces them onto its nearest
    /// sentences.
    @Test func withDecoysAWrongVerbIsIgnoredAndAnUnknownLandmarkAskedFor() throws {
        let sentences = [
            "cancel my tickets for machu picchu in travel tracking", "navigate to the map in travel tracking",
            "book two tickets to big ben with travel tracking", "uluru",
        ]
        let checked = try Self.listen(sentences, ["--decoys"])
        #expect(checked.status == 0, "\(checked.errors)")
        let lines = checked.output.split(separator: "\n").map(String.init)
        #expect(
            lines.first?.hasSuffix("(ignored: not a command (garbage path or decoy))") == true,
            "\(checked.output)")
        #expect(
            checked.output.contains("> navigate to the map in travel tracking\n< Opening Map.\n"),
            "\(checked.output)")
        #expect(checked.output.contains("< Which landmark?\n> uluru\n"), "\(checked.output)")
        let plain = try Self.listen(sentences, ["--value-margin", "off"])
        #expect(!plain.output.contains("(ignored: not a command (garbage path or decoy))"), "\(plain.output)")
        #expect(!plain.output.contains("Which landmark?"), "\(plain.output)")
    }

    @Test func confidenceBarsAreChecked() throws {
        let outOfRange = try Executables.run(
            "travel-tracking", ["listen", "--text", "--min-confidence", "1.5"])
        #expect(outOfRange.status != 0)
        #expect(outOfRange.errors.contains("--min-confidence takes 0 to 1"), "\(outOfRange.errors)")
        let inverted = try Executables.run(
            "travel-tracking",
            ["listen", "--input", "x.wav", "--min-confidence", "0.6", "--confirmation-confidence", "0.4"])
        #expect(inverted.errors.contains("--confirmation-confidence must be at least"), "\(inverted.errors)")
        let slack = try Executables.run(
            "travel-tracking", ["listen", "--input", "x.wav", "--answer-slack", "soon"])
        #expect(
            slack.errors.contains("--answer-slack takes 0 to 10 seconds, or off; not soon"), "\(slack.errors)"
        )
        let typed = try Executables.run("travel-tracking", ["listen", "--text", "--answer-slack", "2"])
        #expect(typed.errors.contains("leave out --answer-slack with --text"), "\(typed.errors)")
    }
}
