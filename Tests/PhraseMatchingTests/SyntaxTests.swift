import PhraseMatching
import Testing

@Suite("Phrase syntax")
struct SyntaxTests {
    @Test func wordsAndPlaceholders() throws {
        let pattern = try PhraseParser.parse("Navigate to ${navigationOption} in ${applicationName}")
        #expect(
            pattern.elements == [
                .word("navigate"), .word("to"), .placeholder("navigationOption"), .word("in"),
                .applicationName,
            ])
        #expect(pattern.placeholders == ["navigationOption"])
    }

    @Test func optionalPartsNestAndHoldPlaceholders() throws {
        let pattern = try PhraseParser.parse("coffee [with ${milk} [and ${sugar}]]")
        #expect(
            pattern.elements == [
                .word("coffee"),
                .optional([
                    .word("with"), .placeholder("milk"), .optional([.word("and"), .placeholder("sugar")]),
                ]),
            ])
        #expect(pattern.placeholders == ["milk", "sugar"])
    }

    @Test func alternativesMayBeEmpty() throws {
        let pattern = try PhraseParser.parse("(show | open | ) it")
        #expect(pattern.elements == [.alternatives([[.word("show")], [.word("open")], []]), .word("it")])
    }

    @Test func optionalChoicesNeedNoInnerGroup() throws {
        #expect(
            try PhraseParser.parse("[please | kindly] stop").elements == [
                .optional([.alternatives([[.word("please")], [.word("kindly")]])]), .word("stop"),
            ])
        #expect(
            try PhraseParser.parse("[please | kindly] stop").elements
                == (try PhraseParser.parse("[(please | kindly)] stop")).elements)
    }

    @Test func endingsInsideAWordAreOptional() throws {
        #expect(
            try PhraseParser.parse("turn on the light[s]").elements == [
                .word("turn"), .word("on"), .word("the"),
                .alternatives([[.word("light")], [.word("lights")]]),
            ])
        #expect(
            try PhraseParser.parse("${minutes} minute[s | es]").elements == [
                .placeholder("minutes"),
                .alternatives([[.word("minute")], [.word("minutes")], [.word("minutees")]]),
            ])
        // A space before "[" makes an optional word, as before.
        #expect(
            try PhraseParser.parse("list [s]").elements == [.word("list"), .optional([.word("s")])])
    }

    /// Home Assistant's templates: `{list}` and `{list:slot}`, alternatives outside any group,
    /// endings glued to a word (required ones too) and words that go on after an ending.
    @Test func hassilTemplates() throws {
        func elements(_ text: String) throws -> [PhraseElement] {
            try PhraseParser.parse(text, dialect: .hassil).elements
        }
        #expect(
            try elements("set {name} to {brightness:level}") == [
                .word("set"), .placeholder("name"), .word("to"), .placeholder("level"),
            ])
        #expect(
            try elements("lights on | lamps on") == [
                .alternatives([[.word("lights"), .word("on")], [.word("lamps"), .word("on")]])
            ])
        #expect(
            try elements("turn(s|ed) on") == [
                .alternatives([[.word("turns")], [.word("turned")]]), .word("on"),
            ])
        #expect(
            try elements("dim(s|) it") == [.alternatives([[.word("dim")], [.word("dims")]]), .word("it")])
        #expect(try elements("colo[u]r") == [.alternatives([[.word("color")], [.word("colour")]])])
        // Optional spaces and signs are no words ("{temperature}[([ ]°)|( degree[s])]").
        #expect(
            try elements("day[ ]light") == [
                .alternatives([[.word("daylight")], [.word("day"), .word("light")]])
            ])
        #expect(
            try elements("{t}[([ ]°)|( degree[s])]") == [
                .placeholder("t"),
                .optional([.alternatives([[.alternatives([[.word("degree")], [.word("degrees")]])]])]),
            ])
        // `${` is the catalog's, and a group of its own stays a group.
        #expect(try elements("(a | b) c") == [.alternatives([[.word("a")], [.word("b")]]), .word("c")])
        #expect(
            throws: PhraseParser.SyntaxError(
                column: 6, message: "expected {list} or {list:slot} in { }, found \"a:b:c\"")
        ) {
            try PhraseParser.parse("set {a:b:c}", dialect: .hassil)
        }
        #expect(
            throws: PhraseParser.SyntaxError(
                column: 7, message: "expected \")\", found the end of the phrase")
        ) {
            try PhraseParser.parse("(a | b", dialect: .hassil)
        }
    }

    @Test func partsInAnyOrder() throws {
        let pattern = try PhraseParser.parse("a (${size} ; ${roast} ; [${shots} shot]) ${drink}")
        #expect(
            pattern.elements == [
                .word("a"),
                .permutation([
                    [.placeholder("size")], [.placeholder("roast")],
                    [.optional([.placeholder("shots"), .word("shot")])],
                ]),
                .placeholder("drink"),
            ])
    }

    @Test func escapesAndAppNameUse() throws {
        #expect(try PhraseParser.parse("say \\(hello\\)").elements == [.word("say"), .word("hello")])
        #expect(try PhraseParser.parse("[in ${applicationName}]").applicationNameUse == (0, 1) as (Int, Int))
        #expect(
            try PhraseParser.parse("${applicationName} or ${applicationName}").applicationNameUse == (2, 2)
                as (Int, Int))
    }

    @Test(arguments: [
        ("(show | open", 13, "expected \")\", found the end of the phrase"),
        ("show ]", 6, "expected a word or the end of the phrase, found \"]\""),
        ("open ${name", 6, "expected \"}\" to close \"${\", found the end of the phrase"),
        ("open ${na me}", 8, "expected a parameter name in ${ }, found \"na me\""),
        ("   ", 1, "the phrase is empty"),
        ("[ ] x", 1, "expected words inside [ ], found nothing"),
        ("(a | b ; c)", 8, "a group uses either \"|\" (one of) or \";\" (any order), not both"),
        (
            "[a ; b]", 4,
            "an optional part takes \"|\" (one of), not \";\"; write [(a ; b)] for parts in any order"
        ),
        ("[a | ]", 1, "an optional part has an empty choice"),
        ("light[s", 8, "expected \"]\", found the end of the phrase"),
        ("light[${x}]", 7, "expected letters that end the word before \"[\" (as in light[s]), found \"$\""),
        (
            "light[s x]", 6,
            "an ending inside a word takes letters only (light[s]); put a space before \"[\" for an optional word"
        ),
        ("light[s]bulb", 9, "expected a space after the ending \"]\", found \"b\""),
        ("trailing \\", 11, "expected a character after \\, found the end of the phrase"),
        // Found by fuzzing: thousands of brackets ran a debug build out of stack.
        (String(repeating: "(", count: 4_000), 33, "brackets nest more than 32 deep"),
        (String(repeating: "[a ", count: 40), 97, "brackets nest more than 32 deep"),
    ])
    func errorsSayWhereAndWhat(_ phrase: String, _ column: Int, _ message: String) {
        #expect(throws: PhraseParser.SyntaxError(column: column, message: message)) {
            try PhraseParser.parse(phrase)
        }
    }

    /// Brackets nested as deep as the parser allows are read.
    @Test func nestingUpToTheLimitIsRead() throws {
        let depth = PhraseParser.deepestNesting
        let deep = String(repeating: "(a ", count: depth) + "b" + String(repeating: ")", count: depth)
        let pattern = try PhraseParser.parse(deep)
        #expect(pattern.placeholders.isEmpty)
    }
}
