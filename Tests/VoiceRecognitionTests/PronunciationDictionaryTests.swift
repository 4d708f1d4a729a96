import Foundation
import Testing
import VoiceRecognition

/// Reading the words wanted out of a CMU-style dictionary.
@Suite("Pronunciation dictionary")
struct PronunciationDictionaryTests {
    private func dictionary(_ text: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("dictionary-\(UUID().uuidString).dict")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    @Test func theWantedWordsAndTheirAlternativesAreRead() throws {
        let url = try dictionary(
            """
            ;;; a comment
            read R IY D
            read(2) R EH D
            reader R IY D ER
            red\tR EH D
            rea R IY

            lamp L AE M P
            """)
        defer { try? FileManager.default.removeItem(at: url) }
        let entries = try PronunciationDictionary.entries(for: ["read", "red", "lamp", "absent"], in: url)
        #expect(entries == ["read": ["R IY D", "R EH D"], "red": ["R EH D"], "lamp": ["L AE M P"]])
    }

    @Test func aWantedWordWithNoPhonesIsNamedWithItsLine() throws {
        let url = try dictionary("lamp L AE M P\nlight\n")
        defer { try? FileManager.default.removeItem(at: url) }
        #expect {
            try PronunciationDictionary.entries(for: ["light"], in: url)
        } throws: { error in
            "\(error)".contains("\(url.path):2: \"light\" has no phones")
        }
        // A word not wanted is not looked at.
        #expect(try PronunciationDictionary.entries(for: ["lamp"], in: url) == ["lamp": ["L AE M P"]])
    }
}
