import Foundation
import PhraseMatching
import Testing
import VoiceIntents

@Suite("Catalogs and phrase files")
struct CatalogTests {
    func error(catalog text: String) -> PhraseFileError? {
        do {
            _ = try Coffee.catalog(text, name: "bad.yaml")
            return nil
        } catch let error as PhraseFileError {
            return error
        } catch {
            return nil
        }
    }

    @Test func aCatalogReadsNamesPhrasesAndNegatives() throws {
        let catalog = try Coffee.catalog(Coffee.catalogText)
        #expect(catalog.names == ["The Corner"])
        #expect(catalog.entries.count == 4)
        #expect(catalog.entries[0].target == .intent("OrderCoffeeIntent"))
        #expect(catalog.entries[0].source.line == 4)
        #expect(catalog.entries[0].source.column == 8)
        #expect(catalog.entries.last?.target == .negative)
    }

    @Test func syntaxErrorsNameFileLineAndColumn() throws {
        let failure = try #require(
            error(
                catalog: """
                    intents:
                      OpenMenuIntent:
                        - "open (the | a menu"
                    """))
        #expect(failure.file.hasSuffix("bad.yaml"))
        #expect(failure.line == 3)
        #expect(failure.column == 26)  // where the ")" should be: just after the phrase
        #expect(failure.message == "expected \")\", found the end of the phrase")
        #expect(
            failure.description.hasSuffix("bad.yaml:3:26: error: expected \")\", found the end of the phrase")
        )
    }

    @Test func namedRulesAreWrittenOnceAndUsedByName() throws {
        let catalog = try Coffee.catalog(
            """
            intents:
              OrderCoffeeIntent:
                - "<order> a ${drink} <place>"
            rules:
              place: "[here | to go]"
              please: "[please]"
              order: "(order | get) [me] <please>"
            """)
        // Rules come first wherever they are written, and a rule may use the rules above it.
        let expected = try PhraseParser.parse("(order | get) [me] [please] a ${drink} [here | to go]")
        #expect(catalog.entries.map(\.pattern.elements) == [expected.elements])
    }

    @Test func anUnknownRuleNamesTheRulesThereAre() throws {
        let failure = try #require(
            error(
                catalog: """
                    rules:
                      place: "[here | to go]"
                    intents:
                      OrderCoffeeIntent:
                        - "order <drinks> <place>"
                    """))
        #expect(failure.line == 5 && failure.column == 14)
        #expect(failure.message == "no rule named <drinks>; the catalog has: <place>")
        // A rule may use only the rules above it, so rules never refer to each other in a loop.
        let later = try #require(error(catalog: "rules:\n  a: \"<b>\"\n  b: \"x\"\n"))
        #expect(
            later.line == 2 && later.message == "no rule named <b>; declare it under rules: in the catalog")
    }

    /// A key that is not plain text is refused where it is written: Yams compares such keys,
    /// when one is written twice, in time that doubles with each level they nest (fuzzing found
    /// two kilobytes of them that hung the reader).
    @Test(arguments: [
        ("? [a, b]\n: x\n", 1, 3, "a list"), ("intents:\n  {a: b}: x\n", 2, 3, "a mapping"),
        ("a: &x y\n*x : z\n", 2, 1, "an alias"),
    ])
    func aKeyThatIsNotPlainTextIsRefused(_ text: String, _ line: Int, _ column: Int, _ kind: String) throws {
        let failure = try #require(error(catalog: text))
        #expect(failure.line == line && failure.column == column, "\(failure)")
        #expect(failure.message == "invalid YAML: a key must be plain text, not \(kind)", "\(failure)")
    }

    @Test func anEmptyFileSaysSo() throws {
        let failure = try #require(error(catalog: ""))
        #expect(failure.line == 1 && failure.message == "the file is empty", "\(failure)")
    }

    @Test func nestedKeysWrittenTwiceAreRefusedAtOnce() throws {
        let key = String(repeating: "? - ", count: 40) + "x"
        let failure = try #require(error(catalog: "\(key)\n: 1\n\(key)\n: 2\n"))
        #expect(failure.line == 1 && failure.message.contains("a key must be plain text"), "\(failure)")
    }

    /// A rule's brackets count where it is used, so rules used inside rules inside brackets
    /// cannot nest past the parser's limit (a debug build would run out of stack compiling them).
    @Test func rulesInsideRulesNestNoDeeperThanTheLimit() throws {
        let twenty = { (inner: String) in
            String(repeating: "[a ", count: 20) + inner + String(repeating: "]", count: 20)
        }
        let failure = try #require(
            error(catalog: "rules:\n  a: \"\(twenty("b"))\"\n  b: \"\(twenty("<a>"))\"\n"))
        #expect(failure.line == 3 && failure.column == 67, "\(failure)")
        #expect(failure.message == "<a> nests 20 deep inside 20 brackets, more than 32", "\(failure)")
        // Used where it fits, the same rule is read.
        #expect(error(catalog: "rules:\n  a: \"\(twenty("b"))\"\n  b: \"[c] <a>\"\n") == nil)
    }

    @Test func aPhraseThatSetsValuesIsWrittenAsAMapping() throws {
        let catalog = try Coffee.catalog(
            "intents:\n  OrderCoffeeIntent:\n    - { say: \"my usual\", set: { drink: Latte } }\n")
        #expect(catalog.entries.first?.fixedValues == ["drink": "Latte"])
        #expect(catalog.entries.first?.source.line == 3)
        let negative = try #require(
            error(catalog: "negative:\n  - { say: \"never mind\", set: { drink: Latte } }\n"))
        #expect(negative.message == "a negative phrase runs nothing, so it sets no values")
        let typo = try #require(error(catalog: "intents:\n  OpenMenuIntent:\n    - { sey: \"menu\" }\n"))
        #expect(typo.message == "unknown key \"sey\"; expected say, set or only")
    }

    /// What YAML itself refuses (a control character, a key written twice) says where too: the
    /// fuzzer's first finding was a control character reported without a line.
    @Test func yamlThatCannotBeReadSaysWhere() throws {
        do {
            _ = try PhraseCatalog.parse("intents:\n  OpenMenuIntent:\n    - \"me\u{01}nu\"\n", file: "x.yaml")
            Issue.record("read")
        } catch {
            #expect(error.line == 3 && error.column == 10, "\(error)")
            #expect(error.message.hasPrefix("invalid YAML: control characters are not allowed"), "\(error)")
        }
        let tests = try PhraseTestSuite.parse("tests:\n  - { say: hi, intent: none }\n")
        #expect(tests.cases.map(\.sentence) == ["hi"])
    }

    @Test func structuralErrorsSayWhatWasExpected() throws {
        let unknownKey = try #require(error(catalog: "phrasez:\n  - hello\n"))
        #expect(unknownKey.line == 1 && unknownKey.column == 1)
        #expect(
            unknownKey.message
                == "unknown key \"phrasez\"; expected names, skip, values, rules, phrases, intents or negative"
        )

        let notAList = try #require(error(catalog: "intents:\n  OpenMenuIntent: open the menu\n"))
        #expect(notAList.line == 2)
        #expect(notAList.message == "expected phrases (a list), found text \"open the menu\"")

        let invalid = try #require(error(catalog: "intents: [unclosed\n"))
        #expect(invalid.line == 2)
        #expect(invalid.message.hasPrefix("invalid YAML:"))
    }

    @Test func unreadableFilesSayWhy() {
        #expect(throws: PhraseFileError.self) {
            try PhraseCatalog.load(from: URL(fileURLWithPath: "/nonexistent/catalog.yaml"))
        }
    }

    @Test func anUnknownLocaleSaysWhichExist() throws {
        let folder = try TemporaryFile(name: "coffee-corner.yaml", text: Coffee.catalogText, folder: "en").url
            .deletingLastPathComponent().deletingLastPathComponent()
        #expect(try PhraseCatalog.load(app: "coffee-corner", locale: "en", in: folder).entries.count == 4)
        #expect(try PhraseCatalog.load(app: "other-app", locale: "en", in: folder).entries.isEmpty)
        let failure = try #require(throws: PhraseFileError.self) {
            try PhraseCatalog.load(app: "coffee-corner", locale: "fr", in: folder)
        }
        #expect(failure.message == "no phrases for locale \"fr\"; there are: en")
    }

    @Test func catalogsThatNameNothingDeclaredFailToCompile() async throws {
        for (text, message) in [
            ("intents:\n  FlyIntent:\n    - fly away\n", "no shortcut runs an intent \"FlyIntent\""),
            (
                "phrases:\n  \"Order a pizza with ${applicationName}\":\n    - pizza\n",
                "no phrase declared in Swift reads"
            ),
            (
                "intents:\n  TipIntent:\n    - \"tip ${money}\"\n",
                "placeholder ${money} names no parameter of TipIntent; it has: amount, isAnonymous"
            ),
        ] {
            let failure = try await #require(throws: PhraseMatcher.CompileError.self) {
                try await Coffee.matcher(catalog: text)
            }
            #expect(failure.message.hasPrefix(message), "\(failure)")
            #expect(failure.source.line == 3)
        }
    }

    @Test func stringCatalogsAreRead() async throws {
        let json = """
            {"sourceLanguage": "en", "strings": {
              "Open the menu in ${applicationName}": {"localizations": {
                "de": {"stringUnit": {"state": "translated", "value": "Öffne die Karte in ${applicationName}"}},
                "en": {"stringSet": {"state": "translated", "values": ["show the menu", "menu please"]}}
              }}
            }}
            """
        let url = try TemporaryFile(name: "AppShortcuts.xcstrings", text: json).url
        let german = try PhraseCatalog.loadStringCatalog(from: url, locale: "de")
        #expect(german.entries.map(\.pattern.text) == ["Öffne die Karte in ${applicationName}"])
        let english = try PhraseCatalog.loadStringCatalog(from: url, locale: "en")
        let matcher = try await PhraseMatcher(app: Coffee.app, catalog: english)
        #expect(await matcher.match("menu please").best?.intent == "OpenMenuIntent")
        let broken = try TemporaryFile(name: "AppShortcuts.xcstrings", text: "{ not json").url
        #expect(throws: PhraseFileError.self) {
            try PhraseCatalog.loadStringCatalog(from: broken, locale: "en")
        }
    }
}

@Suite("Phrase tests")
struct PhraseTestFileTests {
    @Test func suitesRunAndReportExpectedAgainstGot() async throws {
        let url = try TemporaryFile(
            name: "coffee.yaml",
            text: """
                tests:
                  - say: order a latte with coffee corner
                    intent: OrderCoffeeIntent
                    values: { drink: latte }
                  - say: sing me a song
                    intent: none
                  - say: order a latte with coffee corner
                    intent: TipIntent
                """
        ).url
        let suite = try PhraseTestSuite.load(from: url)
        #expect(suite.cases.count == 3)
        let results = try await Coffee.matcher().run(suite)
        #expect(results.map(\.passed) == [true, true, false])
        #expect(results[2].expected == "TipIntent()")
        #expect(results[2].got == "OrderCoffeeIntent(drink: Latte) score 1.00")
        #expect(
            results[2].description.contains(
                "coffee.yaml:7:5: error: \"order a latte with coffee corner\": expected TipIntent(), got OrderCoffeeIntent(drink: Latte)"
            ))
    }

    /// A manifest of recordings is a phrase test file whose tests name their audio.
    @Test func testsNameTheirRecordingsRelativeToTheFile() throws {
        let url = try TemporaryFile(
            name: "manifest.yaml",
            text: """
                tests:
                  - { audio: clips/one.wav, say: order a latte with coffee corner, intent: OrderCoffeeIntent, values: { drink: latte } }
                  - { audio: /data/two.raw, say: sing me a song, intent: none }
                  - { say: a sentence to speak, intent: none }
                """
        ).url
        let cases = try PhraseTestSuite.load(from: url).cases
        #expect(cases[0].audio == url.deletingLastPathComponent().appendingPathComponent("clips/one.wav"))
        #expect(cases[1].audio?.path == "/data/two.raw")
        #expect(cases[2].audio == nil)
        #expect(cases[0].expectation.intent == "OrderCoffeeIntent" && cases[1].expectation.intent == nil)
    }

    /// Files read together: the first to test a sentence decides it, as an app's own file decides
    /// the sentences of the shared out-of-domain file that are its commands.
    @Test func theFirstFileToTestASentenceDecidesIt() throws {
        let own = try TemporaryFile(
            name: "own.yaml",
            text: """
                tests:
                  - { say: "Order a latte with Coffee Corner", intent: OrderCoffeeIntent, values: { drink: latte } }
                """
        ).url
        let shared = try TemporaryFile(
            name: "shared.yaml",
            text: """
                tests:
                  - { say: order a latte with coffee corner, intent: none }
                  - { say: sing me a song, intent: none }
                """
        ).url
        let suites = try PhraseTestSuite.load(from: [own, shared])
        #expect(suites.map(\.cases.count) == [1, 1])
        #expect(suites[1].cases.map(\.sentence) == ["sing me a song"])
        #expect(try PhraseTestSuite.load(from: [shared, own]).map(\.cases.count) == [2, 0])
    }

    @Test func malformedTestFilesNameTheLine() throws {
        for (text, line, message) in [
            ("tests:\n  - say: hello\n", 2, "expected intent: (an identifier, or none), found none"),
            ("tests:\n  - intent: none\n", 2, "expected say: with a sentence, found none"),
            (
                "tests:\n  - say: hi\n    intent: none\n    values: { a: b }\n", 2,
                "a test with intent: none cannot expect values"
            ),
            (
                "tests:\n  - say: hi\n    intnet: none\n", 3,
                "unknown key \"intnet\"; expected say, intent, intents, values, context or audio"
            ),
            ("test:\n  - say: hi\n", 1, "unknown key \"test\"; expected tests"),
            (
                "tests:\n  - say: a and b\n    intents: [{ intent: A }]\n", 3,
                "intents: lists two commands or more; one is intent:"
            ),
            (
                "tests:\n  - say: a and b\n    intents: [{ intent: A }, { values: {} }]\n", 3,
                "expected intent: with an identifier, found none"
            ),
            (
                "tests:\n  - say: a and b\n    intent: A\n    intents: [{ intent: A }, { intent: B }]\n", 2,
                "a test with intents: has its values in each command, and no intent:"
            ),
        ] {
            let url = try TemporaryFile(name: "bad-tests.yaml", text: text).url
            let failure = try #require(throws: PhraseFileError.self) { try PhraseTestSuite.load(from: url) }
            #expect(failure.line == line, "\(failure)")
            #expect(failure.message == message)
        }
    }
}

@Suite("Lint")
struct LintTests {
    @Test func aCleanAppHasNoWarnings() async throws {
        #expect(try await Coffee.matcher().lint().isEmpty)
    }

    @Test func eachProblemIsReported() async throws {
        let catalog = """
            intents:
              OpenMenuIntent:
                - "open the menu"
                - "open the menu"
                - "${applicationName} menu ${applicationName}"
                - "tip the staff"
              TipIntent:
                - "tip the staff"
            """
        let diagnostics = try await Coffee.matcher(catalog: catalog).lint()
        let messages = diagnostics.map { "\($0.source.line) \($0.message)" }
        #expect(
            messages.contains(
                "3 does not contain ${applicationName}; Apple requires the app name in every phrase"))
        #expect(messages.contains("4 duplicates the phrase at \(diagnostics[0].source.file!):3:8"))
        #expect(messages.contains("5 can contain ${applicationName} 2 times"))
        #expect(
            messages.contains {
                $0.hasPrefix("6 \"tip the staff\" reaches both OpenMenuIntent and TipIntent")
            })
        #expect(diagnostics.allSatisfy { $0.severity == .warning })
        #expect(diagnostics[0].description.contains(":3:8: warning: \"open the menu\": does not contain"))
    }

    /// A phrase that says "and" before words that are another command alone may be read as two
    /// commands: lint says which.
    @Test func aJoinerBeforeAnotherCommandIsReported() async throws {
        let catalog = """
            intents:
              OpenMenuIntent:
                - "open the menu and tip the staff in ${applicationName}"
              TipIntent:
                - "tip the staff in ${applicationName}"
            """
        let messages = try await Coffee.matcher(catalog: catalog).lint().map(\.message)
        #expect(
            messages.contains {
                $0.contains("goes on after a joiner with a command of its own (TipIntent)")
            }, "\(messages)")
        #expect(!messages.contains { $0.contains("joiner") && $0.contains("(OpenMenuIntent)") })
    }

    /// An app people talk to without its name (a dedicated device) has no app-name warnings.
    @Test func anAppAddressedWithoutItsNameNeedsNoneInItsPhrases() async throws {
        let app = AppDescription(
            name: Coffee.app.name, alternativeNames: Coffee.app.alternativeNames,
            shortcuts: CoffeeShortcuts.self,
            isAddressedByName: false)
        let catalog = try Coffee.catalog("intents:\n  OpenMenuIntent:\n    - \"open the menu\"\n")
        let diagnostics = try await PhraseMatcher(app: app, catalog: catalog).lint()
        #expect(!diagnostics.contains { $0.message.contains("applicationName") }, "\(diagnostics)")
        #expect(
            try await Coffee.matcher(catalog: "intents:\n  OpenMenuIntent:\n    - \"open the menu\"\n").lint()
                .count == 1)
    }

    @Test func phrasesThatCanNeverWinAndBlockedPhrases() async throws {
        let catalog = """
            intents:
              OpenMenuIntent:
                - "show the menu [with ${applicationName}]"
              TipIntent:
                - "show the menu [(with | in) ${applicationName}]"
            negative:
              - "order a latte with ${applicationName}"
            """
        let messages = try await Coffee.matcher(catalog: catalog).lint().map(\.message)
        #expect(
            messages.contains {
                $0.contains("is blocked by the negative phrase \"order a latte with ${applicationName}\"")
            })
        #expect(messages.contains { $0.contains("reaches both") })
    }
}
