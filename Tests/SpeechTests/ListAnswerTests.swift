import Foundation
import PhraseMatching
import Testing

@testable import Speech

/// Asked for a list ("Which landmarks?"), the answer grammar hears several names with "and"
/// between them; a grammar of single names cannot.
@Suite("List answers")
struct ListAnswerTests {
    static let landmarks: [[String]] = [
        ["louvre"], ["colosseum"], ["uluru"], ["kyoto"], ["machu", "picchu"],
    ]

    static func heard(_ sentence: String, under answer: SpeechGrammar.Answer) throws -> String {
        let recording = try VoiceLoopTests.recording([sentence])
        defer { try? FileManager.default.removeItem(at: recording) }
        let recognizer = try SpeechRecognizer(try ModelFilesTests.grammarConfiguration())
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
}
