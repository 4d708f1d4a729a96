import PhraseMatching
import VoiceIntents

/// A JSGF grammar of everything an app can hear: its phrases (Swift and catalog, negative ones
/// too, so they can be heard and rejected), enum and entity names, spoken numbers, yes and no,
/// days, and the app's names.
///
/// ```swift
/// let grammar = SpeechGrammar(matcher.spokenForms, name: "travel_tracking")
/// print(grammar.jsgf)
/// ```
///
/// A free-text placeholder with suggestions (``SpokenForms/Values/suggestedText(_:)``, from a
/// parameter's `DynamicOptionsProvider`) is said as one of them: "add dune to my library". The
/// grammar holds the suggestions the matcher was given when it was made. Phrases with any other
/// free-text placeholder (or a web address) cannot be written as a grammar; they are left out
/// and counted in ``freeTextPhrases`` (such values are heard by dictation).
public struct SpeechGrammar: Sendable {
    /// The grammar's name (a JSGF identifier).
    public let name: String
    /// The grammar text.
    public let jsgf: String
    /// Every word the grammar uses: each must be in the recognizer's dictionary.
    public let words: Set<String>
    /// The names of several words that the graph says as one word each (``CompoundWord``):
    /// the recognizer makes their pronunciations from their words'.
    let compounds: Set<String>
    /// The graph's words that are names in a slot, as the search has them: one word each
    /// (``CompoundWord``), or the first word of a name said word by word. ``DecoyCheck`` puts
    /// decoys beside them.
    let nameWords: Set<String>
    /// Whether the grammar is an app's commands (not answers to a question, which the
    /// ``DecoyCheck`` leaves alone).
    let isCommands: Bool
    /// The phrases left out because a placeholder takes free text without suggestions (or a web
    /// address).
    public let freeTextPhrases: Int
    /// The same language as a minimal deterministic word graph: what the recognizer searches.
    let graph: WordGraph

    /// The grammar in PocketSphinx's FSG format, as the recognizer loads it: the JSGF's language
    /// as a minimal graph, in which phrases share their beginnings and endings. Written once, when
    /// the grammar is made: the voice loop sets its grammar before every utterance.
    public let fsg: String

    /// Whether the grammar lets someone say `sentence` (written as a user would: "Find 2 tickets
    /// for Machu Picchu!"), so the recognizer can hear it word for word. Sentences that lean on
    /// the matcher's tolerance (an extra word, a misspelt name) are not in the grammar.
    public func canSay(_ sentence: String) -> Bool {
        graph.accepts(Self.spokenWords(sentence).joined(separator: " "))
    }

    /// Whether `sentence` is a whole sentence of the grammar, and whether the grammar lets more
    /// words follow it ("turn on the lights" may go on "in the kitchen"): what the end of speech
    /// asks at a pause.
    public func reading(of sentence: String) -> (isWhole: Bool, canGoOn: Bool) {
        graph.reading(of: Self.spokenWords(sentence).joined(separator: " "))
    }

    /// The words of `sentence` as the grammar spells them: normalised, numbers as words.
    public static func spokenWords(_ sentence: String) -> [String] {
        TextNormalizer.tokens(sentence).flatMap { NumberWords.spokenToken($0.text) }
    }

    /// The size of the graph the recognizer searches.
    public var graphSize: (states: Int, arcs: Int) { (graph.stateCount, graph.arcCount) }

    /// The wake phrase the grammar starts with, if any, as words ("hey travel tracking").
    public let wakePhrase: [String]?

    /// The hesitations a command, or an answer, may begin with: "uh find two tickets for petra",
    /// "um three". Without them the grammar had to cover the "uh" with the first word or a
    /// noise, and heard 344 of 430 such commands right against 371 with them (TravelTracking,
    /// five voices, clean and pink 10 dB; `Benchmarks/Recognition/README.md`, "Hesitations"). The transcript
    /// keeps the word; the matcher ignores it as a filler, and the conversation reads an answer
    /// without it (``withoutHesitation(_:)``).
    public static let hesitations = ["uh", "um"]

    /// The hesitations this grammar lets a command begin with.
    let hesitationWords: Set<String>

    /// The garbage path the recognizer searches beside the commands, if any (``GarbageModel``).
    /// It is in ``fsg`` only; the JSGF has none.
    public let garbage: GarbageModel?

    /// Writes the grammar of `forms`.
    ///
    /// With a wake phrase, the grammar hears the wake phrase alone, the wake phrase followed by a
    /// command, or a command alone: keyword spotting found the wake phrase too rarely and
    /// mistook commands that end in the app's name for it, while a wake phrase folded into the
    /// grammar kept every command (see `../shared/SPEECH_FACTS.md` and Benchmarks/Recognition/README.md).
    ///
    /// - Parameters:
    ///   - forms: The app's spoken forms (``PhraseMatcher/spokenForms``).
    ///   - name: The grammar's name.
    ///   - wakePhrase: Words that wake the app ("Hey Travel Tracking"), or `nil`.
    ///   - garbage: A garbage path for sounds that are not commands, or `nil` (the default).
    ///   - namesAsOneWord: Whether a name of several words is one word to the recognizer
    ///     (``CompoundWord``; the default): a graph with fewer states, searched faster. `false`
    ///     is the speech benchmark's baseline.
    ///   - hesitations: Words a command may begin with, after the wake phrase if there is one
    ///     (``hesitations``, the default; `[]` for none).
    public init(
        _ forms: SpokenForms, name: String, wakePhrase: String? = nil, garbage: GarbageModel? = nil,
        namesAsOneWord: Bool = true, hesitations: [String] = SpeechGrammar.hesitations
    ) {
        let wake = wakePhrase.map(Self.spokenWords).flatMap { $0.isEmpty ? nil : $0 }
        var writer = Writer()
        let application = Self.applicationNames(forms).map { $0.joined(separator: " ") }
        var alternatives: [String] = []
        var skipped = 0
        for phrase in forms.phrases {
            guard Self.canWrite(phrase) else {
                skipped += 1
                continue
            }
            let body = writer.sequence(phrase.elements, phrase.placeholders)
            if !body.isEmpty, !alternatives.contains(body) { alternatives.append(body) }
        }
        var lines = ["#JSGF V1.0;", "", "grammar \(Writer.identifier(name));", ""]
        let hesitated = hesitations.isEmpty ? "<command>" : "[ <hesitation> ] <command>"
        if let wake {
            lines.append(
                "public <utterance> = \(wake.joined(separator: " ")) [ \(hesitated) ] | \(hesitated);")
            lines.append("")
        } else if !hesitations.isEmpty {
            lines.append("public <utterance> = \(hesitated);")
            lines.append("")
        }
        lines.append(
            (wake == nil && hesitations.isEmpty ? "public " : "") + "<command> = "
                + alternatives.map { "( \($0) )" }.joined(separator: "\n    | ") + ";")
        lines.append("")
        // JSGF has no empty alternative: an app without spoken names matches nothing there.
        lines.append(
            "<app> = " + (application.isEmpty ? "<VOID>" : application.joined(separator: " | ")) + ";")
        if let rule = writer.hesitationRule(hesitations) { lines.append(rule) }
        for (rule, body) in writer.rules.sorted(by: { $0.key < $1.key }) {
            lines.append("<\(rule)> = \(body);")
        }
        self.name = Writer.identifier(name)
        self.jsgf = lines.joined(separator: "\n") + "\n"
        var words = writer.words
        for name in application { words.formUnion(name.split(separator: " ").map(String.init)) }
        self.freeTextPhrases = skipped
        self.wakePhrase = wake
        self.garbage = garbage
        self.graph = WordGraph(
            forms, wakePhrase: wake, garbage: garbage, namesAsOneWord: namesAsOneWord,
            hesitations: hesitations)
        self.hesitationWords = Set(hesitations)
        self.isCommands = true
        self.nameWords = Set(
            forms.phrases.flatMap(\.placeholders.values).flatMap { values -> [String] in
                switch values {
                case .names(let names), .suggestedText(let names):
                    return names.compactMap {
                        CompoundWord.searchWords(of: $0, asOneWord: namesAsOneWord).first
                    }
                default: return []
                }
            })
        self.fsg = graph.fsg(name: self.name, garbage: garbage)
        let (spoken, compounds) = Self.words(words, graph)
        self.words = spoken.union(garbage == nil ? [] : GarbageModel.words)
        self.compounds = compounds
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

    /// Whether a grammar can hold `phrase`: none of its placeholders takes any words without
    /// suggestions (free text, a web address).
    static func canWrite(_ phrase: SpokenForms.Phrase) -> Bool {
        !phrase.placeholders.values.contains { $0 == .freeText || $0 == .url }
    }

    /// The app's names as words to say. A name written as one word ("traveltracking") is left
    /// out when it is another name run together: it sounds the same, and the recognizer would
    /// pick either.
    static func applicationNames(_ forms: SpokenForms) -> [[String]] {
        let names = forms.applicationNames.map { $0.flatMap(NumberWords.spokenToken) }
        let runTogether = Set(names.filter { $0.count > 1 }.map { $0.joined() })
        return names.filter { $0.count > 1 || !runTogether.contains($0[0]) }
    }

    /// A grammar made elsewhere in this module (answers to questions).
    init(name: String, jsgf: String, words: Set<String>, graph: WordGraph) {
        self.name = name
        self.jsgf = jsgf
        (self.words, self.compounds) = Self.words(words, graph)
        self.graph = graph
        self.fsg = graph.fsg(name: name)
        self.freeTextPhrases = 0
        self.wakePhrase = nil
        self.garbage = nil
        self.nameWords = []
        self.hesitationWords = []
        self.isCommands = false
    }

    /// Builds rule bodies and collects the words they use.
    struct Writer {
        var rules: [String: String] = [:]
        var words = Set<String>()
        private var valueRules: [SpokenForms.Values: String] = [:]

        static func identifier(_ name: String) -> String {
            let cleaned = name.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "_" }
            return String(cleaned)
        }

        /// A token as a word to say: digits spelled out.
        static func spoken(_ token: String) -> String {
            if let number = Int(token) { return NumberWords.spell(number) }
            return token
        }

        /// The `<hesitation>` rule line for `hesitations`, its words counted; `nil` for none.
        mutating func hesitationRule(_ hesitations: [String]) -> String? {
            guard !hesitations.isEmpty else { return nil }
            words.formUnion(hesitations)
            return "<hesitation> = \(hesitations.joined(separator: " | "));"
        }

        mutating func sequence(_ elements: [PhraseElement], _ placeholders: [String: SpokenForms.Values])
            -> String
        {
            elements.map { element(in: $0, placeholders) }.filter { !$0.isEmpty }.joined(separator: " ")
        }

        mutating func element(in element: PhraseElement, _ placeholders: [String: SpokenForms.Values])
            -> String
        {
            switch element {
            case .word(let word):
                let spoken = Self.spoken(word)
                words.formUnion(spoken.split(separator: " ").map(String.init))
                return spoken
            case .applicationName:
                return "<app>"
            case .placeholder(let name):
                return placeholders[name].map { rule(for: $0) } ?? ""
            case .optional(let inner):
                let body = sequence(inner, placeholders)
                return body.isEmpty ? "" : "[ \(body) ]"
            case .alternatives(let branches):
                let bodies = branches.map { sequence($0, placeholders) }
                let filled = bodies.filter { !$0.isEmpty }
                guard !filled.isEmpty else { return "" }
                let group = "( " + filled.joined(separator: " | ") + " )"
                // An empty alternative makes the group optional.
                return filled.count < bodies.count ? "[ \(group) ]" : group
            case .permutation(let parts):
                let orders = Self.orders(of: parts).map { sequence($0.flatMap { $0 }, placeholders) }
                return "( " + orders.joined(separator: " | ") + " )"
            }
        }

        static func orders(of parts: [[PhraseElement]]) -> [[[PhraseElement]]] {
            guard parts.count > 1 else { return [parts] }
            return parts.indices.flatMap { index in
                var rest = parts
                let first = rest.remove(at: index)
                return orders(of: rest).map { [first] + $0 }
            }
        }

        /// The rule for a kind of value, written once.
        mutating func rule(for values: SpokenForms.Values) -> String {
            if let existing = valueRules[values] { return "<\(existing)>" }
            let name: String
            let body: String
            switch values {
            case .names(let names), .suggestedText(let names):
                name = "value\(valueRules.count)"
                let spoken = Set(names.map { $0.map(Self.spoken).joined(separator: " ") }).sorted()
                for phrase in spoken { words.formUnion(phrase.split(separator: " ").map(String.init)) }
                body = spoken.isEmpty ? "<VOID>" : spoken.joined(separator: " | ")
            case .integer:
                name = "number"
                body = NumberWords.grammar
                words.formUnion(NumberWords.words)
            case .decimal:
                name = "decimal"
                _ = rule(for: .integer)
                body = "<number> [ point ( \(NumberWords.units.joined(separator: " | ")) )+ ]"
                words.formUnion(["point"] + NumberWords.units)
            case .boolean:
                name = "yes_no"
                body = "yes | no | true | false"
                words.formUnion(["yes", "no", "true", "false"])
            case .date:
                name = "day"
                let days = NumberWords.weekdays
                body = "today | tomorrow | yesterday | [ next | this ] ( \(days.joined(separator: " | ")) )"
                words.formUnion(["today", "tomorrow", "yesterday", "next", "this"] + days)
            case .freeText, .url:
                return ""
            }
            valueRules[values] = name
            rules[name] = body
            return "<\(name)>"
        }
    }
}

/// English number words, for grammars and for saying digits.
enum NumberWords {
    static let units = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
    static let teens = [
        "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
        "nineteen",
    ]
    static let tens = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]

    /// Numbers from zero to ninety-nine, a dozen, a couple, and hundreds.
    static let grammar =
        "( \(units.joined(separator: " | ")) | \(teens.joined(separator: " | ")) "
        + "| ( \(tens.joined(separator: " | ")) ) [ \(units.dropFirst().joined(separator: " | ")) ] "
        + "| a dozen | a couple | ( a | \(units.dropFirst().joined(separator: " | ")) ) hundred )"

    static let weekdays = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

    /// A phrase token as the words to say: "23" → ["twenty", "three"], "map" → ["map"].
    static func spokenToken(_ token: String) -> [String] {
        if let number = Int(token) { return spell(number).split(separator: " ").map(String.init) }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        if parts.count == 2, let whole = Int(parts[0]), !parts[1].isEmpty,
            parts[1].allSatisfy({ $0.isASCII && $0.isNumber })
        {
            return spokenToken(String(whole)) + ["point"] + parts[1].map { units[Int(String($0))!] }
        }
        return [token]
    }

    static let words = Set(units + teens + tens + ["a", "dozen", "couple", "hundred"])

    /// "23" → "twenty three", "1200" → "one thousand two hundred" (as eSpeak NG's American
    /// voice says it); numbers outside 0…999,999 as digits one by one.
    static func spell(_ number: Int) -> String {
        switch number {
        case 0..<10: return units[number]
        case 10..<20: return teens[number - 10]
        case 20..<100:
            let rest = number % 10
            return tens[number / 10 - 2] + (rest == 0 ? "" : " " + units[rest])
        case 100..<1000:
            let rest = number % 100
            return units[number / 100] + " hundred" + (rest == 0 ? "" : " " + spell(rest))
        case 1000..<1_000_000:
            let rest = number % 1000
            return spell(number / 1000) + " thousand" + (rest == 0 ? "" : " " + spell(rest))
        default:
            return String(number).compactMap { $0.wholeNumberValue }.map { units[$0] }.joined(separator: " ")
        }
    }
}
