import Foundation

extension DecodingError {
    /// What is wrong, for a message about a file: the field's path and what was wrong with it
    /// (`missing "tuning.threshold"`, `threshold: Expected Double`).
    var summary: String {
        switch self {
        case .keyNotFound(let key, let context):
            let path = (context.codingPath.map(\.stringValue) + [key.stringValue]).joined(separator: ".")
            return "missing \"\(path)\""
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return (path.isEmpty ? "" : "\(path): ") + context.debugDescription
        @unknown default:
            return "\(self)"
        }
    }
}
