import Logging
import PhraseMatching
import Testing
import VoiceIntents
import VoiceLoop
import VoiceTestSupport

@testable import VoiceIntentsCLI

/// The typed session (`listen --text`, `run`): its terminal, in the command line.
@Suite("Typed session")
struct TypedSessionTests {
    /// A command that fits two shortcuts equally names both, as the voice loop does, and what is
    /// printed is what is said.
    @Test func aCommandThatFitsTwoShortcutsNamesBothAndSaysWhatItPrints() async throws {
        let description = AppDescription(TwinsApp.self)
        let matcher = try await PhraseMatcher(app: description)
        let typed = Transcript()
        let spoken = Transcript()
        let session = TextSession(
            description: description, matcher: matcher,
            runner: IntentRunner(conversation: TerminalConversation(output: .discard, readLine: { nil })),
            output: typed.sink, readLine: { nil }, voiceOnly: true, logger: Logger(label: "twins"),
            speak: { spoken.sink.write($0 + "\n") })
        #expect(await session.handle("show everything in twins") == false)
        #expect(typed.written.hasPrefix("Sorry, did you mean "), "\(typed.written)")
        #expect(spoken.written == typed.written)
    }
}
