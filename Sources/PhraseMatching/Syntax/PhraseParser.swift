import Foundation
import VoiceIntents

/// Reads the catalog phrase syntax: words, `${name}`, `[optional]`, `[a | b]` (short for
/// `[(a | b)]`), `(a | b)`, `(a ; b)`, endings that are optional inside a word (`light[s]`) and
/// named rules (`<area>`).
///
/// ```swift
/// try PhraseParser.parse("[please] (find | get) ${ticketCount} tickets for ${landmark}")
/// ```
///
/// Errors give the column (from 1) where the phrase stops making sense, and what was expected.
public enum PhraseParser {
    /// A phrase that does not follow the syntax.
    public struct SyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The column (from 1) in the phrase.
        public let column: Int
        public let message: String

        public init(column: Int, message: String) {
            self.column = column
            self.message = message
        }

        public var description: String { "column \(column): \(message)" }
    }

    /// The placeholder that stands for the app's name.
    public static let applicationNamePlaceholder = "applicationName"

    /// Which syntax a phrase is written in.
    public enum Dialect: Sendable {
        /// The project's catalogs: `${parameter}`.
        case catalog
        /// Home Assistant's sentence templates (hassil): `{list}` and `{list:slot}` for a value,
        /// read as the placeholder of the slot's parameter (`{list}` alone: the list's name);
        /// `|` between alternatives outside any group (`turn on | switch on`); and endings
        /// glued to a word as a group: `turn(s | ed)` is "turns" or "turned". `$` is a letter.
        case hassil
    }

    /// Parses `text`.
    ///
    /// - Throws: ``SyntaxError`` for unbalanced brackets, an unclosed `${`, an empty phrase, or
    ///   `|` and `;` mixed in one group.
    /// - Parameters:
    ///   - rules: Named parts a phrase may use as `<name>`, as parsed.
    ///   - dialect: The syntax `text` is written in.
    public static func parse(
        _ text: String, rules: [String: [PhraseElement]] = [:], dialect: Dialect = .catalog
    ) throws(SyntaxError) -> PhrasePattern {
        var elements: [PhraseElement]
        switch dialect {
        case .catalog:
            var parser = Parser(text: Array(text), rules: rules, dialect: dialect)
            elements = try parser.sequence(until: nil)
        case .hassil:
            // A template is a group: its alternatives need no brackets of their own. Columns
            // are counted in `text`, without the "(" put before it.
            var parser = Parser(text: Array("(" + text + ")"), rules: rules, dialect: dialect)
            do {
                elements = try parser.sequence(until: nil)
            } catch {
                throw SyntaxError(
                    column: max(1, min(error.column - 1, text.count + 1)), message: error.message)
            }
            if elements.count == 1, case .alternatives(let branches) = elements[0], branches.count == 1 {
                elements = branches[0]
            }
        }
        guard !elements.isEmpty else { throw SyntaxError(column: 1, message: "the phrase is empty") }
        return PhrasePattern(elements: elements, text: text)
    }

    /// How deep brackets may nest: far more than any phrase needs, and few enough that reading
    /// and compiling a phrase never runs out of stack, in a debug build either.
    public static let deepestNesting = 32

    private struct Parser {
        let text: [Character]
        let rules: [String: [PhraseElement]]
        let dialect: Dialect
        var index = 0
        /// How many brackets are open at `index`.
        var depth = 0

        init(text: [Character], rules: [String: [PhraseElement]], dialect: Dialect) {
            self.text = text
            self.rules = rules
            self.dialect = dialect
        }

        mutating func sequence(until closing: Character?) throws(SyntaxError) -> [PhraseElement] {
            var elements: [PhraseElement] = []
            var word = ""
            func flush() {
                guard !word.isEmpty else { return }
                elements += TextNormalizer.tokens(word).map { .word($0.text) }
                word = ""
            }
            while index < text.count {
                let character = text[index]
                switch character {
                case "\\":
                    index += 1
                    guard index < text.count else { throw error("a character after \\") }
                    word.append(text[index])
                    index += 1
                case "$" where dialect == .catalog && index + 1 < text.count && text[index + 1] == "{":
                    flush()
                    elements.append(try placeholder())
                case "{" where dialect == .hassil:
                    flush()
                    elements.append(try listReference())
                case "[" where word.last.map { !$0.isWhitespace } ?? false,
                    "(" where dialect == .hassil && word.last.map { !$0.isWhitespace } ?? false:
                    // Letters that may end a word: "light[s]", "minute[s]", "box[es]"; in
                    // hassil's templates, one of several that must: "turn(s | ed)".
                    let stem = String(word.reversed().prefix { !$0.isWhitespace }.reversed())
                    word.removeLast(stem.count)
                    flush()
                    let optional = character == "["
                    let endings = try wordEndings(closedBy: optional ? "]" : ")")
                    // In hassil's templates the word may go on after it: "colo[u]r".
                    var rest = ""
                    while dialect == .hassil, index < text.count, text[index].isLetter {
                        rest.append(text[index])
                        index += 1
                    }
                    let forms =
                        ((optional || endings.contains("") ? [stem] : [])
                        + endings.filter { !$0.isEmpty }.map { stem + $0 }).map { $0 + rest }
                    elements.append(
                        .alternatives(
                            forms.map { form in TextNormalizer.tokens(form).map { .word($0.text) } }))
                case "[":
                    flush()
                    let start = index
                    try enterBracket()
                    defer { depth -= 1 }
                    index += 1
                    var branches: [[PhraseElement]] = []
                    while true {
                        branches.append(try sequence(until: "]"))
                        let found = text[index]
                        index += 1
                        if found == "]" { break }
                        guard found == "|" else {
                            throw SyntaxError(
                                column: index,
                                message:
                                    "an optional part takes \"|\" (one of), not \";\"; write [(a ; b)] for parts in any order"
                            )
                        }
                    }
                    // Hassil's templates write optional spaces and signs ("{temperature}[ ]°"),
                    // which are no words: what is left of such a part is optional, or nothing.
                    if dialect == .hassil { branches.removeAll(where: \.isEmpty) }
                    if dialect == .hassil && branches.isEmpty { continue }
                    guard branches.allSatisfy({ !$0.isEmpty }) else {
                        throw SyntaxError(
                            column: start + 1,
                            message: branches.count == 1
                                ? "expected words inside [ ], found nothing"
                                : "an optional part has an empty choice")
                    }
                    // "[a | b]" is short for "[(a | b)]".
                    elements.append(.optional(branches.count == 1 ? branches[0] : [.alternatives(branches)]))
                case "(":
                    flush()
                    if let group = try group() { elements.append(group) }
                case "<":
                    flush()
                    elements += try rule()
                case "]", ")", "|", ";":
                    if character == closing || (closing != nil && (character == "|" || character == ";")) {
                        flush()
                        return elements
                    }
                    throw error(
                        closing.map { "\"\($0)\"" } ?? "a word or the end of the phrase",
                        found: "\"\(character)\"")
                default:
                    word.append(character)
                    index += 1
                }
            }
            if let closing {
                throw SyntaxError(
                    column: text.count + 1, message: "expected \"\(closing)\", found the end of the phrase")
            }
            flush()
            return elements
        }

        /// Counts the bracket at `index` as open, or says the phrase nests too deep.
        mutating func enterBracket() throws(SyntaxError) {
            depth += 1
            guard depth <= PhraseParser.deepestNesting else {
                throw SyntaxError(
                    column: index + 1, message: "brackets nest more than \(PhraseParser.deepestNesting) deep")
            }
        }

        /// A group, from its "(" to just after its ")"; `nil` for one of no words in hassil's
        /// templates ("([ ]°)").
        mutating func group() throws(SyntaxError) -> PhraseElement? {
            let start = index
            try enterBracket()
            defer { depth -= 1 }
            index += 1
            var branches: [[PhraseElement]] = []
            var separator: Character?
            while true {
                branches.append(try sequence(until: ")"))
                guard index < text.count else {
                    throw SyntaxError(
                        column: text.count + 1, message: "expected \")\", found the end of the phrase")
                }
                let found = text[index]
                index += 1
                if found == ")" { break }
                if let separator, separator != found {
                    throw SyntaxError(
                        column: index,
                        message: "a group uses either \"|\" (one of) or \";\" (any order), not both")
                }
                separator = found
            }
            if separator == ";" {
                guard branches.allSatisfy({ !$0.isEmpty }) else {
                    throw SyntaxError(column: start + 1, message: "an any-order group has an empty part")
                }
                guard branches.count <= 6 else {
                    throw SyntaxError(
                        column: start + 1, message: "an any-order group may have at most 6 parts")
                }
                return .permutation(branches)
            }
            if dialect == .hassil, branches.allSatisfy(\.isEmpty) { return nil }
            if branches.count == 1 {
                guard !branches[0].isEmpty else {
                    throw SyntaxError(column: start + 1, message: "expected words inside ( ), found nothing")
                }
                // A group without "|" just groups.
                return .alternatives(branches)
            }
            return .alternatives(branches)
        }

        /// The endings of an in-word optional, from its "[" to just after its "]": letters,
        /// one or several separated by "|" ("[s]", "[s | es]"). Glued to a word by `(` in
        /// hassil's templates, up to its ")", where one ending may be empty ("(s | )").
        mutating func wordEndings(closedBy closing: Character = "]") throws(SyntaxError) -> [String] {
            let start = index
            index += 1
            var endings: [String] = []
            var ending = ""
            while index < text.count, text[index] != closing {
                let character = text[index]
                if character == "|" {
                    endings.append(trimmed(ending))
                    ending = ""
                } else if character.isLetter || character.isNumber || character == "'" || character == " " {
                    ending.append(character)
                } else {
                    throw error(
                        "letters that end the word before \"[\" (as in light[s])", found: "\"\(character)\"")
                }
                index += 1
            }
            guard index < text.count else {
                throw SyntaxError(
                    column: text.count + 1, message: "expected \"\(closing)\", found the end of the phrase")
            }
            index += 1
            endings.append(trimmed(ending))
            let required = closing == ")"
            guard
                endings.allSatisfy({ ($0 == " " || !$0.contains(" ")) && (required || !$0.isEmpty) }),
                !endings.allSatisfy(\.isEmpty)
            else {
                throw SyntaxError(
                    column: start + 1,
                    message:
                        "an ending inside a word takes letters only (light[s]); put a space before \"[\" for an optional word"
                )
            }
            if dialect == .catalog, index < text.count, !text[index].isWhitespace,
                !"])|;".contains(text[index])
            {
                throw error("a space after the ending \"\(closing)\"")
            }
            return endings
        }

        /// An ending as written, without the spaces around it; in hassil's templates, an ending
        /// of spaces alone is a space ("day[ ]light" is "daylight" or "day light").
        func trimmed(_ ending: String) -> String {
            let letters = ending.trimmingCharacters(in: .whitespaces)
            return dialect == .hassil && letters.isEmpty && !ending.isEmpty ? " " : letters
        }

        /// A named rule's elements, from its "<" to just after its ">".
        mutating func rule() throws(SyntaxError) -> [PhraseElement] {
            let start = index
            index += 1
            let trimmed = try name(closedBy: ">", opened: "<", at: start).trimmingCharacters(in: .whitespaces)
            guard let elements = rules[trimmed] else {
                let known = rules.keys.sorted().map { "<\($0)>" }.joined(separator: ", ")
                throw SyntaxError(
                    column: start + 1,
                    message: "no rule named <\(trimmed)>"
                        + (known.isEmpty
                            ? "; declare it under rules: in the catalog" : "; the catalog has: \(known)"))
            }
            // A rule's own brackets count from where it is used: rules used inside rules inside
            // brackets would otherwise nest without bound.
            let nesting = elements.map(\.nesting).max() ?? 0
            guard depth + nesting <= PhraseParser.deepestNesting else {
                throw SyntaxError(
                    column: start + 1,
                    message:
                        "<\(trimmed)> nests \(nesting) deep inside \(depth) brackets, more than \(PhraseParser.deepestNesting)"
                )
            }
            return elements
        }

        /// The text up to `closing`, and past it; an error at `start` when the phrase ends first.
        mutating func name(closedBy closing: Character, opened opening: String, at start: Int)
            throws(SyntaxError) -> String
        {
            var name = ""
            while index < text.count, text[index] != closing {
                name.append(text[index])
                index += 1
            }
            guard index < text.count else {
                throw SyntaxError(
                    column: start + 1,
                    message: "expected \"\(closing)\" to close \"\(opening)\", found the end of the phrase")
            }
            index += 1
            return name
        }

        /// A hassil list reference, `{list}` or `{list:slot}`, from its "{" to just after its "}":
        /// the placeholder of the slot (the list's name when no slot is given).
        mutating func listReference() throws(SyntaxError) -> PhraseElement {
            let start = index
            index += 1
            let reference = try name(closedBy: "}", opened: "{", at: start)
            let parts = reference.split(separator: ":", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard parts.count <= 2,
                parts.allSatisfy({ part in
                    !part.isEmpty && part.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
                })
            else {
                throw SyntaxError(
                    column: start + 2,
                    message: "expected {list} or {list:slot} in { }, found \"\(reference)\"")
            }
            return .placeholder(parts.last!)
        }

        mutating func placeholder() throws(SyntaxError) -> PhraseElement {
            let start = index
            index += 2
            let name = try name(closedBy: "}", opened: "${", at: start)
            let trimmed = name.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty, trimmed.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
                throw SyntaxError(
                    column: start + 3, message: "expected a parameter name in ${ }, found \"\(name)\"")
            }
            return trimmed == PhraseParser.applicationNamePlaceholder
                ? .applicationName : .placeholder(trimmed)
        }

        func error(_ expected: String, found: String? = nil) -> SyntaxError {
            let what = found ?? (index < text.count ? "\"\(text[index])\"" : "the end of the phrase")
            return SyntaxError(column: index + 1, message: "expected \(expected), found \(what)")
        }
    }
}
