import Testing
import VoiceIntents
import VoiceIntentsTesting

@Suite("Authentication policy")
struct AuthenticationTests {
    private func runner(
        _ replies: [ConversationReply], journal: Journal, authenticated: Bool,
        confirmed: Set<String> = []
    ) -> (IntentRunner, ScriptedConversation) {
        let manager = AppDependencyManager()
        manager.add { journal }
        let conversation = ScriptedConversation(replies)
        return (
            IntentRunner(
                conversation: conversation, dependencies: manager, isAuthenticated: authenticated,
                confirmedIntents: confirmed),
            conversation
        )
    }

    @Test func aSensitiveIntentIsReadBackAndRunsOnYes() async {
        let journal = Journal()
        let (runner, conversation) = runner([.yes], journal: journal, authenticated: false)
        let outcome = await runner.run(UnlockIntent.self, parameters: ["door": "front door"])
        #expect(conversation.prompts == ["Unlock the Front Door?"])
        #expect(conversation.questions.first?.kind == .confirmation)
        #expect(conversation.questions.first?.isDestructive == true)
        #expect(outcome.status == .completed)
        #expect(journal.all == ["unlocked front"])
    }

    @Test func aSensitiveIntentDoesNothingOnNo() async {
        let journal = Journal()
        let (runner, _) = runner([.no], journal: journal, authenticated: false)
        let outcome = await runner.run(UnlockIntent.self, parameters: ["door": "front door"])
        #expect(outcome.status == .cancelled)
        #expect(journal.all.isEmpty)
    }

    /// The read-back comes after the missing value is asked for, so it says the whole command.
    @Test func theReadBackFollowsTheMissingValue() async {
        let journal = Journal()
        let (runner, conversation) = runner([.text("garage"), .yes], journal: journal, authenticated: false)
        _ = await runner.run(UnlockIntent.self)
        #expect(conversation.prompts == ["Which door?", "Unlock the Garage Door?"])
        #expect(journal.all == ["unlocked garage"])
    }

    @Test func typedCommandsRunWithoutAsking() async {
        let journal = Journal()
        let (runner, conversation) = runner([], journal: journal, authenticated: true)
        let outcome = await runner.run(UnlockIntent.self, parameters: ["door": "front door"])
        #expect(conversation.questions.isEmpty)
        #expect(outcome.status == .completed)
        #expect(journal.all == ["unlocked front"])
    }

    @Test func localDeviceAuthenticationRefusesVoice() async {
        let journal = Journal()
        let (runner, conversation) = runner([.yes], journal: journal, authenticated: false)
        let outcome = await runner.run(OpenSafeIntent.self)
        #expect(conversation.questions.isEmpty)
        #expect(outcome.status == .failed)
        #expect(outcome.errorMessage == "Sorry, that can only be done on the device itself, not by voice.")
        #expect(journal.all.isEmpty)

        let (typed, _) = self.runner([], journal: journal, authenticated: true)
        #expect(await typed.run(OpenSafeIntent.self).status == .completed)
        #expect(journal.all == ["opened the safe"])
    }

    /// An intent that sounds like a sensitive one is confirmed too, with its title and values
    /// when it has no summary.
    @Test func aSoundAlikeOfASensitiveIntentIsConfirmed() async {
        let journal = Journal()
        let (plain, quiet) = runner([], journal: journal, authenticated: false)
        _ = await plain.run(LockIntent.self, parameters: ["door": "front door"])
        #expect(quiet.questions.isEmpty)

        let (runner, conversation) = runner(
            [.no], journal: journal, authenticated: false, confirmed: ["LockIntent"])
        let outcome = await runner.run(LockIntent.self, parameters: ["door": "front door"])
        #expect(conversation.prompts == ["Lock: Front Door?"])
        #expect(outcome.status == .cancelled)
        #expect(journal.all == ["locked front"])
    }
}
