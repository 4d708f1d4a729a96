import Foundation

/// A benchmark's `--name value` options, checked: an option it does not take, one without a
/// value, or a value that is not what it should be stops the benchmark with a message that says
/// which and lists what it takes, instead of measuring something other than was asked for.
public struct BenchmarkOptions {
    private let values: [String: String]
    private let usage: String

    /// Reads `arguments` (the command line's by default). `takes` names each option (without
    /// the dashes) with a word on its value; `usage` is the benchmark's own line.
    public init(
        _ arguments: [String] = Array(CommandLine.arguments.dropFirst()), takes options: [(String, String)],
        usage: String
    ) {
        let list = options.map { "  --\($0.0) \($0.1)" }.joined(separator: "\n")
        self.usage = "usage: \(usage)\noptions:\n\(list)"
        let known = Set(options.map(\.0))
        var values: [String: String] = [:]
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if ["-h", "--help", "help"].contains(argument) {
                print(self.usage)
                exit(0)
            }
            guard argument.hasPrefix("--"), known.contains(String(argument.dropFirst(2))) else {
                Self.fail("unknown option \(argument)", usage: self.usage)
            }
            guard let value = rest.popFirst() else {
                Self.fail("\(argument) needs a value", usage: self.usage)
            }
            values[String(argument.dropFirst(2))] = value
        }
        self.values = values
    }

    /// The value given for `name`, if any.
    public subscript(_ name: String) -> String? { values[name] }

    /// The whole number given for `name`, `fallback` when none was given.
    public func int(_ name: String, default fallback: Int) -> Int {
        guard let text = values[name] else { return fallback }
        guard let value = Int(text), value >= 0 else {
            Self.fail("--\(name) takes a whole number, not \"\(text)\"", usage: usage)
        }
        return value
    }

    /// The value given for `name`, which must be one of `choices`; `fallback` when none was given.
    public func choice(_ name: String, of choices: [String], default fallback: String) -> String {
        guard let text = values[name] else { return fallback }
        guard choices.contains(text) else {
            Self.fail("--\(name) takes \(choices.joined(separator: ", ")), not \"\(text)\"", usage: usage)
        }
        return text
    }

    private static func fail(_ message: String, usage: String) -> Never {
        FileHandle.standardError.write(Data("error: \(message)\n\(usage)\n".utf8))
        exit(2)
    }
}
