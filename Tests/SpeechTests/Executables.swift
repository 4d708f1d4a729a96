import Foundation
import Testing

/// The package's executables, built next to the test bundle, run as a user would run them.
enum Executables {
    /// Runs `name` with `arguments` from the package root, with `input` (if any) on its standard
    /// input; its exit status and what it printed.
    ///
    /// Keep tests that call this synchronous: Foundation's `waitUntilExit` can spin forever in an
    /// async test.
    static func run(
        _ name: String, _ arguments: [String], environment: [String: String]? = nil, input: String? = nil
    ) throws -> (status: Int32, output: String, errors: String) {
        let process = try Self.process(name, arguments, environment: environment)
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let standardInput = Pipe()
        if input != nil { process.standardInput = standardInput }
        try process.run()
        if let input {
            standardInput.fileHandleForWriting.write(Data(input.utf8))
            try standardInput.fileHandleForWriting.close()
        }
        process.waitUntilExit()
        return (
            process.terminationStatus,
            String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
            String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        )
    }

    /// `name` with `arguments`, set to run from the package root, not started yet.
    static func process(
        _ name: String, _ arguments: [String], environment: [String: String]? = nil
    ) throws -> Process {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent(name)
        try #require(FileManager.default.isExecutableFile(atPath: executable.path), "build \(name) first")
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.currentDirectoryURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return process
    }
}
