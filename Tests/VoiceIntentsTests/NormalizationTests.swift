import Testing
import VoiceIntents

@Suite("Normalisation")
struct NormalizationTests {
    func words(_ text: String) -> [String] { TextNormalizer.tokens(text).map(\.text) }

    @Test func caseAndPunctuation() {
        #expect(
            words("Navigate to the Map, in Travel Tracking!") == [
                "navigate", "to", "the", "map", "in", "travel", "tracking",
            ])
        #expect(words("Kinkaku-ji") == ["kinkaku", "ji"])
    }

    @Test func aPerCentSignIsTheWord() {
        #expect(words("set it to 50%") == ["set", "it", "to", "50", "percent"])
        #expect(words("dim to 20 %") == words("dim to twenty percent"))
        #expect(words("baisse à 30%") == ["baisse", "a", "30", "percent"])
    }

    @Test func accentsDoNotMatter() {
        #expect(words("Chichén Itzá") == words("chichen itza"))
        #expect(words("Reykjavík Hallgrímskirkja") == ["reykjavik", "hallgrimskirkja"])
    }

    @Test func contractionsAndApostrophes() {
        #expect(words("What's on my shelf") == ["what", "is", "on", "my", "shelf"])
        #expect(words("Don't go") == ["do", "not", "go"])
        #expect(words("What’s up") == ["what", "is", "up"])
        #expect(words("McCarthy's novel") == ["mccarthy", "novel"])
    }

    @Test func numbersBothWays() {
        #expect(words("twenty three tickets") == ["23", "tickets"])
        #expect(words("23 tickets") == ["23", "tickets"])
        #expect(words("twenty-three") == ["23"])
        #expect(words("a dozen eggs") == ["12", "eggs"])
        #expect(words("two point five") == ["2.5"])
        #expect(words("one hundred and five") == ["105"])
        #expect(words("1,000 tickets") == ["1000", "tickets"])
        #expect(words("a book") == ["a", "book"])
        #expect(words("a two shot latte") == ["a", "2", "shot", "latte"])
        #expect(words("gate 2 1") == ["gate", "2", "1"])
        #expect(words("one of them") == ["1", "of", "them"])
        // A fraction after a whole number is read with it; "and" alone is not.
        #expect(words("seventy two and a half degrees") == ["72.5", "degrees"])
        #expect(words("2 and a half cups") == ["2.5", "cups"])
        #expect(words("one and three quarters") == ["1.75"])
        #expect(words("two and a half hours and ten minutes") == ["2.5", "hours", "and", "10", "minutes"])
        #expect(words("three hours and a half") == ["3", "hours", "and", "a", "half"])
    }

    @Test func ordinals() {
        #expect(words("the 2nd one") == ["the", "second", "1"])
        #expect(words("3rd") == ["third"])
        #expect(words("the 12th floor") == words("the twelfth floor"))
        #expect(words("on the 21st") == words("on the twenty first"))
        #expect(words("the 30th") == ["the", "thirtieth"])
        #expect(words("the 23rd of May") == words("the twenty-third of may"))
    }

    @Test func fractionsInDigits() {
        #expect(words("set a timer for 1/2 an hour") == words("set a timer for half an hour"))
        #expect(words("1 1/2 hours") == words("one and a half hours"))
        #expect(words("3/4 of the way") == words("three quarters of the way"))
        #expect(words("1/4 cup") == ["quarter", "cup"])
        #expect(words("½ an hour") == words("half an hour"))
        #expect(words("2½ hours") == words("2 and a half hours"))
        // Fractions without a name, and dates, stay numbers.
        #expect(words("5/8 inch") == ["5", "8", "inch"])
        #expect(words("on 12/25/2026") == ["on", "12", "25", "2026"])
        #expect(words("either/or") == ["either", "or"])
        #expect(words("a4/2b") == ["a4", "2b"])
    }

    @Test func appNamesWrittenAsOneWord() {
        #expect(words("TravelTracking") == ["travel", "tracking"])
        #expect(words("iPhone McCarthy") == ["iphone", "mccarthy"])
    }

    @Test func surfaceKeepsWhatWasSaid() {
        let tokens = TextNormalizer.tokens("Twenty Three Chichén")
        #expect(tokens.map(\.surface) == ["Twenty Three", "Chichén"])
    }
}

/// Answers are read with the matcher's normaliser, number words left as words.
@Suite("Answers normalised")
struct AnswerNormalizationTests {
    @Test func answersAreSpelledAsTheMatcherSpellsThem() {
        #expect(SpokenAnswer.yesOrNo("Don't!") == false)
        #expect(SpokenAnswer.yesOrNo("Yes, please.") == true)
        #expect(SpokenAnswer.isCancel("Never mind"))
        #expect(OptionSelection.index(of: "the second one", in: ["Uluru", "Kyoto", "Lima"]) == 1)
    }

    @Test func accentsDoNotKeepANameFromBeingPicked() {
        #expect(OptionSelection.index(of: "chichen itza", in: ["Machu Picchu", "Chichén Itzá"]) == 1)
    }
}
