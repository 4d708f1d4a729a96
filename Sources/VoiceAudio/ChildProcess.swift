import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs a program and waits for it, with `posix_spawn` and `waitpid`, which are safe on any
/// thread (Foundation's `Process` can hang waiting from async code).
package enum ChildProcess {
    /// Runs `arguments` (the program's path first) with no input and its output thrown away:
    /// its exit status (-1 when it could not start or was killed), and, when `keepingErrors`,
    /// the start of what it wrote to its standard error (4 KiB at most).
    package static func run(_ arguments: [String], keepingErrors: Bool = false) -> (
        status: Int32, errors: String
    ) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // Its standard error goes to a file of our own when it is wanted: a pipe could fill.
        let errorFile =
            keepingErrors
            ? FileManager.default.temporaryDirectory.appendingPathComponent(
                "voice-intents-errors-\(UUID().uuidString)"
            ).path : nil
        defer { if let errorFile { unlink(errorFile) } }
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] {
            let path = descriptor == STDERR_FILENO ? errorFile ?? "/dev/null" : "/dev/null"
            let flags = descriptor == STDIN_FILENO ? O_RDONLY : O_WRONLY | O_CREAT | O_TRUNC
            posix_spawn_file_actions_addopen(&actions, descriptor, path, flags, 0o600)
        }
        let status = wait(for: arguments, actions: &actions)
        var errors = ""
        if let errorFile, let handle = FileHandle(forReadingAtPath: errorFile) {
            errors = String(decoding: handle.readData(ofLength: 4_096), as: UTF8.self)
            try? handle.close()
        }
        return (status, errors)
    }

    /// Runs `arguments` (the program's path first) with no input, its standard output and error
    /// both written to the file `log` (replaced): its exit status (-1 when it could not start or
    /// was killed).
    package static func run(_ arguments: [String], writingTo log: String) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO)
        return wait(for: arguments, actions: &actions)
    }

    /// Starts `arguments` with `actions` and waits for it: its exit status, or -1.
    private static func wait(for arguments: [String], actions: inout posix_spawn_file_actions_t) -> Int32 {
        var pointers = arguments.map { strdup($0) } + [nil]
        defer { for pointer in pointers { free(pointer) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, arguments[0], &actions, nil, &pointers, environ) == 0 else { return -1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { return -1 }
        }
        // WIFEXITED and WEXITSTATUS, which Swift does not import.
        return status & 0x7f == 0 ? (status >> 8) & 0xff : -1
    }

    /// The path of `name` in a folder of the `PATH`; `nil` when there is none.
    package static func program(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }
}
