import VoiceIntents

/// A phrase as the matcher reads it: words, placeholders, optional parts, alternatives and parts
/// in any order.
///
/// ```swift
/// let pattern = try PhraseParser.parse("(show | open) [me] ${navigationOption} [in ${applicationName}]")
/// ```
public indirect enum PhraseElement: Sendable, Hashable {
    /// A normalised word.
    case word(String)
    /// One of the app's spoken names.
    case applicationName
    /// A parameter's value.
    case placeholder(String)
    /// Elements that may be left out.
    case optional([PhraseElement])
    /// One of several sequences.
    case alternatives([[PhraseElement]])
    /// Every sequence, in any order.
    case permutation([[PhraseElement]])
}

extension PhraseElement {
    /// How deep optional parts, alternatives and permutations nest in it: 0 for a word, a name
    /// or a placeholder.
    var nesting: Int {
        switch self {
        case .word, .applicationName, .placeholder: 0
        case .optional(let elements): 1 + (elements.map(\.nesting).max() ?? 0)
        case .alternatives(let sequences), .permutation(let sequences):
            1 + (sequences.joined().map(\.nesting).max() ?? 0)
        }
    }
}

/// A parsed phrase: the elements in order, and where it came from.
public struct PhrasePattern: Sendable, Hashable, CustomStringConvertible {
    public let elements: [PhraseElement]
    /// The text it was written as.
    public let text: String

    public init(elements: [PhraseElement], text: String) {
        self.elements = elements
        self.text = text
    }

    /// A pattern for a phrase declared in Swift: its text is taken literally.
    public init(template: PhraseTemplate) {
        var elements: [PhraseElement] = []
        for part in template.parts {
            switch part {
            case .text(let text): elements += TextNormalizer.tokens(text).map { .word($0.text) }
            case .applicationName: elements.append(.applicationName)
            case .parameter(let name, _): elements.append(.placeholder(name ?? "?"))
            }
        }
        self.init(elements: elements, text: template.description)
    }

    /// The placeholder names, in order of first appearance.
    public var placeholders: [String] {
        var names: [String] = []
        func visit(_ elements: [PhraseElement]) {
            for element in elements {
                switch element {
                case .placeholder(let name) where !names.contains(name): names.append(name)
                case .optional(let inner): visit(inner)
                case .alternatives(let branches), .permutation(let branches): branches.forEach(visit)
                default: break
                }
            }
        }
        visit(elements)
        return names
    }

    /// How many times the app name can appear at most, and whether it must appear.
    public var applicationNameUse: (minimum: Int, maximum: Int) {
        func count(_ elements: [PhraseElement]) -> (Int, Int) {
            elements.reduce((0, 0)) { total, element in
                let (low, high): (Int, Int)
                switch element {
                case .applicationName: (low, high) = (1, 1)
                case .optional(let inner): (low, high) = (0, count(inner).1)
                case .alternatives(let branches):
                    let counts = branches.map(count)
                    (low, high) = (counts.map(\.0).min() ?? 0, counts.map(\.1).max() ?? 0)
                case .permutation(let branches):
                    let counts = branches.map(count)
                    (low, high) = (counts.map(\.0).reduce(0, +), counts.map(\.1).reduce(0, +))
                default: (low, high) = (0, 0)
                }
                return (total.0 + low, total.1 + high)
            }
        }
        let (minimum, maximum) = count(elements)
        return (minimum, maximum)
    }

    public var description: String { text }
}
