import Foundation

/// A process's memory as Linux reports it in `/proc/<pid>/status`, in MiB.
public enum ProcessMemory {
    /// Resident (VmRSS) and peak resident (VmHWM) memory of process `pid`; `nil` once it is gone.
    public static func of(pid: Int32) -> (resident: Double, peak: Double)? {
        read("/proc/\(pid)/status")
    }

    /// The same for this process (0 where it cannot be read).
    public static var current: (resident: Double, peak: Double) { read("/proc/self/status") ?? (0, 0) }

    private static func read(_ path: String) -> (resident: Double, peak: Double)? {
        guard let status = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        func field(_ name: String) -> Double {
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name) }) else {
                return 0
            }
            return (Double(line.split(separator: " ").dropFirst().first ?? "0") ?? 0) / 1024
        }
        return (field("VmRSS:"), field("VmHWM:"))
    }
}
