import Foundation
import Testing
import VoiceIntents

@Suite("Spoken words")
struct SpokenWordsTests {
    @Test(arguments: [
        ("23", 23.0), ("twenty three", 23), ("twenty-three", 23), ("a dozen", 12), ("two dozen", 24),
        ("two point five", 2.5), ("one hundred and five", 105), ("three thousand two hundred", 3200),
        ("1,000", 1000), ("zero", 0), ("a couple", 2), ("one hundred twenty three", 123),
        ("two thousand and five", 2005), ("a hundred", 100), ("one hundred and twenty", 120),
        ("twelve hundred", 1200), ("two thousand", 2000), ("twenty four point five", 24.5),
        ("seventy two and a half", 72.5), ("one and a quarter", 1.25), ("two and three quarters", 2.75),
        ("2 and a half", 2.5),
    ])
    func numbers(_ text: String, _ expected: Double) {
        #expect(SpokenNumber.parse(text) == expected)
    }

    /// Numbers said digit by digit or in pairs, as codes, room numbers and years are, are read
    /// one group after another, not added up.
    @Test(arguments: [
        ("one two three", 123.0), ("four four", 44), ("one zero one", 101), ("nineteen eighty four", 1984),
        ("twenty twenty", 2020), ("two thousand twenty", 2020), ("twenty five twelve", 2512),
        ("seven two point five", 72.5),
    ])
    func digitStrings(_ text: String, _ expected: Double) {
        #expect(SpokenNumber.parse(text) == expected)
    }

    @Test(arguments: [
        "", "banana", "a", "twenty bananas", "point five", "and a half", "two point five and a half",
    ])
    func notNumbers(_ text: String) {
        #expect(SpokenNumber.parse(text) == nil)
    }

    @Test func ordinals() {
        #expect(SpokenNumber.ordinal("second") == 2)
        #expect(SpokenNumber.ordinal("3rd") == 3)
        #expect(SpokenNumber.ordinal("last") == -1)
        #expect(SpokenNumber.ordinal("blue") == nil)
    }

    @Test func optionSelection() {
        let options = ["Kyoto", "Lima", "Paris"]
        #expect(OptionSelection.index(of: "the second one", in: options) == 1)
        #expect(OptionSelection.index(of: "number three", in: options) == 2)
        #expect(OptionSelection.index(of: "Lima", in: options) == 1)
        #expect(OptionSelection.index(of: "the lima one", in: options) == 1)
        #expect(OptionSelection.index(of: "the last one", in: options) == 2)
        #expect(OptionSelection.index(of: "fourth", in: options) == nil)
        #expect(OptionSelection.index(of: "berlin", in: options) == nil)
        #expect(OptionSelection.index(of: .option(5), in: options) == nil)
    }

    @Test func yesNoAndCancel() {
        #expect(SpokenAnswer.yesOrNo("Yes, please!") == true)
        #expect(SpokenAnswer.yesOrNo("go ahead") == true)
        #expect(SpokenAnswer.yesOrNo("No thank you.") == false)
        #expect(SpokenAnswer.yesOrNo("perhaps") == nil)
        #expect(SpokenAnswer.isCancel("Never mind"))
        #expect(!SpokenAnswer.isCancel("cancel my order of pizza"))
    }

    @Test func dates() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        // Sunday 22 November 2026, 15:00 UTC.
        let now = Date(timeIntervalSince1970: 1_795_359_600)
        let day = { (text: String) in
            SpokenDate.parse(text, relativeTo: now, calendar: calendar).map {
                calendar.dateComponents([.month, .day], from: $0)
            }
        }
        #expect(day("today") == DateComponents(month: 11, day: 22))
        #expect(day("Tomorrow") == DateComponents(month: 11, day: 23))
        #expect(day("yesterday") == DateComponents(month: 11, day: 21))
        #expect(day("friday") == DateComponents(month: 11, day: 27))
        #expect(day("next monday") == DateComponents(month: 11, day: 23))
        #expect(day("sunday") == DateComponents(month: 11, day: 29))
        #expect(day("2026-12-24") == DateComponents(month: 12, day: 24))
        #expect(day("someday") == nil)
    }

    @Test func valuesOfEveryKindResolveFromWords() async throws {
        #expect(try await Int._values(matching: "forty two") == [42])
        #expect(try await Int._values(matching: "two point five") == [])
        #expect(try await Double._values(matching: "two point five") == [2.5])
        #expect(try await Bool._values(matching: "yep") == [true])
        #expect(
            try await URL._values(matching: "https://example.org") == [URL(string: "https://example.org")!])
        #expect(try await URL._values(matching: "not a url") == [])
        #expect(try await String._values(matching: "  Dune ") == ["Dune"])
        #expect(try await Color._values(matching: "Crimson") == [.red])
        #expect(try await City._values(matching: "paris").map(\.id) == ["paris-fr", "paris-tx"])
        #expect(try await Optional<Color>._values(matching: "green") == [.green])
        #expect(try await Color._spokenNames() == ["Red", "crimson", "Green", "Blue", "navy"])
    }
}
