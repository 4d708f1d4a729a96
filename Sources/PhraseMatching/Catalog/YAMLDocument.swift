import Foundation
import Yams

/// A YAML file read as nodes that remember their line and column, so every error can say where.
struct YAMLDocument {
    let file: String
    let root: Node

    /// Reads and parses `url`.
    ///
    /// - Throws: ``PhraseFileError`` when the file cannot be read or is not valid YAML.
    init(contentsOf url: URL, displayName: String) throws(PhraseFileError) {
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw PhraseFileError(
                file: displayName, message: "cannot read the file: \(error.localizedDescription)")
        }
        try self.init(text: text, displayName: displayName)
    }

    /// Parses `text`, named `displayName` in errors.
    ///
    /// - Throws: ``PhraseFileError`` when it is not valid YAML.
    init(text: String, displayName: String) throws(PhraseFileError) {
        file = displayName
        do {
            guard let node = try Yams.compose(yaml: text) else {
                throw PhraseFileError(file: displayName, line: 1, column: 1, message: "the file is empty")
            }
            root = node
        } catch let error as PhraseFileError {
            throw error
        } catch let error as YamlError {
            throw Self.describe(error, file: displayName)
        } catch {
            throw PhraseFileError(file: displayName, message: "\(error)")
        }
    }

    private static func describe(_ error: YamlError, file: String) -> PhraseFileError {
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            let detail = [problem, context?.text].compactMap { $0 }.filter { !$0.isEmpty }.joined(
                separator: " ")
            return PhraseFileError(
                file: file, line: mark.line, column: mark.column, message: "invalid YAML: \(detail)")
        case .reader(let problem, let offset, _, let yaml):
            // The offset counts bytes from the start of the text.
            let before = yaml.utf8.prefix(max(0, offset ?? 0))
            let line = before.count { $0 == 0x0A } + 1
            let column =
                before.count
                - (before.lastIndex(of: 0x0A).map { before.distance(from: before.startIndex, to: $0) + 1 }
                    ?? 0) + 1
            return PhraseFileError(
                file: file, line: line, column: column, message: "invalid YAML: \(problem)")
        case .duplicatedKeysInMapping(let duplicates, let context):
            return PhraseFileError(
                file: file, line: context.mark.line, column: context.mark.column,
                message:
                    "invalid YAML: the key \(duplicates.sorted().joined(separator: ", ")) is written twice")
        default:
            // Nothing in the text to point at (the parser ran out of memory).
            return PhraseFileError(file: file, line: 1, column: 1, message: "invalid YAML: \(error)")
        }
    }

    func error(_ node: Node?, _ message: String, columnOffset: Int = 0) -> PhraseFileError {
        PhraseFileError(
            file: file, line: node?.mark?.line ?? 0, column: (node?.mark?.column ?? 0) + columnOffset,
            message: message)
    }

    func mapping(_ node: Node, _ what: String) throws(PhraseFileError) -> [(key: Node, value: Node)] {
        guard case .mapping(let mapping) = node else {
            throw error(node, "expected \(what) (a mapping of keys to values), found \(Self.kind(of: node))")
        }
        return mapping.map { ($0.key, $0.value) }
    }

    func sequence(_ node: Node, _ what: String) throws(PhraseFileError) -> [Node] {
        if case .scalar(let scalar) = node, scalar.string.isEmpty || node.null != nil { return [] }
        guard case .sequence(let sequence) = node else {
            throw error(node, "expected \(what) (a list), found \(Self.kind(of: node))")
        }
        return Array(sequence)
    }

    func string(_ node: Node, _ what: String) throws(PhraseFileError) -> String {
        guard case .scalar(let scalar) = node else {
            throw error(node, "expected \(what) (text), found \(Self.kind(of: node))")
        }
        return scalar.string
    }

    /// Where the text of a scalar starts: after its opening quote, if any.
    func textOffset(_ node: Node) -> Int {
        if case .scalar(let scalar) = node, scalar.style == .doubleQuoted || scalar.style == .singleQuoted {
            return 1
        }
        return 0
    }

    static func kind(of node: Node) -> String {
        switch node {
        case .scalar(let scalar): scalar.string.isEmpty ? "nothing" : "text \"\(scalar.string)\""
        case .mapping: "a mapping"
        case .sequence: "a list"
        case .alias: "an alias"
        }
    }
}
