import Foundation
import Testing

/// A fresh temporary directory, removed by the caller.
package func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
        "AudioFileTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// A fresh folder called `name-<UUID>`, removed by the caller.
package func temporaryFolder(_ name: String) throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

/// Debian's recording of "go forward ten meters" (`pocketsphinx-testdata`), 16 kHz raw PCM.
package let goForwardPath = "/usr/share/pocketsphinx/test/data/goforward.raw"

/// People's recordings, in the repository (`Tests/Recordings`, see its README): the clips the
/// tests hear, each folder with its licence.
package enum PeoplesRecordings {
    package static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Recordings")

    /// The recording `name` of `set`, which must be there: a missing one fails the test that
    /// needs it, saying where it was looked for.
    package static func file(_ set: String, _ name: String) throws -> URL {
        let url = folder.appendingPathComponent(set).appendingPathComponent(name)
        try #require(
            FileManager.default.fileExists(atPath: url.path),
            "no \(url.path): a test that hears a recording needs it in Tests/Recordings (see its README)")
        return url
    }

    /// `voice-intents listen --app smart-home` over `input`, muted and voice only, as a person
    /// would run it, with `flags` added.
    package static func listen(
        _ input: URL, _ flags: [String] = [], environment: [String: String]? = nil
    ) throws -> (status: Int32, output: String, errors: String) {
        try Executables.run(
            "voice-intents",
            ["listen", "--app", "smart-home", "--input", input.path, "--mute", "--voice-only"] + flags,
            environment: environment)
    }
}
