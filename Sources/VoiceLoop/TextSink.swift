import Foundation

/// Somewhere to write text: standard output, or a buffer in tests.
public struct TextSink: Sendable {
    public let write: @Sendable (String) -> Void

    public init(write: @escaping @Sendable (String) -> Void) {
        self.write = write
    }

    public static let standardOutput = TextSink { text in
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Writes nothing.
    public static let discard = TextSink { _ in }
}
