import CYaml
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
        try Self.checkKeys(text, file: displayName)
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

    /// Refuses a key that is not plain text (`? [a, b]: …`, `{a: b}: …`, `*alias: …`) before
    /// Yams composes the text: its check for keys written twice compares such keys in time that
    /// doubles with every level they nest, so a couple of kilobytes could hang it (found by
    /// fuzzing the phrase-test reader). No phrase file needs one. Syntax errors are left to
    /// Yams, which says them better.
    private static func checkKeys(_ text: String, file: String) throws(PhraseFileError) {
        /// An open collection: a list, or a mapping and whether its next node is a key.
        enum Open { case list, mapping(nextIsKey: Bool) }
        var bytes = Array(text.utf8)
        guard !bytes.isEmpty else { return }  // libyaml takes no empty input; Yams says it is empty
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return }
        defer { yaml_parser_delete(&parser) }
        var failure: PhraseFileError?
        bytes.withUnsafeMutableBufferPointer { buffer in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var open: [Open] = []
            /// A node has ended: in a mapping, a key is followed by a value and a value by a key.
            func ended() {
                if case .mapping(let nextIsKey) = open.last {
                    open[open.count - 1] = .mapping(nextIsKey: !nextIsKey)
                }
            }
            var event = yaml_event_t()
            while failure == nil, yaml_parser_parse(&parser, &event) == 1 {
                defer { yaml_event_delete(&event) }
                let type = event.type
                if type == YAML_STREAM_END_EVENT { return }
                let isNode =
                    type == YAML_SCALAR_EVENT || type == YAML_ALIAS_EVENT || type == YAML_MAPPING_START_EVENT
                    || type == YAML_SEQUENCE_START_EVENT
                if isNode, type != YAML_SCALAR_EVENT, case .mapping(nextIsKey: true) = open.last {
                    let kind =
                        type == YAML_ALIAS_EVENT
                        ? "an alias" : type == YAML_MAPPING_START_EVENT ? "a mapping" : "a list"
                    failure = PhraseFileError(
                        file: file, line: Int(event.start_mark.line) + 1,
                        column: Int(event.start_mark.column) + 1,
                        message: "invalid YAML: a key must be plain text, not \(kind)")
                    return
                }
                switch type {
                case YAML_SEQUENCE_START_EVENT: open.append(.list)
                case YAML_MAPPING_START_EVENT: open.append(.mapping(nextIsKey: true))
                case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                    _ = open.popLast()
                    ended()
                case YAML_SCALAR_EVENT, YAML_ALIAS_EVENT: ended()
                default: break
                }
            }
        }
        if let failure { throw failure }
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
