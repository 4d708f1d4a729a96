/// A finite-state automaton over words: what a grammar lets people say, as states and arcs.
///
/// PocketSphinx searches one copy of a word for every arc that carries it, so the shape of the
/// graph sets the cost of recognition. A grammar written as JSGF repeats itself: every phrase
/// gets its own copy of "in <app>" and of the thirty landmark names it mentions. Built here
/// instead, the graph is made deterministic and minimal: phrases share their beginnings and
/// their endings, and each word appears on as few arcs as the language allows.
package struct WordGraph: Sendable, Hashable {
    /// An arc to `target`, saying `word` (`nil`: a jump that says nothing).
    package struct Arc: Sendable, Hashable {
        package var word: String?
        package var target: Int
    }

    /// The arcs leaving each state.
    package private(set) var arcs: [[Arc]] = [[]]
    package var start: Int { 0 }
    /// The states where a sentence may end.
    package var finals = Set<Int>()

    /// A graph of one state, the start, where nothing may end yet.
    package init() {}

    /// The marker of the jump from a whole command to the joiner before another
    /// (`SpeechGrammar(joinsCommands:)`): it says nothing, and the FSG gives it
    /// ``joinProbability`` so that one command stays likelier than two.
    package static let joinMarker = "~join"
    /// The probability the FSG gives ``joinMarker``'s jump.
    package static let joinProbability = 0.001

    package var stateCount: Int { arcs.count }
    package var arcCount: Int { arcs.reduce(0) { $0 + $1.count } }
    /// Every word on an arc (garbage loop and free-text markers left out).
    package var words: Set<String> {
        Set(arcs.joined().compactMap(\.word)).filter {
            !GarbageModel.isMarker($0) && $0 != FreeTextWords.marker
        }
    }

    /// Whether a free-text slot is somewhere in the graph (``FreeTextWords/marker``).
    package var hasFreeText: Bool { arcs.joined().contains { $0.word == FreeTextWords.marker } }

    package mutating func addState() -> Int {
        arcs.append([])
        return arcs.count - 1
    }

    package mutating func connect(_ from: Int, _ to: Int, saying word: String? = nil) {
        arcs[from].append(Arc(word: word, target: to))
    }

    /// Adds `words` as a chain of arcs from `from`; returns where the chain ends.
    package mutating func chain(_ words: [String], from: Int) -> Int {
        var state = from
        for word in words {
            let next = addState()
            connect(state, next, saying: word)
            state = next
        }
        return state
    }

    /// Adds a choice between word sequences from `from`; returns the state they all end in.
    package mutating func choice(_ sequences: [[String]], from: Int) -> Int {
        let end = addState()
        for sequence in sequences {
            let last = chain(sequence, from: from)
            connect(last, end)
        }
        return end
    }

    /// Whether the graph accepts `sentence` (words separated by spaces). An arc saying a name of
    /// several words as one (``CompoundWord``) takes them all; a free-text arc
    /// (``FreeTextWords/marker``) takes one word or more, whatever they are.
    package func accepts(_ sentence: String) -> Bool {
        states(after: sentence).reached.contains { finals.contains($0) }
    }

    /// Whether the graph accepts `sentence` as a whole, and whether a longer sentence of the
    /// graph begins with it (more words may follow; always, when its last word may be in a
    /// free-text slot).
    package func reading(of sentence: String) -> (isWhole: Bool, canGoOn: Bool) {
        let (reached, inFreeText) = states(after: sentence)
        return (
            reached.contains { finals.contains($0) },
            inFreeText || reached.contains { state in arcs[state].contains { $0.word != nil } }
        )
    }

    /// The states where `sentence` (words separated by spaces) leads from the start, with the
    /// jumps that say nothing taken after its last word, and whether a free-text slot may have
    /// taken its last word (and so take more).
    private func states(after sentence: String) -> (reached: Set<Int>, inFreeText: Bool) {
        let words = sentence.split(separator: " ").map(String.init)
        // Where the search has been: a state, and how many words were said to reach it.
        struct Place: Hashable {
            var state: Int
            var said: Int
        }
        var seen: Set<Place> = [Place(state: start, said: 0)]
        var pending = Array(seen)
        var reached = Set<Int>()
        var inFreeText = false
        while let place = pending.popLast() {
            if place.said == words.count { reached.insert(place.state) }
            for arc in arcs[place.state] {
                if arc.word == FreeTextWords.marker {
                    if place.said < words.count { inFreeText = true }
                    for said in (place.said + 1)..<(words.count + 1) {
                        let next = Place(state: arc.target, said: said)
                        if seen.insert(next).inserted { pending.append(next) }
                    }
                    continue
                }
                let parts =
                    arc.word.flatMap { $0 == Self.joinMarker ? nil : CompoundWord.parts(of: $0) } ?? []
                let said = place.said + parts.count
                guard said <= words.count, words[place.said..<said].elementsEqual(parts) else { continue }
                let next = Place(state: arc.target, said: said)
                if seen.insert(next).inserted { pending.append(next) }
            }
        }
        return (reached, inFreeText)
    }

    /// The states reachable from `states` without saying anything.
    private func closure(of states: Set<Int>) -> Set<Int> {
        var result = states
        var pending = Array(states)
        while let state = pending.popLast() {
            for arc in arcs[state] where arc.word == nil && result.insert(arc.target).inserted {
                pending.append(arc.target)
            }
        }
        return result
    }

    /// The same language with every sentence read backwards.
    package func reversed() -> WordGraph {
        var reversed = WordGraph()
        // State 0 of the reversed graph is a new start that jumps to every old final state;
        // old state i becomes i + 1.
        for _ in arcs.indices { _ = reversed.addState() }
        for (state, leaving) in arcs.enumerated() {
            for arc in leaving { reversed.connect(arc.target + 1, state + 1, saying: arc.word) }
        }
        for final in finals.sorted() { reversed.connect(0, final + 1) }
        reversed.finals = [start + 1]
        return reversed
    }

    /// The same language with no jumps and at most one arc per word leaving each state (subset
    /// construction), keeping only states that are reachable.
    package func determinized() -> WordGraph {
        var result = WordGraph()
        let first = closure(of: [start]).sorted()
        var index: [[Int]: Int] = [first: 0]
        var pending = [first]
        var subsets = [first]
        while let subset = pending.popLast() {
            let state = index[subset]!
            var targets: [String: Set<Int>] = [:]
            for member in subset {
                for arc in arcs[member] {
                    if let word = arc.word { targets[word, default: []].insert(arc.target) }
                }
            }
            if !finals.isDisjoint(with: subset) { result.finals.insert(state) }
            for (word, reached) in targets.sorted(by: { $0.key < $1.key }) {
                let next = closure(of: reached).sorted()
                let target: Int
                if let known = index[next] {
                    target = known
                } else {
                    target = result.addState()
                    index[next] = target
                    subsets.append(next)
                    pending.append(next)
                }
                result.connect(state, target, saying: word)
            }
        }
        return result
    }

    /// The smallest deterministic graph of the same language (Brzozowski: determinising the
    /// reversal twice merges every pair of states with the same futures).
    package func minimized() -> WordGraph {
        reversed().determinized().reversed().determinized()
    }

    /// The graph in PocketSphinx's FSG text format, with one final state reached by jumps from
    /// every state where a sentence may end. Each state shares its probability evenly among the
    /// arcs that leave it (ending there counts as one).
    ///
    /// With a `garbage` model, every marker arc (``GarbageModel/utteranceMarker``,
    /// ``GarbageModel/valueMarker``) becomes a loop of its own: a jump with the marker's
    /// probability into a state whose phone-word arcs (each with ``GarbageModel/phone``) lead to
    /// a state that jumps back into the loop or on to the marker's target. The other arcs of the
    /// marker's state share what is left. Without one, marker arcs are left out.
    ///
    /// With `freeText`, every free-text arc (``FreeTextWords/marker``) becomes a loop of its
    /// words: a jump with the share of the state's other arcs into a state whose word arcs (each
    /// with the word's probability) lead to a state that jumps back for another word
    /// (``FreeTextWords/anotherWord``) or on to the arc's target. Without it, they are left out.
    package func fsg(name: String, garbage: GarbageModel? = nil, freeText: FreeTextWords? = nil) -> String {
        let final = stateCount
        var loops: [String] = []
        var extraStates = 0
        var lines: [String] = []
        // One loop per marker and target state: every arc into it shares it (the language is the
        // same, and the decoder searches one loop instead of one per slot).
        var loopEntries: [Arc: Int] = [:]
        var textEntries: [Int: Int] = [:]
        for (state, leaving) in arcs.enumerated() {
            let texts = freeText == nil ? [] : leaving.filter { $0.word == FreeTextWords.marker }
            let joins = leaving.filter { $0.word == Self.joinMarker }
            let markers = leaving.filter {
                ($0.word.map(GarbageModel.isMarker) ?? false) && $0.word != Self.joinMarker
            }
            let plain = leaving.filter {
                !($0.word.map(GarbageModel.isMarker) ?? false) && $0.word != FreeTextWords.marker
            }
            let ends = finals.contains(state)
            var taken = 0.0
            for join in joins {
                taken += Self.joinProbability
                lines.append("TRANSITION \(state) \(join.target) \(String(Self.joinProbability))")
            }
            if let garbage {
                for marker in markers {
                    let weight =
                        marker.word == GarbageModel.utteranceMarker ? garbage.utterance : garbage.value ?? 0
                    guard weight > 0 else { continue }
                    taken += weight
                    if let entry = loopEntries[marker] {
                        loops.append("TRANSITION \(state) \(entry) \(String(weight))")
                        continue
                    }
                    // The loop: state -(weight)-> entry -phone-words-> exit -> entry | target.
                    let entry = final + 1 + extraStates
                    let exit = entry + 1
                    extraStates += 2
                    loopEntries[marker] = entry
                    loops.append("TRANSITION \(state) \(entry) \(String(weight))")
                    for word in GarbageModel.words {
                        loops.append("TRANSITION \(entry) \(exit) \(String(garbage.phone)) \(word)")
                    }
                    loops.append("TRANSITION \(exit) \(entry) 1.0")
                    loops.append("TRANSITION \(exit) \(marker.target) 1.0")
                }
            }
            let choices = plain.count + texts.count + (ends ? 1 : 0)
            // Garbage weights of 1 or more would leave the state's own arcs nothing.
            let probability = choices > 0 ? max(1 - taken, 1e-6) / Double(choices) : 1
            let written = String(probability)
            for arc in plain {
                lines.append(
                    "TRANSITION \(state) \(arc.target) \(written)" + (arc.word.map { " \($0)" } ?? ""))
            }
            if ends { lines.append("TRANSITION \(state) \(final) \(written)") }
            if let freeText {
                for text in texts {
                    // One loop per target: every slot that goes on the same way shares it.
                    if let entry = textEntries[text.target] {
                        loops.append("TRANSITION \(state) \(entry) \(written)")
                        continue
                    }
                    let entry = final + 1 + extraStates
                    let exit = entry + 1
                    extraStates += 2
                    textEntries[text.target] = entry
                    loops.append("TRANSITION \(state) \(entry) \(written)")
                    for (word, probability) in zip(freeText.words, freeText.probabilities) {
                        loops.append("TRANSITION \(entry) \(exit) \(String(probability)) \(word)")
                    }
                    loops.append("TRANSITION \(exit) \(entry) \(String(FreeTextWords.anotherWord))")
                    loops.append("TRANSITION \(exit) \(text.target) \(String(1 - FreeTextWords.anotherWord))")
                }
            }
        }
        let header = [
            "FSG_BEGIN \(name)", "NUM_STATES \(stateCount + 1 + extraStates)", "START_STATE \(start)",
            "FINAL_STATE \(final)",
        ]
        return (header + lines + loops + ["FSG_END"]).joined(separator: "\n") + "\n"
    }
}
