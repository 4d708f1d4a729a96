/// A JSGF grammar of everything an app can hear: its phrases (Swift and catalog, negative ones
/// too, so they can be heard and rejected), enum and entity names, spoken numbers, yes and no,
/// days, and the app's names.
///
/// `VoiceUnderstanding` writes it from an app's phrases:
///
/// ```swift
/// let grammar = SpeechGrammar(matcher.spokenForms, name: "travel_tracking")
/// print(grammar.jsgf)
/// ```
///
/// A free-text placeholder with suggestions (from a parameter's `DynamicOptionsProvider`) is
/// said as one of them: "add dune to my library". The grammar holds the suggestions the matcher
/// was given when it was made. Phrases with any other free-text placeholder (or a web address)
/// cannot be written as a grammar; they are left out and counted in ``freeTextPhrases`` (such
/// values are heard by dictation).
public struct SpeechGrammar: Sendable {
    /// The grammar's name (a JSGF identifier).
    package let name: String
    /// The grammar text.
    package let jsgf: String
    /// Every word the grammar uses: each must be in the recognizer's dictionary.
    package let words: Set<String>
    /// The names of several words that the graph says as one word each (``CompoundWord``):
    /// the recognizer makes their pronunciations from their words'.
    package let compounds: Set<String>
    /// The graph's words that are names in a slot, as the search has them: one word each
    /// (``CompoundWord``), or the first word of a name said word by word. ``DecoyCheck`` puts
    /// decoys beside them.
    package let nameWords: Set<String>
    /// Whether the grammar is an app's commands (not answers to a question, which the
    /// ``DecoyCheck`` leaves alone).
    package let isCommands: Bool
    /// The phrases left out because a placeholder takes free text without suggestions (or a web
    /// address) and no ``freeText`` words were given.
    package let freeTextPhrases: Int
    /// The words the graph's free-text slots are heard as; `nil` when it has none.
    package let freeText: FreeTextWords?
    /// The same language as a minimal deterministic word graph: what the recognizer searches.
    package let graph: WordGraph
    /// The language with the endings that say nothing new left out (an optional "in travel
    /// tracking", "right now" at the end of a phrase): what may follow a whole command and still
    /// change what it means. `nil` when it is ``graph``'s own.
    package let news: WordGraph?

    /// The grammar in PocketSphinx's FSG format, as the recognizer loads it: the JSGF's language
    /// as a minimal graph, in which phrases share their beginnings and endings. Written once, when
    /// the grammar is made: the voice loop sets its grammar before every utterance.
    package let fsg: String

    /// The size of the graph the recognizer searches.
    package var graphSize: (states: Int, arcs: Int) { (graph.stateCount, graph.arcCount) }

    /// The wake phrase the grammar starts with, if any, as words ("hey travel tracking").
    package let wakePhrase: [String]?

    /// The hesitations a command, or an answer, may begin with: "uh find two tickets for petra",
    /// "um three". Without them the grammar had to cover the "uh" with the first word or a
    /// noise, and heard 344 of 430 such commands right against 371 with them (TravelTracking,
    /// five voices, clean and pink 10 dB; `Benchmarks/Recognition/README.md`, "Hesitations"). The transcript
    /// keeps the word; the matcher ignores it as a filler, and the conversation reads an answer
    /// without it (``withoutHesitation(_:)``).
    package static let hesitations = ["uh", "um"]

    /// The hesitations this grammar lets a command begin with.
    package let hesitationWords: Set<String>

    /// The garbage path the recognizer searches beside the commands, if any (``GarbageModel``).
    /// It is in ``fsg`` only; the JSGF has none.
    package let garbage: GarbageModel?

    /// A grammar whose JSGF is `jsgf` and whose language is `graph`, as the module that writes
    /// grammars from phrases (or answers) makes it.
    ///
    /// - Parameters:
    ///   - words: The words the JSGF uses; the graph's own are added, compounds split.
    ///   - garbage: The garbage path searched beside the graph's sentences, if any.
    ///   - wakePhrase: The words of the wake phrase the graph starts with, if any.
    ///   - nameWords: The graph's words that are names in a slot (the decoy check's business).
    ///   - hesitationWords: The words a sentence may begin with that say nothing.
    ///   - isCommands: Whether these are an app's commands rather than answers to a question.
    ///   - freeTextPhrases: How many phrases could not be written.
    ///   - freeText: The words the graph's free-text slots (``FreeTextWords/marker``) are heard
    ///     as; without them, those slots are left out of the FSG.
    ///   - news: The language without the endings that say nothing new, where it differs from
    ///     `graph`'s: whether a whole command may go on is read off it.
    package init(
        name: String, jsgf: String, words: Set<String>, graph: WordGraph, garbage: GarbageModel? = nil,
        wakePhrase: [String]? = nil, nameWords: Set<String> = [], hesitationWords: Set<String> = [],
        isCommands: Bool = false, freeTextPhrases: Int = 0, news: WordGraph? = nil,
        freeText: FreeTextWords? = nil
    ) {
        self.name = name
        self.jsgf = jsgf
        self.graph = graph
        self.news = news
        let (spoken, compounds) = Self.words(words, graph)
        let freeText = graph.hasFreeText ? freeText : nil
        self.words = spoken.union(garbage == nil ? [] : GarbageModel.words).union(freeText?.words ?? [])
        self.compounds = compounds
        self.fsg = graph.fsg(name: name, garbage: garbage, freeText: freeText)
        self.freeText = freeText
        self.garbage = garbage
        self.wakePhrase = wakePhrase
        self.nameWords = nameWords
        self.hesitationWords = hesitationWords
        self.isCommands = isCommands
        self.freeTextPhrases = freeTextPhrases
    }

    /// Whether the words heard so far (the recognizer's transcript: words of this grammar,
    /// separated by spaces) are a whole sentence, and whether the grammar lets more words follow
    /// that could change what they mean: what the end of speech asks at a pause. A whole command
    /// whose phrases may go on only with words that say nothing new ("switch to the world map" …
    /// "in travel tracking") cannot go on.
    package func reading(ofHeard heard: String) -> (isWhole: Bool, canGoOn: Bool) {
        let reading = graph.reading(of: heard)
        guard reading.isWhole, reading.canGoOn, let news else { return reading }
        return (true, news.reading(of: heard).canGoOn)
    }

    /// The words of a grammar whose JSGF says `words` and whose graph is `graph`, and the
    /// graph's compounds.
    private static func words(_ words: Set<String>, _ graph: WordGraph) -> (
        Set<String>, compounds: Set<String>
    ) {
        let said = graph.words
        let compounds = said.filter(CompoundWord.isCompound)
        return (
            words.union(said.subtracting(compounds)).union(compounds.flatMap(CompoundWord.parts)), compounds
        )
    }
}
