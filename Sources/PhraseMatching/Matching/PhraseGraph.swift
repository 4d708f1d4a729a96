/// A phrase compiled into a small graph whose edges consume words, app names or values.
///
/// Nodes are numbered so that every edge goes forward, which lets the aligner visit them in
/// order. Optional parts add an empty edge around them; alternatives branch and join; parts in
/// any order become the alternatives of their orders. Once built, the edges are kept in flat
/// arrays (all edges of node `n` are `edgeStart[n]..<edgeStart[n + 1]`) with words as numbers
/// from a ``WordTable``.
struct PhraseGraph: Sendable {
    enum Kind: UInt8, Sendable {
        case word, applicationName, slot, empty
    }

    private enum Edge {
        /// One of the words (a group of one-word alternatives is one edge).
        case word([String], to: Int)
        case applicationName(to: Int)
        case slot(String, to: Int)
        case empty(to: Int)

        var target: Int {
            switch self {
            case .word(_, let to), .applicationName(let to), .slot(_, let to), .empty(let to): to
            }
        }
    }

    private var building: [[Edge]] = [[]]
    private(set) var end = 0
    /// The fewest words (counting each value and app name as one) a sentence needs to follow it.
    private(set) var minimumLength = 0

    // The frozen graph.
    private(set) var edgeStart: [Int32] = []
    private(set) var kinds: [Kind] = []
    private(set) var targets: [Int32] = []
    /// The word id for word edges (-1 when it takes one of several, see ``wordSets``); the slot's
    /// index in ``slotNames`` for slot edges.
    private(set) var payloads: [Int32] = []
    /// For word edges that take one of several words: their ids (empty for single words).
    private(set) var wordSets: [[Int32]] = []
    /// Whether a word edge is an anchor: a word that must be heard.
    private(set) var isAnchor: [Bool] = []
    /// Whether a word edge takes only small words ("the", "in"): cheap to drop.
    private(set) var isSmall: [Bool] = []
    private(set) var slotNames: [String] = []
    /// Every word an edge can consume.
    private(set) var words: Set<String> = []
    private(set) var usesApplicationName = false

    var nodeCount: Int { edgeStart.count - 1 }

    /// Builds the graph of `pattern`; the words next to placeholders in `freeText` (and the
    /// phrase's first words) become anchors.
    init(_ pattern: PhrasePattern, words table: inout WordTable, freeText: Set<String>) {
        end = add(pattern.elements, from: 0)
        minimumLength = shortestPath()
        freeze(&table, anchors: anchors(around: freeText))
    }

    private mutating func node() -> Int {
        building.append([])
        return building.count - 1
    }

    private mutating func add(_ elements: [PhraseElement], from start: Int) -> Int {
        elements.reduce(start) { current, element in add(element, from: current) }
    }

    private mutating func add(_ element: PhraseElement, from start: Int) -> Int {
        switch element {
        case .word(let word):
            let next = node()
            building[start].append(.word([word], to: next))
            return next
        case .applicationName:
            let next = node()
            building[start].append(.applicationName(to: next))
            return next
        case .placeholder(let name):
            let next = node()
            building[start].append(.slot(name, to: next))
            return next
        case .optional(let inner):
            let innerEnd = add(inner, from: start)
            let join = node()
            building[innerEnd].append(.empty(to: join))
            building[start].append(.empty(to: join))
            return join
        case .alternatives(let branches)
        where branches.count > 1 && branches.allSatisfy({ $0.count == 1 && Self.isWord($0[0]) }):
            // "(find | get | book)": one edge that takes any of the words.
            let next = node()
            building[start].append(.word(branches.map { Self.word($0[0]) }, to: next))
            return next
        case .alternatives(let branches):
            let ends = branches.map { add($0, from: start) }
            let join = node()
            for branchEnd in ends { building[branchEnd].append(.empty(to: join)) }
            return join
        case .permutation(let parts):
            return add(.alternatives(Self.orders(of: parts).map { $0.flatMap { $0 } }), from: start)
        }
    }

    private static func isWord(_ element: PhraseElement) -> Bool {
        if case .word = element { true } else { false }
    }

    private static func word(_ element: PhraseElement) -> String {
        if case .word(let word) = element { word } else { "" }
    }

    static func orders<T>(of items: [T]) -> [[T]] {
        guard items.count > 1 else { return [items] }
        return items.indices.flatMap { index in
            var rest = items
            let first = rest.remove(at: index)
            return orders(of: rest).map { [first] + $0 }
        }
    }

    /// The edges that every way through the frozen graph takes: the parts a sentence must say
    /// for the phrase (none when the ways are too many to count exactly).
    func edgesOnEveryPath() -> [Int] {
        var into = [Double](repeating: 0, count: nodeCount)
        into[0] = 1
        for node in 0..<nodeCount {
            for edge in Int(edgeStart[node])..<Int(edgeStart[node + 1]) {
                into[Int(targets[edge])] += into[node]
            }
        }
        var onward = [Double](repeating: 0, count: nodeCount)
        onward[end] = 1
        for node in (0..<nodeCount).reversed() {
            for edge in Int(edgeStart[node])..<Int(edgeStart[node + 1]) {
                onward[node] += onward[Int(targets[edge])]
            }
        }
        let ways = into[end]
        guard ways > 0, ways < 1e15 else { return [] }
        return (0..<nodeCount).flatMap { node in
            (Int(edgeStart[node])..<Int(edgeStart[node + 1])).filter {
                into[node] * onward[Int(targets[$0])] == ways
            }
        }
    }

    private func shortestPath() -> Int {
        var distance = Array(repeating: Int.max, count: building.count)
        distance[0] = 0
        for node in building.indices where distance[node] != .max {
            for edge in building[node] {
                let step: Int = if case .empty = edge { 0 } else { 1 }
                distance[edge.target] = min(distance[edge.target], distance[node] + step)
            }
        }
        return distance[end]
    }

    /// The words a sentence must say for the phrase to count, as (node, edge index) pairs: the
    /// phrase's first words (its command word: "sell tickets" is not "buy tickets" misheard), and
    /// the words next to a free-text placeholder (they tell where the text starts and stops).
    private func anchors(around freeText: Set<String>) -> Set<[Int]> {
        var incoming: [Int: [Int]] = [:]
        for (node, outgoing) in building.enumerated() {
            for edge in outgoing { incoming[edge.target, default: []].append(node) }
        }
        var anchors = Set<[Int]>()
        func wordsInto(_ node: Int, depth: Int = 0) {
            guard depth < 4 else { return }
            for source in incoming[node] ?? [] {
                for (index, edge) in building[source].enumerated() where edge.target == node {
                    switch edge {
                    case .word: anchors.insert([source, index])
                    case .empty: wordsInto(source, depth: depth + 1)
                    default: break
                    }
                }
            }
        }
        func wordsFrom(_ node: Int, depth: Int = 0) {
            guard depth < 4 else { return }
            for (index, edge) in building[node].enumerated() {
                switch edge {
                case .word: anchors.insert([node, index])
                case .empty(let to): wordsFrom(to, depth: depth + 1)
                default: break
                }
            }
        }
        wordsFrom(0)
        for (node, outgoing) in building.enumerated() {
            for edge in outgoing {
                if case .slot(let name, let to) = edge, freeText.contains(name) {
                    wordsInto(node)
                    wordsFrom(to)
                }
            }
        }
        return anchors
    }

    private mutating func freeze(_ table: inout WordTable, anchors: Set<[Int]>) {
        for (node, outgoing) in building.enumerated() {
            edgeStart.append(Int32(kinds.count))
            for (index, edge) in outgoing.enumerated() {
                targets.append(Int32(edge.target))
                isAnchor.append(anchors.contains([node, index]))
                switch edge {
                case .word(let choices, _):
                    kinds.append(.word)
                    let ids = choices.map { table.id($0) }
                    isSmall.append(ids.allSatisfy { table.isSmall[Int($0)] })
                    payloads.append(ids.count == 1 ? ids[0] : -1)
                    wordSets.append(ids.count == 1 ? [] : ids)
                    words.formUnion(choices)
                    continue
                case .applicationName:
                    kinds.append(.applicationName)
                    payloads.append(-1)
                    usesApplicationName = true
                case .slot(let name, _):
                    kinds.append(.slot)
                    if !slotNames.contains(name) { slotNames.append(name) }
                    payloads.append(Int32(slotNames.firstIndex(of: name)!))
                case .empty:
                    kinds.append(.empty)
                    payloads.append(-1)
                }
                wordSets.append([])
                isSmall.append(false)
            }
        }
        edgeStart.append(Int32(kinds.count))
        building = []
    }
}
