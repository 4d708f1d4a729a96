import Foundation
import Testing
import VoiceTestSupport

/// The voice loop with a wake phrase, over a recording: what is not addressed to the app is
/// ignored, the wake phrase alone is answered and the next utterance taken as the command.
@Suite("Voice loop with a wake phrase")
struct WakePhraseLoopTests {
    @Test func onlyCommandsAfterTheWakePhraseAreRun() throws {
        let input = try SpokenConversation.recording([
            "how busy is uluru in travel tracking",
            "hey travel tracking",
            "how busy is petra in travel tracking",
            "hey travel tracking buy tickets for uluru in travel tracking",
            "never mind",
        ])
        defer { try? FileManager.default.removeItem(at: input) }
        let run = try Executables.run(
            "travel-tracking",
            [
                "listen", "--input", input.path, "--mute", "--voice-only", "--wake-phrase",
                "hey travel tracking",
            ])
        #expect(run.status == 0, "\(run.errors)")
        #expect(
            run.output == """
                > hey travel tracking
                < Yes?
                > how busy is petra in travel tracking
                < Petra is quiet right now, with about 3000 visitors.
                > buy tickets for uluru in travel tracking
                < How many tickets?
                > never mind
                < Okay, cancelled.

                """, "\(run.output)")
    }
}

/// `listen --text`: typed commands and answers, the replies printed and spoken.
@Suite("Typed voice loop")
struct TypedListenTests {
    @Test func typedCommandsAreAnsweredOutLoud() throws {
        let replies = FileManager.default.temporaryDirectory.appendingPathComponent("typed-\(UUID()).wav")
        defer { try? FileManager.default.removeItem(at: replies) }
        let run = try Executables.run(
            "travel-tracking", ["listen", "--text", "--voice-only", "--output", replies.path],
            input: "find tickets for uluru with travel tracking\n2\nno\n")
        #expect(run.status == 0, "\(run.errors)")
        #expect(
            run.output.contains(
                "How many tickets?\n? Search for 2 tickets to Uluru? (yes/no)\n? Okay, cancelled.\n"),
            "\(run.output)")
        #expect(
            try SpokenConversation.heardReplies(in: replies) == [
                "how many tickets", "search for two tickets to uluru", "okay cancelled",
            ])
    }

    /// Typed commands need no loudspeaker: with no sound server the replies are printed, with a
    /// warning, instead of the loop refusing to start.
    @Test func withNoSpeakerTheRepliesArePrintedOnly() throws {
        var environment = ProcessInfo.processInfo.environment
        environment["PULSE_SERVER"] = "unix:/nonexistent/pulse/native"
        let run = try Executables.run(
            "travel-tracking", ["listen", "--text", "--voice-only"], environment: environment,
            input: "navigate to map in travel tracking\n")
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("Opening Map.\n"), "\(run.output)")
        if run.errors.contains("cannot play") {
            #expect(run.errors.contains("Replies are printed only"), "\(run.errors)")
        }
    }
}
