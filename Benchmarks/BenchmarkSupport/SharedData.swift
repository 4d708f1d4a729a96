// Where the benchmarks find data: people's recordings in the repository (`Tests/Recordings`, the
// clips the tests hear), and what the repository does not hold (the whole collection of people's
// recordings, training data, wake-word negatives) in one folder outside it, named by
// `VOICE_INTENTS_SHARED`. `Scripts/shared-data.sh` is the same lookup for the scripts.

import Foundation

/// The folder of data kept outside the repository: `$VOICE_INTENTS_SHARED`, else the folder
/// `shared` beside the repository. It holds `recordings/`, `training/` and `wake-word-negatives/`.
public enum SharedData {
    /// The environment variable that names the folder.
    public static let variable = "VOICE_INTENTS_SHARED"

    /// The repository the benchmark was built from.
    public static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// `$VOICE_INTENTS_SHARED`, else `shared` beside the repository.
    public static var folder: URL {
        if let path = ProcessInfo.processInfo.environment[variable], !path.isEmpty {
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        return repository.deletingLastPathComponent().appendingPathComponent("shared")
    }

    /// `path` in the folder (`recordings/spoken-digits`), which must be there: a benchmark without
    /// it stops before measuring, saying which variable to set and where the data goes.
    public static func require(_ path: String) throws -> URL {
        let url = folder.appendingPathComponent(path)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw BenchmarkFailure(
                """
                no \(url.path): this benchmark needs data the repository does not hold. Set \(variable) \
                to the folder that holds recordings/, training/ and wake-word-negatives/ (default: shared \
                beside the repository), with \(path) in it (Benchmarks/README.md).
                """)
        }
        return url
    }
}

/// People's recordings: the repository's copies where they are enough, else the whole collection
/// in `recordings/` of ``SharedData`` (the same files, byte for byte).
public enum PeoplesRecordings {
    /// The repository's copies: every clip of `rhasspy-test-en` and `speech-to-phrase-en`, and
    /// the takes of `spoken-digits` the tests hear.
    public static let inRepository = SharedData.repository.appendingPathComponent("Tests/Recordings")

    /// The repository's folder `set`, for the two that it holds whole.
    public static func folder(_ set: String) -> URL {
        inRepository.appendingPathComponent(set)
    }

    /// The folder `set` with every clip collected (all 600 spoken digits), outside the repository.
    public static func collected(_ set: String) throws -> URL {
        try SharedData.require("recordings/\(set)")
    }

    /// The recording `name` of `set`: the repository's copy, else the collection's.
    public static func file(_ set: String, _ name: String) throws -> URL {
        let copy = folder(set).appendingPathComponent(name)
        if FileManager.default.fileExists(atPath: copy.path) { return copy }
        return try SharedData.require("recordings/\(set)/\(name)")
    }
}
