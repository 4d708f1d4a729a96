/// A phrase compiled into a small graph whose edges consume words, app names or values.
///
/// Nodes are numbered so that every edge goes forward, which lets the aligner visit them in
/// order. Optional parts add an empty edge around them; alternatives branch and join; parts in
/// any order become the alternatives of their orders.
struct PhraseGraph: Sendable {
    enum Edge: Sendable {
        case word(String, to: Int)
        case applicationName(to: Int)
        case slot(String, to: Int)
        case empty(to: Int)

        var target: Int {
            switch self {
            case .word(_, let to), .applicationName(let to), .slot(_, let to), .empty(let to): to
            }
        }
    }

    private(set) var edges: [[Edge]] = [[]]
    private(set) var end = 0
    /// The fewest words (counting each value and app name as one) a sentence needs to follow it.
    private(set) var minimumLength = 0

    init(_ pattern: PhrasePattern) {
        end = add(pattern.elements, from: 0)
        minimumLength = shortestPath()
    }

    var nodeCount: Int { edges.count }

    private mutating func node() -> Int {
        edges.append([])
        return edges.count - 1
    }

    private mutating func connect(_ from: Int, _ edge: Edge) {
        edges[from].append(edge)
    }

    private mutating func add(_ elements: [PhraseElement], from start: Int) -> Int {
        var current = start
        for element in elements {
            current = add(element, from: current)
        }
        return current
    }

    private mutating func add(_ element: PhraseElement, from start: Int) -> Int {
        switch element {
        case .word(let word):
            let next = node()
            connect(start, .word(word, to: next))
            return next
        case .applicationName:
            let next = node()
            connect(start, .applicationName(to: next))
            return next
        case .placeholder(let name):
            let next = node()
            connect(start, .slot(name, to: next))
            return next
        case .optional(let inner):
            let innerEnd = add(inner, from: start)
            let join = node()
            connect(innerEnd, .empty(to: join))
            connect(start, .empty(to: join))
            return join
        case .alternatives(let branches):
            let ends = branches.map { add($0, from: start) }
            let join = node()
            for branchEnd in ends { connect(branchEnd, .empty(to: join)) }
            return join
        case .permutation(let parts):
            return add(.alternatives(Self.orders(of: parts).map { $0.flatMap { $0 } }), from: start)
        }
    }

    static func orders<T>(of items: [T]) -> [[T]] {
        guard items.count > 1 else { return [items] }
        return items.indices.flatMap { index in
            var rest = items
            let first = rest.remove(at: index)
            return orders(of: rest).map { [first] + $0 }
        }
    }

    private func shortestPath() -> Int {
        var distance = Array(repeating: Int.max, count: edges.count)
        distance[0] = 0
        for node in edges.indices where distance[node] != .max {
            for edge in edges[node] {
                let step: Int = if case .empty = edge { 0 } else { 1 }
                distance[edge.target] = min(distance[edge.target], distance[node] + step)
            }
        }
        return distance[end]
    }

    /// The words a sentence must say for the phrase to count, as (node, edge index) pairs: the
    /// phrase's first words (its command word: "sell tickets" is not "buy tickets" misheard), and
    /// the words next to a free-text placeholder in `slots` (they tell where the text starts and
    /// stops).
    func anchors(around slots: Set<String>) -> Set<[Int]> {
        var incoming: [Int: [Int]] = [:]
        for (node, outgoing) in edges.enumerated() {
            for edge in outgoing { incoming[edge.target, default: []].append(node) }
        }
        var anchors = Set<[Int]>()
        /// Word edges that end at `node`, looking back through empty edges.
        func wordsInto(_ node: Int, depth: Int = 0) {
            guard depth < 4 else { return }
            for source in incoming[node] ?? [] {
                for (index, edge) in edges[source].enumerated() where edge.target == node {
                    switch edge {
                    case .word: anchors.insert([source, index])
                    case .empty: wordsInto(source, depth: depth + 1)
                    default: break
                    }
                }
            }
        }
        /// Word edges that start at `node`, looking ahead through empty edges.
        func wordsFrom(_ node: Int, depth: Int = 0) {
            guard depth < 4 else { return }
            for (index, edge) in edges[node].enumerated() {
                switch edge {
                case .word: anchors.insert([node, index])
                case .empty(let to): wordsFrom(to, depth: depth + 1)
                default: break
                }
            }
        }
        wordsFrom(0)
        for (node, outgoing) in edges.enumerated() {
            for edge in outgoing {
                if case .slot(let name, let to) = edge, slots.contains(name) {
                    wordsInto(node)
                    wordsFrom(to)
                }
            }
        }
        return anchors
    }

    /// Every word an edge can consume, for the candidate index.
    var words: Set<String> {
        Set(edges.flatMap { $0 }.compactMap { if case .word(let word, _) = $0 { word } else { nil } })
    }

    var usesApplicationName: Bool {
        edges.contains { $0.contains { if case .applicationName = $0 { true } else { false } } }
    }
}
