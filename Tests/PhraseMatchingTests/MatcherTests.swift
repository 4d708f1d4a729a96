import Foundation
import PhraseMatching
import Testing
import VoiceIntents

@Suite("Matching")
struct MatcherTests {
    func best(_ sentence: String) async throws -> PhraseMatch? {
        try await Coffee.matcher().match(sentence).best
    }

    func values(_ match: PhraseMatch?) -> [String: String] {
        match?.values.filter(\.value.isKnown).mapValues { $0.title ?? $0.words } ?? [:]
    }

    // MARK: Values of every kind

    @Test func enumTitlesAndSynonyms() async throws {
        let match = try await best("order a latte with coffee corner")
        #expect(match?.intent == "OrderCoffeeIntent")
        #expect(match?.score == 1)
        #expect(match?.values["drink"]?.value as? Drink == .latte)
        #expect(
            values(try await best("a regular dark cappuccino from the corner")) == [
                "size": "Medium", "roast": "Dark Roast", "drink": "Cappuccino",
            ])
    }

    @Test func modifiersInAnyOrder() async throws {
        let expected = ["size": "Large", "roast": "Dark Roast", "shots": "2", "drink": "Latte"]
        for sentence in [
            "a large dark roast two shot latte", "a dark roast large 2 shot latte",
            "a two shot large dark roast latte",
        ] {
            let match = try await best(sentence)
            #expect(
                values(match) == expected,
                "\(sentence): \(String(describing: match)) \(match?.explanation ?? [])")
        }
    }

    @Test func numbersAsWordsAndDigits() async throws {
        #expect(
            try await best("tip twenty three dollars with coffee corner")?.values["amount"]?.value as? Double
                == 23)
        #expect(
            try await best("tip 2.5 dollars with coffee corner")?.values["amount"]?.value as? Double == 2.5)
        #expect(try await best("tip two point five dollars")?.values["amount"]?.value as? Double == 2.5)
        let espresso = try await best("can I have a 3 shot espresso")
        #expect(
            values(espresso) == ["shots": "3", "drink": "Espresso"],
            "\(String(describing: espresso)) \(espresso?.explanation ?? [])")
    }

    @Test func booleans() async throws {
        #expect(
            try await best("tip 5 anonymously yes with coffee corner")?.values["isAnonymous"]?.value as? Bool
                == true)
    }

    @Test func freeTextAndDates() async throws {
        let match = try await best("remember buy more beans for tomorrow")
        #expect(match?.intent == "NoteIntent")
        #expect(match?.values["text"]?.words == "buy more beans")
        #expect(match?.values["day"]?.value is Date)
        #expect(
            try await best("note call the roaster in coffee corner")?.values["text"]?.words
                == "call the roaster")
    }

    @Test func openSetsAreResolvedWhenSaid() async throws {
        let match = try await best("a flat white from blue bottle")
        #expect(match?.values["cafe"]?.title == "Blue Bottle")
        #expect(match?.unknown == [])
        let unknown = try await best("a flat white from starbucks")
        #expect(unknown?.intent == "OrderCoffeeIntent")
        #expect(unknown?.unknown == ["cafe"])
        #expect(unknown?.isPartial == true)
    }

    // MARK: Noise

    @Test func fillersAndOneExtraWord() async throws {
        let filler = try await best("uh order a latte please with coffee corner")
        #expect(filler?.intent == "OrderCoffeeIntent")
        #expect(filler?.explanation == ["ignored \"uh\"", "ignored \"please\""])
        #expect(try await best("order a hot latte with coffee corner")?.explanation == ["ignored \"hot\""])
    }

    @Test func skipWordsCostNextToNothingAndAreInTheGrammar() async throws {
        let sentence = "could you please order a latte for me with coffee corner"
        let plain = try #require(await Coffee.matcher().match(sentence).best)
        let matcher = try await Coffee.matcher(
            catalog: Coffee.catalogText + "\nskip: [please, could you, for me]\n")
        let skipping = try #require(await matcher.match(sentence).best)
        #expect(values(skipping) == ["drink": "Latte"])
        #expect(skipping.score > plain.score)
        #expect(skipping.score >= 0.95, "\(skipping.score)")
        // A grammar made from the spoken forms lets each phrase begin and end with them.
        let order = try #require(matcher.spokenForms.phrases.first { $0.intent == "OrderCoffeeIntent" })
        let skip = PhraseElement.optional([
            .alternatives([[.word("please")], [.word("could"), .word("you")], [.word("for"), .word("me")]])
        ])
        #expect(order.elements.first == skip && order.elements.last == skip)
        #expect(try await Coffee.matcher().spokenForms.phrases.allSatisfy { $0.elements.first != skip })
    }

    @Test func wordsStandForValuesTheCatalogNames() async throws {
        let catalog =
            Coffee.catalogText
            + "\nvalues:\n  shots: { double: 2, triple: 3 }\n  size: { venti: Large }\n  amount: { a fiver: 5 }\n"
        let matcher = try await Coffee.matcher(catalog: catalog)
        let order = try #require(await matcher.match("can I have a venti triple shot latte").best)
        #expect(values(order) == ["size": "Large", "shots": "3", "drink": "Latte"])
        #expect(order.values["shots"]?.value as? Int == 3)
        let tip = try #require(await matcher.match("tip a fiver with coffee corner").best)
        #expect(tip.values["amount"]?.value as? Double == 5)
        // Only the parameter they are written for takes them, and grammars say them there.
        #expect(
            try await Coffee.matcher().match("tip a fiver with coffee corner").best?.values["amount"]?.isKnown
                != true)
        let tipForms = try #require(matcher.spokenForms.phrases.first { $0.intent == "TipIntent" })
        #expect(
            tipForms.elements.contains(
                .alternatives([[.placeholder("amount")], [.word("a"), .word("fiver")]])))
    }

    @Test(arguments: [
        ("  tips: { max: 100 }", "values: no intent has a parameter \"tips\""),
        ("  size: { venti: Huge }", "values: size has no value \"Huge\"; it has: Small, Medium, Large"),
        ("  shots: { lots: many }", "values: shots takes whole numbers, not \"many\""),
        (
            "  text: { hello: world }",
            "values: text takes the words said (a String), so \"hello\" cannot stand for \"world\""
        ),
    ])
    func valueWordsThatCannotBeAreErrors(_ line: String, _ message: String) async throws {
        do {
            _ = try await Coffee.matcher(catalog: Coffee.catalogText + "\nvalues:\n\(line)\n")
            Issue.record("no error for \(line)")
        } catch let error as PhraseMatcher.CompileError {
            #expect(error.message.hasPrefix(message), "\(error.message)")
            #expect(error.source.line == 12)
        }
    }

    @Test func aPhraseMaySetValuesThatAreNotSaid() async throws {
        let catalog = Coffee.catalogText.replacingOccurrences(
            of: "  OrderCoffeeIntent:\n",
            with:
                "  OrderCoffeeIntent:\n    - { say: \"my usual\", set: { drink: Flat White, size: large } }\n"
        )
        let matcher = try await Coffee.matcher(
            catalog: catalog.replacingOccurrences(
                of: "  TipIntent:\n",
                with: "  TipIntent:\n    - { say: \"tip ${amount} quietly\", set: { isAnonymous: yes } }\n"))
        let usual = try #require(await matcher.match("my usual").best)
        #expect(usual.intent == "OrderCoffeeIntent")
        #expect(values(usual) == ["drink": "Flat White", "size": "Large"])
        #expect(usual.missing.isEmpty)
        let quiet = try #require(await matcher.match("tip 3 quietly").best)
        #expect(quiet.values["isAnonymous"]?.value as? Bool == true)
        #expect(quiet.values["amount"]?.value as? Double == 3)
    }

    @Test func aPhraseMayTakeAValueFromTheRuntimesContext() async throws {
        let catalog = Coffee.catalogText.replacingOccurrences(
            of: "  OrderCoffeeIntent:\n",
            with: "  OrderCoffeeIntent:\n    - { say: \"the usual size of ${drink}\", set: { size: $cup } }\n"
        )
        let matcher = try await Coffee.matcher(catalog: catalog)
        let known = try #require(
            await matcher.match("the usual size of latte", context: ["cup": "large"]).best)
        #expect(values(known) == ["drink": "Latte", "size": "Large"])
        #expect(known.missing.isEmpty)
        // Without it, or with a value the parameter does not take, the runtime asks.
        let unknown = try #require(await matcher.match("the usual size of latte").best)
        #expect(unknown.missing == ["size"])
        let wrong = try #require(
            await matcher.match("the usual size of latte", context: ["cup": "huge"]).best)
        #expect(wrong.missing == ["size"])
    }

    @Test(arguments: [
        ("{ say: \"order ${drink}\", set: { drink: Latte } }", "set: ${drink} is said in the phrase"),
        ("{ say: \"my usual\", set: { milk: oat } }", "set: OrderCoffeeIntent has no parameter \"milk\""),
        ("{ say: \"my usual\", set: { drink: Mocha } }", "set: \"Mocha\" is no value of drink"),
    ])
    func valuesAPhraseCannotSetAreErrors(_ entry: String, _ message: String) async throws {
        do {
            _ = try await Coffee.matcher(
                catalog: Coffee.catalogText.replacingOccurrences(
                    of: "  OrderCoffeeIntent:\n", with: "  OrderCoffeeIntent:\n    - \(entry)\n"))
            Issue.record("no error for \(entry)")
        } catch let error as PhraseMatcher.CompileError {
            #expect(error.message.hasPrefix(message), "\(error.message)")
            #expect(error.source.line == 4)
        }
    }

    @Test func oneDroppedWord() async throws {
        let match = try await best("order latte with coffee corner")
        #expect(match?.values["drink"]?.title == "Latte")
        #expect(match?.explanation == ["assumed \"a\""])
        #expect(try await best("open menu in coffee corner")?.intent == "OpenMenuIntent")
    }

    @Test func twoWordsSwapped() async throws {
        let match = try await best("open menu the in coffee corner")
        #expect(match?.intent == "OpenMenuIntent")
        #expect(
            match?.explanation.contains("\"in the\" taken as \"the in\"") == true
                || match?.explanation.contains { $0.hasPrefix("\"") && $0.contains("taken as") } == true)
    }

    @Test func misheardWordsAndNames() async throws {
        #expect(try await best("order a lattee with coffee corner")?.values["drink"]?.title == "Latte")
        let app = try await best("order a latte with coffee korner")
        #expect(app?.intent == "OpenMenuIntent" || app?.intent == "OrderCoffeeIntent")
        #expect(app?.explanation.contains("heard the app name approximately") == true)
    }

    @Test func noMatchBelowThresholdWithSuggestions() async throws {
        let result = try await Coffee.matcher().match("what's the weather like in paris")
        #expect(result.best == nil)
        #expect(!result.isAmbiguous)
        let near = try await Coffee.matcher().match("open the coffee menu card now please")
        #expect(near.best == nil || near.best?.intent == "OpenMenuIntent")
        let far = try await Coffee.matcher().match("sing me a song")
        #expect(far.best == nil)
    }

    @Test func aWrongCommandWordIsNotACommand() async throws {
        #expect(try await best("close the menu in coffee corner") == nil)
        #expect(try await best("burn the menu in coffee corner") == nil)
    }

    // MARK: Ranking

    @Test func negativePhrasesNeverMatch() async throws {
        let result = try await Coffee.matcher().match("don't order anything with coffee corner")
        #expect(result.best == nil)
        #expect(result.negativePhrase == "Don't order anything with ${applicationName}")
        #expect(
            try await Coffee.matcher().match("cancel my coffee").negativePhrase
                == "cancel my (order | coffee)")
    }

    @Test func missingValuesMakeAPartialMatch() async throws {
        let match = try await best("order a with coffee corner")
        #expect(match?.intent == "OrderCoffeeIntent")
        #expect(match?.missing == ["drink"])
        #expect(match?.isPartial == true)
    }

    @Test func candidatesAreRankedWithScores() async throws {
        let result = try await Coffee.matcher().match("order a latte with coffee corner")
        let scores = result.candidates.map(\.score)
        #expect(scores == scores.sorted(by: >))
        #expect(scores.allSatisfy { (0...1).contains($0) })
        #expect(result.candidates.first?.phrase == "Order a ${drink} with ${applicationName}")
        #expect(result.candidates.first?.source == .swift)
    }

    @Test func nearTiesBetweenShortcutsAreAmbiguous() async throws {
        let catalog = Coffee.catalogText + "\n    - \"drink something\"\n"
        _ = catalog
        let ambiguous = """
            intents:
              OpenMenuIntent:
                - "show me everything"
              TipIntent:
                - "show me everything"
            """
        let result = try await Coffee.matcher(catalog: ambiguous).match("show me everything")
        #expect(result.isAmbiguous)
        #expect(result.best == nil)
        #expect(Set(result.candidates.prefix(2).map(\.intent)) == ["OpenMenuIntent", "TipIntent"])
    }

    @Test func runnerParametersHandTheRuntimeValuesOrWords() async throws {
        let match = try #require(try await best("a large latte from starbucks"))
        #expect(match.runnerParameters["size"] as? Size == .large)
        #expect(match.runnerParameters["cafe"] as? String == "starbucks")
    }
}
