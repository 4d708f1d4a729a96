import Foundation

/// `../shared/recordings` beside the repository: people's recordings.
enum PeoplesRecordings {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/recordings")
}
