/// A problem in a phrase catalog or phrase test file: where, what was expected, what was found.
///
/// Printed as compilers print errors, so editors and CI can jump to it:
/// `Phrases/en/library.yaml:12:18: error: expected "]", found the end of the phrase`.
public struct PhraseFileError: Error, Sendable, Hashable, CustomStringConvertible {
    public let file: String
    /// The line (from 1), or 0 when the position is unknown.
    public let line: Int
    /// The column (from 1), or 0 when the position is unknown.
    public let column: Int
    public let message: String

    public init(file: String, line: Int = 0, column: Int = 0, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String {
        line > 0 ? "\(file):\(line):\(column): error: \(message)" : "\(file): error: \(message)"
    }
}
