import PhraseMatching
import Testing
import VoiceEvaluation
import VoiceTestSupport

@testable import VoiceRecognition
@testable import VoiceUnderstanding

/// The word graph the recognizer searches: the grammar's language, made small.
@Suite("Word graph")
struct WordGraphTests {
    /// "open the map", "show the map", "open a list": built naively, one path each.
    static func naive() -> WordGraph {
        var graph = WordGraph()
        let end = graph.addState()
        for sentence in [["open", "the", "map"], ["show", "the", "map"], ["open", "a", "list"]] {
            graph.connect(graph.chain(sentence, from: graph.start), end)
        }
        graph.finals = [end]
        return graph
    }

    @Test func minimisingKeepsTheLanguageAndSharesBeginningsAndEndings() {
        let naive = Self.naive()
        let minimal = naive.minimized()
        for sentence in ["open the map", "show the map", "open a list"] {
            #expect(naive.accepts(sentence))
            #expect(minimal.accepts(sentence))
        }
        for sentence in ["show a list", "open the", "open the map map", ""] {
            #expect(!minimal.accepts(sentence))
        }
        // start -open-> s1, start -show-> s2, s1 -the-> s3, s2 -the-> s3, s3 -map-> end,
        // s1 -a-> s4, s4 -list-> end: "the map" is shared, the two "open"s are one arc.
        #expect(minimal.stateCount == 6)
        #expect(minimal.arcCount == 7)
        #expect(naive.arcCount == 12)
    }

    /// What the end of speech asks at a pause: is it a whole sentence, and may more follow?
    @Test func aReadingSaysWhetherASentenceIsWholeAndMayGoOn() {
        var graph = WordGraph()
        let lights = graph.chain(["turn", "on", "the", "lights"], from: graph.start)
        let room = graph.chain(["in", "the", "kitchen"], from: lights)
        graph.finals = [lights, room]
        for graph in [graph, graph.minimized()] {
            #expect(graph.reading(of: "turn on the lights") == (true, true))
            #expect(graph.reading(of: "turn on the lights in the kitchen") == (true, false))
            #expect(graph.reading(of: "turn on the") == (false, true))
            #expect(graph.reading(of: "turn off") == (false, false))
        }
    }

    /// A whole command that the grammar lets go on only with words that take no value ("in
    /// travel tracking", "right now" at the end of a phrase) cannot go on; one that may go on with
    /// a value ("for three") can; words that are no whole command yet go on as before.
    @Test func aCommandGoesOnOnlyWithWordsThatCouldChangeWhatItMeans() async throws {
        let grammar = SpeechGrammar(try await TestModels.travelTrackingMatcher().spokenForms, name: "travel")
        for command in [
            "switch to the world map", "how crowded is the sagrada familia",
            "how crowded is the sagrada familia right now", "what is the closest landmark",
        ] {
            #expect(grammar.reading(of: command) == (true, false), "\(command)")
            #expect(grammar.graph.reading(of: command) == (true, true), "\(command)")
            #expect(grammar.reading(of: command + " in travel tracking") == (true, false), "\(command)")
        }
        #expect(grammar.reading(of: "find tickets to the great pyramid") == (true, true))
        #expect(grammar.reading(of: "navigate to map") == (false, true))
        #expect(grammar.reading(of: "navigate to map in") == (false, true))
    }

    /// The end of speech reads the recognizer's transcript (words of the grammar) straight off
    /// the graph, without the phrase normaliser: on every beginning of every test sentence of two
    /// sample apps, that reads as the sentence written.
    @Test func theRecognizersWordsReadAsTheSentenceWritten() async throws {
        for (matcher, tests) in [
            (try await TestModels.travelTrackingMatcher(), "travel-tracking"),
            (try await TestModels.libraryMatcher(), "library"),
        ] {
            let grammar = SpeechGrammar(matcher.spokenForms, name: tests)
            var compared = 0
            for sentence in try PhraseTestSuite.cases(in: "Phrases/en/tests/\(tests).yaml").map(\.sentence)
            where grammar.canSay(sentence) {
                let words = SpeechGrammar.spokenWords(sentence)
                for end in 1...words.count {
                    let heard = words[..<end].joined(separator: " ")
                    let written = grammar.reading(of: heard)
                    let read = grammar.reading(ofHeard: heard)
                    #expect(read == written, "\(tests): \"\(heard)\"")
                    compared += 1
                }
            }
            #expect(compared > 500, "\(tests): \(compared)")
        }
    }

    @Test func theFSGSharesEachStatesProbabilityAmongItsArcs() {
        let fsg = Self.naive().minimized().fsg(name: "test")
        let lines = fsg.split(separator: "\n")
        #expect(lines.first == "FSG_BEGIN test")
        #expect(lines.contains("NUM_STATES 7"))
        #expect(lines.last == "FSG_END")
        var totals: [Substring: Double] = [:]
        for line in lines where line.hasPrefix("TRANSITION") {
            let fields = line.split(separator: " ")
            totals[fields[1], default: 0] += Double(fields[3])!
        }
        #expect(totals.count == 6)
        #expect(totals.values.allSatisfy { abs($0 - 1) < 1e-9 })
    }

    /// AddBook takes free text (its title), but "add a book to library" names no parameter:
    /// the grammar keeps it, and leaves out only the phrases that say a free-text placeholder
    /// without suggestions (the author's, the recommender's).
    @Test func aPhraseIsLeftOutOnlyForTheFreeTextItSays() async throws {
        let grammar = SpeechGrammar(try await TestModels.libraryMatcher().spokenForms, name: "library")
        #expect(grammar.canSay("add a book to library"))
        #expect(grammar.canSay("put a new book in my library"))
        #expect(!grammar.canSay("add dune by frank herbert to library"))
        #expect(!grammar.canSay("sam recommended dune add it to my library"))
        #expect(grammar.freeTextPhrases > 0)
    }

    /// AddBook's title is free text with the catalogue's titles as suggestions: the grammar says
    /// those titles where the phrase has the title, and no other words there.
    @Test func aSuggestedTitleCanBeSaidAndNoOther() async throws {
        let grammar = SpeechGrammar(try await TestModels.libraryMatcher().spokenForms, name: "library")
        #expect(grammar.canSay("add dune to my library"))
        #expect(grammar.canSay("Add The Hobbit to Book Library!"))
        #expect(grammar.canSay("save the novel middlemarch into library"))
        #expect(!grammar.canSay("add harry potter to my library"))
        #expect(!grammar.canSay("add the name of the wind to library"))
    }

    @Test func theAppGrammarSaysWhatItsPhrasesSayAndNothingElse() async throws {
        let grammar = SpeechGrammar(
            try await TestModels.travelTrackingMatcher().spokenForms, name: "travel-tracking")
        #expect(grammar.canSay("Navigate to the map in Travel Tracking."))
        #expect(grammar.canSay("find 23 tickets for machu picchu with travel tracking"))
        #expect(grammar.canSay("What's the closest landmark in travel tracking?"))
        #expect(grammar.canSay("what is the closest landmark in travel tracking"))
        #expect(!grammar.canSay("navigate to the map please in travel tracking"))
        #expect(!grammar.canSay("how busy is the louvre in travel tracking"))
        #expect(grammar.words.contains("what's"))
        let size = grammar.graphSize
        #expect(size.states > 100 && size.states < 2_000)
        #expect(grammar.fsg.hasPrefix("FSG_BEGIN travel_tracking\n"))
    }

    /// A name of several words is one word of the graph, so the graph needs no state inside a
    /// name in any of the places the name is said; sentences are still said word by word.
    @Test func namesOfSeveralWordsAreOneWordOfTheGraph() async throws {
        let forms = try await TestModels.travelTrackingMatcher().spokenForms
        let grammar = SpeechGrammar(forms, name: "travel-tracking")
        let wordByWord = SpeechGrammar(forms, name: "travel-tracking", namesAsOneWord: false)
        #expect(
            grammar.compounds.isSuperset(of: ["machu_picchu", "statue_of_liberty", "golden_gate_bridge"]))
        #expect(wordByWord.compounds.isEmpty)
        #expect(grammar.fsg.contains(" machu_picchu\n"))
        #expect(!grammar.fsg.contains(" machu\n"))
        // The JSGF, the words the dictionary needs and the sentences said are the same.
        #expect(grammar.jsgf == wordByWord.jsgf)
        #expect(grammar.words == wordByWord.words)
        #expect(!grammar.words.contains { CompoundWord.isCompound($0) })
        for sentence in [
            "find 2 tickets for machu picchu with travel tracking",
            "how busy is the golden gate in travel tracking",
            "how busy is the golden gate bridge in travel tracking", "how busy is kyoto in travel tracking",
        ] {
            #expect(grammar.canSay(sentence), "\(sentence)")
        }
        for sentence in [
            "how busy is machu in travel tracking",
            "how busy is the golden gate bridge bridge in travel tracking",
        ] {
            #expect(!grammar.canSay(sentence), "\(sentence)")
        }
        // Measured: 198 states against 625 word by word.
        #expect(grammar.graphSize.states * 2 < wordByWord.graphSize.states)
    }

    @Test func aCompoundIsSaidAsEveryCombinationOfItsWordsPronunciations() {
        #expect(CompoundWord.joining(["christ", "the", "redeemer"]) == "christ_the_redeemer")
        #expect(CompoundWord.parts(of: "christ_the_redeemer(2)") == ["christ", "the", "redeemer"])
        #expect(CompoundWord.parts(of: "kyoto") == ["kyoto"])
        #expect(
            CompoundWord.pronunciations(of: [["K R AY S T"], ["DH AH", "DH IY"], ["R IH D IY M ER"]]) == [
                "K R AY S T DH AH R IH D IY M ER", "K R AY S T DH IY R IH D IY M ER",
                "K R AY S T SIL DH AH SIL R IH D IY M ER",
            ])
        let many = CompoundWord.pronunciations(of: Array(repeating: ["A", "B"], count: 6), limit: 16)
        #expect(many.count == 17)
        #expect(many.first == "A A A A A A")
        #expect(many.last == "A SIL A SIL A SIL A SIL A SIL A")
    }

    /// Phrases written directly, with no app names: the JSGF stays valid for PocketSphinx.
    @Test func aGrammarWithoutAppNamesIsStillValidJSGF() throws {
        let forms = SpokenForms(phrases: [
            SpokenForms.Phrase(intent: "move", elements: [.word("go"), .word("forward")])
        ])
        let grammar = SpeechGrammar(forms, name: "robot")
        #expect(grammar.jsgf.contains("<app> = <VOID>;"))
        #expect(grammar.canSay("go forward"))
        let recognizer = try SpeechRecognizer(try TestModels.configuration())
        try recognizer.useGrammar(grammar, form: .jsgf)
        try recognizer.useGrammar(grammar)
    }

    /// Free text is dictation's: an answer grammar for it holds only the cancel words, never
    /// silence or a lone "the".
    @Test func anAnswerGrammarLeavesFreeTextToDictation() {
        let grammar = SpeechGrammar(answers: [.values(.freeText), .values(.integer())], name: "title")
        #expect(grammar.canSay("twenty three"))
        #expect(grammar.canSay("never mind"))
        #expect(!grammar.canSay(""))
        #expect(!grammar.canSay("the"))
    }

    /// An answer may begin with "uh" or "um", once; a grammar made without hesitations (as the
    /// voice loop makes a confirmation's) has none, and the conversation reads past them.
    @Test func anAnswerMayBeginWithAHesitation() {
        let grammar = SpeechGrammar(answers: [.values(.integer())], name: "number")
        #expect(grammar.canSay("um three"))
        #expect(grammar.canSay("uh never mind"))
        #expect(!grammar.canSay("um"))
        #expect(!grammar.canSay("three um"))
        #expect(grammar.jsgf.contains("public <utterance> = [ <hesitation> ] <answer>;\n"), "\(grammar.jsgf)")
        #expect(grammar.words.isSuperset(of: ["uh", "um"]))
        let strict = SpeechGrammar(answers: [.yesOrNo], name: "confirmation", hesitations: [])
        #expect(strict.canSay("yes"))
        #expect(!strict.canSay("um yes"))
        #expect(strict.jsgf.contains("public <answer> = "))
        #expect(SpeechGrammar.withoutHesitation("um three") == "three")
        #expect(SpeechGrammar.withoutHesitation("uh um yes") == "yes")
        #expect(SpeechGrammar.withoutHesitation("three um") == "three um")
        #expect(SpeechGrammar.withoutHesitation("number four") == "number four")
    }

    /// Free text with suggestions is answered as names are: one of them, or "the Dune one".
    @Test func anAnswerGrammarOffersSuggestedText() {
        let grammar = SpeechGrammar(
            answers: [.values(.suggestedText([["dune"], ["the", "hobbit"]]))], name: "title")
        #expect(grammar.canSay("the hobbit"))
        #expect(grammar.canSay("the dune one"))
        #expect(!grammar.canSay("harry potter"))
    }

    /// Asked "Which landmark?", people say one word of a long name: the answer grammar hears it.
    @Test func shortFormsAreTheContentWordsOfLongNames() {
        let names = [
            "Niagara Falls", "Victoria Falls", "Great Wall of China", "Christ the Redeemer", "Kinkaku-ji",
            "Uluru", "Apollo 11", "Mount Uluru",
        ]
        #expect(
            SpeechGrammar.shortForms(of: names) == [
                "niagara", "falls", "victoria", "great", "wall", "china", "christ", "redeemer", "kinkaku",
                "apollo", "mount",
            ])
        #expect(SpeechGrammar.shortForms(of: ["Uluru", "Petra"]).isEmpty)
        let answers = (names + SpeechGrammar.shortForms(of: names)).map(SpeechGrammar.spokenWords)
        let grammar = SpeechGrammar(answers: [.values(.names(answers))], name: "landmark")
        for answer in ["niagara", "the falls", "the victoria one", "great wall of china", "uluru"] {
            #expect(grammar.canSay(answer), "\(answer)")
        }
        #expect(!grammar.canSay("of"))
        #expect(!grammar.canSay("ji"))
    }

    /// "The Kyoto one" names a landmark; "the eleven" and "twenty six one" are no numbers.
    @Test func onlyNamesTakeTheAndOneAround() {
        let grammar = SpeechGrammar(
            answers: [.values(.names([["kyoto"]])), .values(.integer()), .values(.date)], name: "answer")
        #expect(grammar.canSay("the kyoto one"))
        #expect(grammar.canSay("eleven"))
        #expect(grammar.canSay("twenty six"))
        #expect(grammar.canSay("next friday"))
        #expect(!grammar.canSay("the eleven"))
        // (canSay would read the words as 27 first.)
        #expect(!grammar.graph.accepts("twenty six one"))
        #expect(!grammar.canSay("the friday one"))
        #expect(grammar.jsgf.contains("( <number"), "\(grammar.jsgf)")
    }

    /// Numbers as people say them: up to the thousands when the parameter is unbounded, as large
    /// as it takes when bounded, and fractions where it takes them.
    @Test func numbersAreSaidAsLargeAsTheParameterTakes() {
        let any = SpeechGrammar(answers: [.values(.integer())], name: "number")
        for said in [
            "one hundred and twenty", "one hundred twenty", "twelve hundred", "two thousand",
            "two thousand five hundred", "a thousand", "a hundred and five", "ninety nine", "a dozen",
        ] {
            #expect(any.canSay(said), "\(said)")
        }
        #expect(!any.canSay("twenty four point five"))
        #expect(!any.graph.accepts("two thousand thousand"))
        let percent = SpeechGrammar(answers: [.values(.integer(largest: 100))], name: "percent")
        #expect(percent.canSay("one hundred") && percent.canSay("fifty"))
        #expect(!percent.canSay("two thousand"))
        let small = SpeechGrammar(answers: [.values(.integer(largest: 12))], name: "small")
        #expect(small.canSay("twelve") && !small.canSay("one hundred"))
        let degrees = SpeechGrammar(answers: [.values(.decimal(largest: 40))], name: "degrees")
        for said in ["twenty four point five", "twenty two and a half", "one and three quarters", "twenty"] {
            #expect(degrees.canSay(said), "\(said)")
        }
        #expect(!degrees.canSay("twenty and a"))
        // No tens word above the range: "ninety" is not there to be heard for "nineteen".
        #expect(!degrees.canSay("fifty") && !degrees.canSay("ninety point five") && degrees.canSay("forty"))
        #expect(degrees.canSay("nineteen") && degrees.canSay("thirty nine"))
        #expect(!degrees.jsgf.contains("fifty") && degrees.jsgf.contains("forty"), "\(degrees.jsgf)")
        #expect(!small.canSay("twenty") && !small.canSay("thirteen") && small.canSay("a dozen"))
        // The JSGF the same grammar is written as says the same.
        #expect(degrees.jsgf.contains("and three quarters"), "\(degrees.jsgf)")
        #expect(any.jsgf.contains("thousand"), "\(any.jsgf)")
    }

    @Test func sentencesAreSpelledAsTheGrammarSaysThem() {
        #expect(SpeechGrammar.spokenWords("Find 2 tickets!") == ["find", "two", "tickets"])
        #expect(SpeechGrammar.spokenWords("2.5 stars") == ["two", "point", "five", "stars"])
        #expect(SpeechGrammar.spokenWords("what's 23") == ["what", "is", "twenty", "three"])
        #expect(
            SpeechGrammar.spokenWords("1200 visitors") == ["one", "thousand", "two", "hundred", "visitors"])
        #expect(SpeechGrammar.spokenWords("two thousand") == ["two", "thousand"])
        #expect(SpeechGrammar.spokenWords("12000") == ["twelve", "thousand"])
    }
}
