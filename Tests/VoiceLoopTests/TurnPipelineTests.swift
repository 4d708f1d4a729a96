import Logging
import PhraseMatching
import SmartHome
import Testing
import TravelTracking
import VoiceIntents
import VoiceIntentsTesting
import VoiceLoop
import VoiceRecognition
import VoiceTestSupport
import VoiceUnderstanding

/// One turn for every front end: what a command comes to, and the one set of sentences said when
/// it comes to nothing.
@Suite("Turn pipeline")
struct TurnPipelineTests {
    static func travelTracking(policy: ConfidencePolicy = .off) async throws -> TurnPipeline {
        TurnPipeline(
            description: AppDescription(TravelTrackingApp.self),
            matcher: try await TestModels.travelTrackingMatcher(), policy: policy)
    }

    @Test func aTypedCommandRunsTheShortcutItReaches() async throws {
        let pipeline = try await Self.travelTracking()
        guard case .run(let match) = await pipeline.plan(typed: "navigate to the map in travel tracking").0
        else {
            Issue.record("no run")
            return
        }
        #expect(match.intent == "NavigateIntent")
    }

    @Test(arguments: [
        ("fly me to the moon", TurnReply.notUnderstood),
        ("don't track my location", TurnReply.negativePhrase),
    ])
    func aTypedCommandThatRunsNothingIsAnswered(_ text: String, _ reply: String) async throws {
        let pipeline = try await Self.travelTracking()
        guard case .answer(let said, let rejection) = await pipeline.plan(typed: text).0 else {
            Issue.record("\"\(text)\" was not answered")
            return
        }
        #expect(said == reply)
        #expect(rejection.meansNotForTheApp == (reply == TurnReply.negativePhrase))
    }

    @Test func aCommandThatFitsTwoShortcutsNamesBoth() async throws {
        let description = AppDescription(TwinsApp.self)
        let pipeline = TurnPipeline(
            description: description, matcher: try await PhraseMatcher(app: description))
        guard case .answer(let said, .noMatch) = await pipeline.plan(typed: "show everything in twins").0
        else {
            Issue.record("not answered as no match")
            return
        }
        #expect(said.hasPrefix("Sorry, did you mean "), "\(said)")
    }

    /// Heard too unsurely: ignored when nobody addressed the app, answered when someone did.
    @Test func aHeardCommandBelowTheBarIsIgnoredUnlessAddressed() async throws {
        let pipeline = try await Self.travelTracking(
            policy: ConfidencePolicy(minimumConfidence: 0.99, confirmation: 0.99))
        let heard = TestSpeech.heard(
            "navigate to the map in travel tracking", confidence: RecognitionConfidence.midpoint)
        guard case .ignore(.lowConfidence) = await pipeline.plan(heard: heard, addressed: false).0 else {
            Issue.record("not ignored")
            return
        }
        guard case .answer(let said, .lowConfidence) = await pipeline.plan(heard: heard, addressed: true).0
        else {
            Issue.record("not answered")
            return
        }
        #expect(said == TurnReply.notUnderstood)
        let sure = TestSpeech.heard("navigate to the map in travel tracking")
        guard case .run(let match) = await pipeline.plan(heard: sure, addressed: false).0 else {
            Issue.record("a command heard without a confidence to bar it did not run")
            return
        }
        #expect(match.intent == "NavigateIntent")
    }

    static func smartHome() async throws -> TurnPipeline {
        TurnPipeline(
            description: AppDescription(SmartHomeApp.self),
            matcher: try await TestModels.matcher(SmartHomeApp.self, "smart-home"))
    }

    /// Two commands in one sentence run in the order said, and their replies are said together.
    @Test func commandsSaidTogetherRunInOrder() async throws {
        let pipeline = try await Self.smartHome()
        let runner = IntentRunner(conversation: ScriptedConversation())
        let (turn, _) = await pipeline.turn(
            typed: "lock the front door and turn off the bed light", runner: runner)
        #expect(turn.plan.matches.map(\.intent) == ["LockIntent", "TurnOffLightIntent"])
        #expect(turn.outcomes.map(\.status) == [.completed, .completed])
        #expect(turn.replies(voiceOnly: true) == ["Locked the Front Door.", "Turned off the Bed Light."])
        #expect(turn.metadata["intent"] == "LockIntent, TurnOffLightIntent")
    }

    /// A sensitive command among them is still confirmed; declined, the rest are not run, and
    /// the reply says so.
    @Test func aDeclinedCommandLeavesTheRestUndone() async throws {
        let pipeline = try await Self.smartHome()
        let conversation = ScriptedConversation([.no])
        let runner = IntentRunner(conversation: conversation, isAuthenticated: false)
        let (turn, _) = await pipeline.turn(
            typed: "unlock the front door and turn off the bed light", runner: runner)
        #expect(conversation.questions.map(\.kind) == [.confirmation])
        #expect(turn.outcomes.count == 1)
        #expect(turn.outcome?.status == .cancelled)
        #expect(turn.leftTheRest)
        #expect(turn.replies(voiceOnly: true).last == TurnReply.leftTheRest)

        let yes = ScriptedConversation([.yes])
        let (both, _) = await pipeline.turn(
            typed: "unlock the front door and turn off the bed light",
            runner: IntentRunner(conversation: yes, isAuthenticated: false))
        #expect(both.outcomes.map(\.status) == [.completed, .completed])
    }
}
