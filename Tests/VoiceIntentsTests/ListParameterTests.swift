import Testing
import VoiceIntents
import VoiceIntentsTesting

/// Parameters that hold several values, `[SomeEnum]` and `[SomeEntity]`, as on Apple platforms:
/// asked for once and answered with a list ("red and blue").
@Suite("List parameters")
struct ListParameterTests {
    @Test func aListIsReadFromItsParts() async throws {
        #expect(try await [Color]._values(matching: "red and blue") == [[.red, .blue]])
        #expect(try await [Color]._values(matching: "crimson, green and navy") == [[.red, .green, .blue]])
        #expect(try await [Color]._values(matching: "the green one") == [[.green]])
        #expect(try await [Color]._values(matching: "red and purple").isEmpty, "every part must name a value")
        #expect([Color]._valueType.isList && [Color]._valueType.typeName == "[Color]")
        #expect([Color.red, .green, .blue]._spokenText == "Red, Green and Blue")
    }

    @Test func aListParameterIsAskedForOnceAndAnsweredWithSeveral() async {
        let conversation = ScriptedConversation([.text("red and navy")])
        let outcome = await IntentRunner(conversation: conversation).run(MixIntent.self)
        #expect(conversation.prompts == ["Which colors?"])
        #expect(conversation.questions.first?.parameter?.valueType.isList == true)
        #expect(outcome.dialog?.full.defaultValue == "Mixed red and blue.", "\(outcome)")
    }

    /// An entity list: each part is looked up through the entity's query.
    @Test func anEntityListResolvesEachPart() async {
        let conversation = ScriptedConversation([.text("kyoto and lima")])
        let outcome = await IntentRunner(conversation: conversation).run(TourIntent.self)
        #expect(outcome.dialog?.full.defaultValue == "Touring Kyoto, Lima.", "\(outcome)")
    }

    /// One value, as a phrase's placeholder fills it ("mix red"), fills a list of one.
    @Test func oneValueFillsAListOfOne() async {
        let outcome = await IntentRunner(conversation: ScriptedConversation())
            .run(MixIntent.self, parameters: ["colors": Color.green])
        #expect(outcome.dialog?.full.defaultValue == "Mixed green.", "\(outcome)")
        let words = await IntentRunner(conversation: ScriptedConversation())
            .run(MixIntent.self, parameters: ["colors": "blue and red"])
        #expect(words.dialog?.full.defaultValue == "Mixed blue and red.", "\(words)")
    }
}
