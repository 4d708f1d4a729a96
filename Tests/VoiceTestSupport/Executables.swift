import Foundation
import Testing

/// The package's executables, built next to the test bundle, run as a user would run them.
package enum Executables {
    /// Runs `name` with `arguments` from the package root, with `input` (if any) on its standard
    /// input; its exit status and what it printed.
    ///
    /// Blocks its thread until the process ends (Foundation's `waitUntilExit` sleeps in that
    /// thread's run loop meanwhile, using next to no processor). A test that mostly waits for
    /// processes calls it inside ``offThePool(_:)``, so that the wait holds a thread of its own
    /// and not one of Swift's cooperative threads (two on a two-core machine).
    package static func run(
        _ name: String, _ arguments: [String], environment: [String: String]? = nil, input: String? = nil
    ) throws -> (status: Int32, output: String, errors: String) {
        try run(Self.process(name, arguments, environment: environment), input: input.map { Data($0.utf8) })
    }

    /// Runs `name` with `arguments` from the package root, with `bytes` on its standard input.
    package static func run(
        _ name: String, _ arguments: [String], standardInput bytes: Data
    ) throws -> (status: Int32, output: String, errors: String) {
        try run(Self.process(name, arguments), input: bytes)
    }

    /// Runs `executable` (a path, or a command looked up on the path) with `arguments` in
    /// `folder`; its exit status and what it printed.
    package static func run(
        command executable: String, _ arguments: [String], in folder: URL,
        environment: [String: String]? = nil
    ) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable.contains("/") ? executable : "/usr/bin/env")
        process.arguments = executable.contains("/") ? arguments : [executable] + arguments
        process.currentDirectoryURL = folder
        if let environment { process.environment = environment }
        return try run(process)
    }

    /// Runs `process` to its end, with `input` on its standard input; what it prints goes through
    /// files, so that a long output (a build's) cannot fill a pipe and stall it.
    private static func run(_ process: Process, input: Data? = nil) throws -> (
        status: Int32, output: String, errors: String
    ) {
        let folder = FileManager.default.temporaryDirectory
        let files = ["out", "err"].map { folder.appendingPathComponent("process-\(UUID()).\($0)") }
        for file in files { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
        defer { for file in files { try? FileManager.default.removeItem(at: file) } }
        let output = try FileHandle(forWritingTo: files[0])
        let errors = try FileHandle(forWritingTo: files[1])
        process.standardOutput = output
        process.standardError = errors
        let standardInput = Pipe()
        if input != nil { process.standardInput = standardInput }
        try process.run()
        if let input {
            standardInput.fileHandleForWriting.write(input)
            try standardInput.fileHandleForWriting.close()
        }
        process.waitUntilExit()
        try output.close()
        try errors.close()
        return (
            process.terminationStatus, try String(contentsOf: files[0], encoding: .utf8),
            try String(contentsOf: files[1], encoding: .utf8)
        )
    }

    /// `name` with `arguments`, set to run from the package root, not started yet.
    package static func process(
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
