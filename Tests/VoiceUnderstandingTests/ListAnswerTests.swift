import Foundation
import PhraseMatching
import Synchronization
import Testing
import VoiceIntents
import VoiceLoop
import VoiceTestSupport

@testable import VoiceAudio
@testable import VoiceRecognition
@testable import VoiceUnderstanding

/// Asked for a list ("Which landmarks?"), the answer grammar hears several names with "and"
/// between them; a grammar of single names cannot.
@Suite("List answers")
struct ListAnswerTests {
    static let landmarks: [[String]] = [
        ["louvre"], ["colosseum"], ["uluru"], ["kyoto"], ["machu", "picchu"],
    ]

    static func heard(_ sentence: String, under answer: SpeechGrammar.Answer) throws -> String {
        let recording = try SpokenConversation.recording([sentence])
        defer { try? FileManager.default.removeItem(at: recording) }
        let recognizer = try SpeechRecognizer(try TestModels.grammarConfiguration())
        try recognizer.useGrammar(SpeechGrammar(answers: [answer], name: "landmarks"))
        return try recognizer.recognize(WAVFile.read(from: recording).int16Samples).text
    }

    @Test func severalNamesAreHeardWithAndBetweenThem() throws {
        let list = SpeechGrammar.Answer.list(.names(Self.landmarks))
        let two = try Self.heard("the louvre and the colosseum", under: list)
        #expect(two.hasSuffix("louvre and the colosseum"), "\(two)")
        let three = try Self.heard("uluru kyoto and machu picchu", under: list)
        #expect(three.hasSuffix("kyoto and machu picchu"), "\(three)")
        let one = try Self.heard("kyoto", under: list)
        #expect(one == "kyoto", "\(one)")
        let single = try Self.heard("the louvre and the colosseum", under: .values(.names(Self.landmarks)))
        #expect(!single.contains(" and "), "a grammar of one name has no \"and\": \(single)")
    }

    enum Shade: String, AppEnum {
        case red, blue
        static let typeDisplayRepresentation: TypeDisplayRepresentation = "Shade"
        static let caseDisplayRepresentations: [Shade: DisplayRepresentation] = [.red: "Red", .blue: "Blue"]
    }

    struct MixIntent: AppIntent {
        static let title: LocalizedStringResource = "Mix"
        @Parameter(title: "Shades") var shades: [Shade]
        func perform() async throws -> some IntentResult { .result() }
    }

    struct PaintIntent: AppIntent {
        static let title: LocalizedStringResource = "Paint"
        @Parameter(title: "Shade") var shade: Shade
        func perform() async throws -> some IntentResult { .result() }
    }

    /// Keeps the first question it is asked, and cancels.
    final class FirstQuestion: Conversation {
        let asked = Mutex<ConversationQuestion?>(nil)
        func ask(_ question: ConversationQuestion) async throws -> ConversationReply {
            asked.withLock { $0 = $0 ?? question }
            return .cancel
        }
    }

    /// The voice loop listens for a list where the parameter holds one, and for one name where
    /// it holds one.
    @Test func theLoopListensForAListWhereTheParameterHoldsOne() async throws {
        let list = FirstQuestion()
        _ = await IntentRunner(conversation: list).run(MixIntent.self)
        let one = FirstQuestion()
        _ = await IntentRunner(conversation: one).run(PaintIntent.self)
        let listQuestion = try #require(list.asked.withLock { $0 })
        let oneQuestion = try #require(one.asked.withLock { $0 })
        let listGrammar = try #require(VoiceConversation.grammar(for: listQuestion))
        let oneGrammar = try #require(VoiceConversation.grammar(for: oneQuestion))
        #expect(listGrammar.canSay("red and blue") && listGrammar.canSay("blue"))
        #expect(!oneGrammar.canSay("red and blue") && oneGrammar.canSay("blue"))
    }
}
