import Foundation
import VoiceIntents
import Yams

/// Home Assistant's sentence files (hassil's YAML, as in `custom_sentences/en/*.yaml`) read as a
/// catalog: each intent's `data` blocks become phrases of the Swift intent of the same name, a
/// `{list:slot}` the placeholder of the slot's parameter, a list's `in` / `out` values words that
/// stand for the parameter's values in the phrases that use the list, `slots` values the phrase sets, `expansion_rules` named
/// rules, `skip_words` skip words. What the catalog cannot do is named in
/// ``PhraseCatalog/warnings``, where it is written; the file is read all the same.
extension PhraseCatalog {
    /// Whether `root` is a hassil sentence file rather than a catalog: it says its `language:`.
    static func isHassil(_ root: [(key: Node, value: Node)]) -> Bool {
        root.contains { $0.key.string == "language" }
    }

    static func loadHassil(_ document: YAMLDocument, root: [(key: Node, value: Node)]) throws(PhraseFileError)
        -> PhraseCatalog
    {
        var reader = HassilReader(document: document)
        for (key, value) in root where key.string == "expansion_rules" {
            reader.globalRules = try reader.ruleTexts(value)
        }
        for (key, value) in root where key.string == "lists" {
            reader.globalLists = try reader.lists(value)
        }
        for (key, value) in root {
            let name = try document.string(key, "a key")
            switch name {
            case "language":
                reader.catalog.language = try document.string(value, "a language code")
            case "expansion_rules", "lists":
                continue
            case "skip_words":
                reader.catalog.skipWords = try document.sequence(value, "words that may be skipped").map {
                    node throws(PhraseFileError) in try document.string(node, "a word or words")
                }
            case "intents":
                for (intent, body) in try document.mapping(value, "intents by name") {
                    let identifier = try document.string(intent, "an intent name")
                    for (bodyKey, data) in try document.mapping(body, "an intent (data: …)") {
                        guard try document.string(bodyKey, "a key") == "data" else {
                            throw document.error(
                                bodyKey, "unknown key \"\(bodyKey.string ?? "")\" in an intent; expected data"
                            )
                        }
                        for block in try document.sequence(data, "sentences and what they set") {
                            try reader.readData(block, intent: identifier)
                        }
                    }
                }
            case "settings", "responses":
                reader.warn(
                    key,
                    name == "settings"
                        ? "not applied (the matcher ignores whitespace and case, and needs no regex filter)"
                        : "not spoken; the Swift intents' own dialog answers")
            default:
                throw document.error(
                    key,
                    "unknown key \"\(name)\"; expected language, intents, lists, expansion_rules, skip_words, settings or responses"
                )
            }
        }
        return reader.catalog
    }
}

/// The state of reading one hassil file.
private struct HassilReader {
    let document: YAMLDocument
    var catalog = PhraseCatalog()
    /// The file's `expansion_rules`, as written.
    var globalRules: [String: Node] = [:]
    /// Rules parsed so far (the file's, not a block's own).
    var parsedGlobalRules: [String: [PhraseElement]] = [:]
    var globalLists: [String: HassilList] = [:]

    init(document: YAMLDocument) {
        self.document = document
    }

    /// A list as the file declares it.
    enum HassilList {
        /// Words that stand for a value: what is said (plain words), the value it stands for.
        case values([(said: String, value: String, node: Node)])
        /// A number in a range: the parameter's own numbers.
        case range
        /// Any words: the parameter takes free text.
        case wildcard
    }

    /// Notes that what `node` says (a key) is not applied, and why.
    mutating func warn(_ node: Node, _ message: String) {
        let mark = node.mark
        catalog.warnings.append(
            PhraseDiagnostic(
                severity: .warning,
                source: PhraseSource(file: document.file, line: mark?.line ?? 0, column: mark?.column ?? 0),
                phrase: node.string ?? "", message: message))
    }

    func ruleTexts(_ node: Node) throws(PhraseFileError) -> [String: Node] {
        var rules: [String: Node] = [:]
        for (key, value) in try document.mapping(node, "expansion rules by name") {
            rules[try document.string(key, "a rule name")] = value
        }
        return rules
    }

    mutating func lists(_ node: Node) throws(PhraseFileError) -> [String: HassilList] {
        var lists: [String: HassilList] = [:]
        for (key, body) in try document.mapping(node, "lists by name") {
            let name = try document.string(key, "a list name")
            var list: HassilList?
            for (field, value) in try document.mapping(body, "a list (values:, range: or wildcard:)") {
                switch try document.string(field, "a key") {
                case "values":
                    var values: [(said: String, value: String, node: Node)] = []
                    for item in try document.sequence(value, "the list's values") {
                        values += try listValues(item)
                    }
                    list = .values(values)
                case "range":
                    try readRange(value)
                    list = .range
                case "wildcard":
                    guard value.bool == true else { throw document.error(value, "expected wildcard: true") }
                    list = .wildcard
                default:
                    throw document.error(
                        field,
                        "unknown key \"\(field.string ?? "")\" in a list; expected values, range or wildcard")
                }
            }
            guard let list else {
                throw document.error(key, "list \"\(name)\" has no values, range or wildcard")
            }
            lists[name] = list
        }
        return lists
    }

    /// One item of a list's `values`: `"words"`, a template of words, or `{ in: …, out: … }`.
    mutating func listValues(_ item: Node) throws(PhraseFileError) -> [(
        said: String, value: String, node: Node
    )] {
        var said = item
        var out: String?
        if case .mapping = item {
            var given: Node?
            for (field, value) in try document.mapping(item, "a value (in:, out:)") {
                switch try document.string(field, "a key") {
                case "in": given = value
                case "out": out = try document.string(value, "the value it stands for")
                case "context": warn(field, "not applied to a list value; the value is heard in any context")
                case "metadata": continue
                default:
                    throw document.error(
                        field,
                        "unknown key \"\(field.string ?? "")\" in a list value; expected in, out, context or metadata"
                    )
                }
            }
            guard let given else { throw document.error(item, "expected in: with the words said") }
            said = given
        }
        let text = try document.string(said, "the words of a value")
        let forms: [String]
        do throws(PhraseParser.SyntaxError) {
            let pattern = try PhraseParser.parse(text, dialect: .hassil)
            guard pattern.placeholders.isEmpty else {
                throw PhraseParser.SyntaxError(column: 1, message: "a list value holds no {list}")
            }
            forms = Self.sayings(pattern.elements)
        } catch {
            throw document.error(
                said, error.message, columnOffset: document.textOffset(said) + error.column - 1)
        }
        return forms.map { (said: $0, value: out ?? text, node: said) }
    }

    /// Every way `elements` can be said, at most 64.
    static func sayings(_ elements: [PhraseElement]) -> [String] {
        var said: [[String]] = [[]]
        func append(_ options: [[String]]) {
            said = Array(said.lazy.flatMap { start in options.map { start + $0 } }.prefix(64))
        }
        for element in elements {
            switch element {
            case .word(let word): append([[word]])
            case .optional(let inner): append([[]] + Self.sayings(inner).map { [$0] })
            case .alternatives(let branches): append(branches.flatMap { Self.sayings($0) }.map { [$0] })
            case .permutation(let parts): for part in parts { append(Self.sayings(part).map { [$0] }) }
            case .placeholder, .applicationName: continue
            }
        }
        return said.map { $0.joined(separator: " ") }.filter { !$0.isEmpty }
    }

    mutating func readRange(_ node: Node) throws(PhraseFileError) {
        for (field, value) in try document.mapping(node, "a range (from:, to:)") {
            let name = try document.string(field, "a key")
            switch name {
            case "from", "to":
                guard Int(try document.string(value, "a whole number")) != nil else {
                    throw document.error(value, "expected a whole number")
                }
            case "type", "words_language": continue
            case "step" where value.string == "1", "digits" where value.bool == true,
                "words" where value.bool == true:
                continue
            case "step", "multiplier", "fractions", "digits", "words":
                warn(field, "not applied in a range; the parameter hears its numbers as it always does")
            default:
                throw document.error(
                    field,
                    "unknown key \"\(name)\" in a range; expected from, to, step, type, multiplier, digits, words or fractions"
                )
            }
        }
    }

    /// One `data` block of `intent`: its sentences, with what they set and need.
    mutating func readData(_ block: Node, intent: String) throws(PhraseFileError) {
        var sentences: [Node] = []
        var fixed: [String: String] = [:]
        var narrowing: [String: [String]] = [:]
        var narrowingNode: Node?
        var localRules: [String: Node] = [:]
        var localLists: [String: HassilList] = [:]
        for (key, value) in try document.mapping(block, "a data block (sentences: …)") {
            let name = try document.string(key, "a key")
            switch name {
            case "sentences":
                sentences = try document.sequence(value, "sentence templates")
            case "slots":
                for (slot, fixedValue) in try document.mapping(value, "values by slot") {
                    let slotName = try document.string(slot, "a slot name")
                    if case .scalar = fixedValue {
                        fixed[slotName] = try document.string(fixedValue, "a value")
                    } else {
                        warn(slot, "has several values; a parameter takes one, so none is set")
                    }
                }
            case "requires_context":
                for (contextKey, wanted) in try document.mapping(value, "context by key") {
                    let contextName = try document.string(contextKey, "a context key")
                    if case .mapping = wanted {
                        var slot: String?
                        var required: Node?
                        for (field, fieldValue) in try document.mapping(wanted, "value: and slot:") {
                            switch try document.string(field, "a key") {
                            case "slot":
                                slot =
                                    fieldValue.bool == true
                                    ? contextName : fieldValue.bool == false ? nil : fieldValue.string
                            case "value": required = fieldValue
                            default:
                                throw document.error(
                                    field, "unknown key \"\(field.string ?? "")\"; expected value or slot")
                            }
                        }
                        if let slot, required == nil || required?.null != nil {
                            fixed[slot] = "$" + contextName
                        } else {
                            warn(contextKey, "a required context with a value and a slot: not applied")
                        }
                    } else if wanted.null != nil {
                        warn(contextKey, "a required context of any value: not checked")
                    } else {
                        let values: [String] =
                            if case .sequence = wanted {
                                try document.sequence(wanted, "values").map { node throws(PhraseFileError) in
                                    try document.string(node, "a value")
                                }
                            } else {
                                [try document.string(wanted, "a value")]
                            }
                        narrowing[contextName] = values
                        narrowingNode = contextKey
                    }
                }
            case "excludes_context":
                warn(key, "not applied; these sentences are matched in any context")
            case "expansion_rules":
                localRules = try ruleTexts(value)
            case "lists":
                localLists = try lists(value)
            case "required_keywords", "inferred_domain", "name_domains", "settings":
                warn(key, "not applied")
            case "response", "metadata":
                // Home Assistant's response key and notes: the Swift intent's own dialog answers.
                continue
            default:
                throw document.error(
                    key,
                    "unknown key \"\(name)\" in a data block; expected sentences, slots, requires_context, excludes_context, expansion_rules, lists, response or metadata"
                )
            }
        }
        guard !sentences.isEmpty else { throw document.error(block, "expected sentences: in the data block") }
        var rules = parsedGlobalRules.filter { localRules[$0.key] == nil }
        var unused = narrowingNode
        for sentence in sentences {
            let text = try document.string(sentence, "a sentence template")
            let pattern = try parse(text, at: sentence, rules: &rules, local: localRules)
            // Home Assistant gives the entities of its `name` list their domain and device class
            // as context: a required context narrows the names a sentence takes.
            let names = listReferences(in: text, local: localRules).filter { $0.list == "name" }.map(\.slot)
            var only: [String: PhraseCatalog.Narrowing] = [:]
            if let node = narrowingNode, !names.isEmpty {
                unused = nil
                let mark = node.mark
                let source = PhraseSource(
                    file: document.file, line: mark?.line ?? 0, column: mark?.column ?? 0)
                for slot in Set(names) {
                    only[slot] = PhraseCatalog.Narrowing(values: narrowing, source: source)
                }
            }
            var words: [String: [PhraseCatalog.ValueWord]] = [:]
            for (list, slot) in listReferences(in: text, local: localRules) {
                words[slot, default: []] += self.words(of: list, local: localLists)
            }
            let mark = sentence.mark
            catalog.entries.append(
                PhraseCatalog.Entry(
                    target: .intent(intent), pattern: pattern,
                    source: PhraseSource(
                        file: document.file, line: mark?.line ?? 0,
                        column: (mark?.column ?? 0) + document.textOffset(sentence)),
                    // What a sentence says, it does not also set (hassil keeps the value said).
                    fixedValues: fixed.filter { !pattern.placeholders.contains($0.key) }, narrowing: only,
                    valueWords: words.filter { !$0.value.isEmpty }, origin: .homeAssistant))
        }
        if let unused {
            warn(
                unused,
                "a required context narrows the entities of {name}, and no sentence here says one: not applied"
            )
        }
        if localRules.isEmpty { parsedGlobalRules = rules }
    }

    /// The words of `list` (a block's own, else the file's), as words that stand for values;
    /// none for a range, a wildcard or a list the file does not declare.
    func words(of list: String, local: [String: HassilList]) -> [PhraseCatalog.ValueWord] {
        guard case .values(let values) = local[list] ?? globalLists[list] else { return [] }
        return values.map { value in
            let mark = value.node.mark
            return PhraseCatalog.ValueWord(
                words: value.said, value: value.value,
                source: PhraseSource(file: document.file, line: mark?.line ?? 0, column: mark?.column ?? 0))
        }
    }

    /// The `{list}` and `{list:slot}` in `text` and in the rules it uses, however deep.
    func listReferences(in text: String, local: [String: Node]) -> [(list: String, slot: String)] {
        var found: [(list: String, slot: String)] = []
        var seenRules = Set<String>()
        func visit(_ text: String) {
            for reference in Self.references(in: text, opening: "{", closing: "}") {
                let parts = reference.split(separator: ":").map { $0.trimmingCharacters(in: .whitespaces) }
                guard let list = parts.first else { continue }
                found.append((list, parts.count > 1 ? parts[1] : list))
            }
            for rule in Self.references(in: text, opening: "<", closing: ">")
            where seenRules.insert(rule).inserted {
                if let body = (local[rule] ?? globalRules[rule])?.string { visit(body) }
            }
        }
        visit(text)
        return found
    }

    /// What `text` holds between `opening` and `closing`, escapes skipped.
    static func references(in text: String, opening: Character, closing: Character) -> [String] {
        var found: [String] = []
        var current: String?
        var escaped = false
        for character in text {
            if escaped {
                escaped = false
                current?.append(character)
                continue
            }
            if character == "\\" {
                escaped = true
            } else if character == opening {
                current = ""
            } else if character == closing, let name = current {
                found.append(name.trimmingCharacters(in: .whitespaces))
                current = nil
            } else {
                current?.append(character)
            }
        }
        return found
    }

    /// `text` parsed, with the rules it uses parsed first (a block's own before the file's).
    mutating func parse(
        _ text: String, at node: Node, rules: inout [String: [PhraseElement]], local: [String: Node],
        using: [String] = []
    ) throws(PhraseFileError) -> PhrasePattern {
        for name in Self.references(in: text, opening: "<", closing: ">") where rules[name] == nil {
            guard let body = local[name] ?? globalRules[name] else {
                let known = Set(local.keys).union(globalRules.keys).sorted().map { "<\($0)>" }
                let column =
                    (text.range(of: "<\(name)>").map {
                        text.distance(from: text.startIndex, to: $0.lowerBound)
                    } ?? 0)
                throw document.error(
                    node,
                    "no expansion rule named <\(name)>"
                        + (known.isEmpty
                            ? "; declare it under expansion_rules:"
                            : "; the file has: \(known.joined(separator: ", "))"),
                    columnOffset: document.textOffset(node) + column)
            }
            guard !using.contains(name) else {
                throw document.error(
                    body,
                    "expansion rule <\(name)> uses itself: \((using + [name]).map { "<\($0)>" }.joined(separator: " → "))"
                )
            }
            let bodyText = try document.string(body, "an expansion rule")
            rules[name] = try parse(bodyText, at: body, rules: &rules, local: local, using: using + [name])
                .elements
        }
        do {
            return try PhraseParser.parse(text, rules: rules, dialect: .hassil)
        } catch {
            throw document.error(
                node, error.message, columnOffset: document.textOffset(node) + error.column - 1)
        }
    }
}
