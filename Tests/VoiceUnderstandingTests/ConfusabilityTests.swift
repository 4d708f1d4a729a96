import PhraseMatching
import Testing

@testable import VoiceRecognition
@testable import VoiceUnderstanding

/// The acoustic lint: phone distances, and which values and phrases sound alike. Pronunciations
/// come from a small table here, so no model is loaded.
@Suite("Confusability")
struct ConfusabilityTests {
    static let dictionary: [String: String] = [
        "bear": "B EH R", "bare": "B EH R", "pear": "P EH R", "lion": "L AY AH N", "grizzly": "G R IH Z L IY",
        "add": "AE D", "read": "R EH D", "open": "OW P AH N", "close": "K L OW Z", "the": "DH AH",
        "in": "IH N", "zoo": "Z UW", "feed": "F IY D", "don't": "D OW N T", "anything": "EH N IY TH IH NG",
        "two": "T UW", "to": "T UW", "go": "G OW",
    ]

    static let animals = SpokenForms.Values.names([["bear"], ["bare"], ["grizzly"], ["pear"], ["lion"]])

    static func phrase(_ intent: String?, _ words: String, line: Int) -> SpokenForms.Phrase {
        let elements = words.split(separator: " ").map { word -> PhraseElement in
            switch word {
            case "${animal}": .placeholder("animal")
            case "${app}": .applicationName
            case "[the]": .optional([.word("the")])
            default: .word(String(word))
            }
        }
        return SpokenForms.Phrase(
            intent: intent, elements: elements, placeholders: ["animal": animals],
            source: PhraseSource(file: "zoo.yaml", line: line, column: 5))
    }

    static let forms = SpokenForms(
        applicationNames: [["zoo"]],
        phrases: [
            phrase("AddAnimal", "add [the] ${animal} in ${app}", line: 1),
            phrase("ReadAbout", "read [the] ${animal} in ${app}", line: 2),  // "add" / "read": alike
            phrase("OpenCage", "open [the] ${animal} in ${app}", line: 3),  // "open" / "add": not alike
            phrase("CloseCage", "close [the] ${animal} in ${app}", line: 4),
            phrase("OpenCage", "go to ${app}", line: 5),
            phrase("Visit", "go two ${app}", line: 6),  // homophones of another intent
            phrase("Feed", "add [the] ${animal} in ${app}", line: 7),  // the same words: the plain lint's
            phrase(nil, "don't add anything", line: 8),
        ],
        valueNames: [
            SpokenForms.ValueNames(
                typeName: "Animal", parameters: ["animal"],
                // A value's synonyms are never compared with one another; "bear" / "pear" differ in
                // voicing only (B/P, 0.25).
                values: [
                    .init(title: "Bear", names: [["bear"], ["bare"], ["grizzly"]]),
                    .init(title: "Pear", names: [["pear"]]),
                    .init(title: "Lion", names: [["lion"]]),
                ])
        ])

    static func confusions(_ check: ConfusabilityCheck = ConfusabilityCheck()) -> [Confusion] {
        check.confusions(in: forms) { dictionary[$0] }
    }

    @Test func alikePhonesCostLess() {
        #expect(PhoneDistance.distance("M AE P", "M AE P") == 0)
        #expect(PhoneDistance.distance("M AE P", "N AE P") == 0.25)  // M/N
        #expect(PhoneDistance.distance("B EH R", "P EH R") == 0.25)  // voicing
        #expect(PhoneDistance.distance("M AE P", "M IY P") == 0.5)  // two vowels
        #expect(PhoneDistance.distance("M AE P", "M AE S") == 1)  // a stop and a fricative
        #expect(PhoneDistance.distance("M AE P", "M AE P S") == 1)
        #expect(PhoneDistance.distance("AE D", "R EH D") == 1.25)
        #expect(PhoneDistance.distance("AE1 D", "AE0 D") == 0)  // stress marks ignored
    }

    @Test func theBandedDistanceAgreesWithTheFullOne() {
        let pairs = [("K IY OW T OW", "T OW K IY OW"), ("OW P AH N", "K L OW Z"), ("AE D", "R EH D")]
        for (a, b) in pairs {
            let full = PhoneDistance.distance(a, b)
            let units = Int(full * 4)
            let symbolsA = PhoneDistance.symbols(a)
            let symbolsB = PhoneDistance.symbols(b)
            #expect(PhoneDistance.units(symbolsA, symbolsB, limit: units) == units, "\(a) / \(b)")
            #expect(PhoneDistance.units(symbolsA, symbolsB, limit: units - 1) == nil, "\(a) / \(b)")
        }
    }

    @Test func valuesThatSoundAlikeAreFlaggedAndSynonymsAreNot() throws {
        let values = Self.confusions().filter { $0.kind == .values(typeName: "Animal") }
        try #require(values.count == 1)
        let pair = values[0]
        #expect(pair.first.text == "Bear")
        #expect(pair.second.text == "Pear")
        #expect(pair.distance == 0.25)
        #expect(pair.length == 3)
        #expect(pair.first.differingPhones == "B EH R")
        #expect(pair.second.differingPhones == "P EH R")
        #expect(
            pair.diagnostic.description
                == "Swift: warning: \"Bear\": sounds like \"Pear\" (both Animal): \"bear\" (B EH R) vs \"pear\" (P EH R), phone distance 0.25 in 3 phones; rename one, or give one a synonym that sounds different"
        )
    }

    @Test func phrasesOfDifferentIntentsThatSoundAlikeAreFlagged() throws {
        let phrases = Self.confusions().filter { $0.kind == .phrases }
        let described = phrases.map {
            "\($0.first.intent ?? "-") \($0.first.differingWords) / \($0.second.intent ?? "-") \($0.second.differingWords) \($0.distance)"
        }
        // "go to" and "go two" are said the same; "add" and "read" differ by 1.25 phones in 3. The
        // same words under two intents (AddAnimal, Feed) are the plain lint's collision, and "open"
        // against "add" or "close" is too different.
        #expect(
            described == [
                #"OpenCage ["to"] / Visit ["two"] 0.0"#,
                #"AddAnimal ["add"] / ReadAbout ["read"] 1.25"#,
                #"ReadAbout ["read"] / Feed ["add"] 1.25"#,
            ])
        let add = try #require(phrases.first { $0.first.intent == "AddAnimal" })
        #expect(add.first.words == ["add", "${animal}", "in", "${applicationName}"])
        #expect(add.ratio == 1.25 / 3)
        #expect(add.diagnostic.source.description == "zoo.yaml:1:5")
        #expect(
            add.diagnostic.message.contains(
                "ReadAbout's \"read [the] ${animal} in ${applicationName}\" (zoo.yaml:2:5)"))
    }

    @Test func theThresholdsDecide() {
        // At most 0.25 phones: only the homophones and the values one voicing apart.
        let close = Self.confusions(ConfusabilityCheck(maximumDistance: 0.25)).map(\.distance)
        #expect(close == [0, 0.25])
        // A ratio of 0.4 leaves out "add" / "read" (1.25 of 3 phones differ, 0.42).
        let strict = Self.confusions(ConfusabilityCheck(maximumRatio: 0.4)).map(\.distance)
        #expect(strict == [0, 0.25])
        // With no limits, the negative phrase is compared with the commands too; phrases of one
        // intent never are.
        let all = Self.confusions(ConfusabilityCheck(maximumDistance: 100, maximumRatio: 10)).filter {
            $0.kind == .phrases
        }
        #expect(!all.contains { $0.first.intent == $0.second.intent })
        #expect(all.contains { $0.first.intent == nil || $0.second.intent == nil })
    }
}
