@_exported import ArgumentParser
import Foundation

// What every benchmark's command line shares. This target links only ArgumentParser, so a
// benchmark that measures its own memory (phrase-benchmark) can use it without loading the
// speech libraries.

/// `yes` or `no`, as the benchmarks' switches are written (`--paced yes`).
public enum YesNo: String, ExpressibleByArgument, CaseIterable, Sendable {
    case yes, no

    public var isOn: Bool { self == .yes }
}

/// How a benchmark that speaks its clips with eSpeak NG and decodes them takes its voices and
/// its parallelism.
public struct SpokenClipOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "eSpeak NG voices that speak the clips, comma-separated (default: the benchmark's own).",
            valueName: "a,b"),
        transform: { $0.split(separator: ",").map(String.init) })
    public var voices: [String]?

    @Option(name: .customLong("jobs"), help: "Clips decoded at once (default: one per core).")
    var givenJobs: Int?

    /// Clips decoded at once.
    public var jobs: Int { givenJobs ?? ProcessInfo.processInfo.activeProcessorCount }

    public init() {}

    public func validate() throws {
        if let givenJobs, givenJobs < 1 {
            throw ValidationError("--jobs takes a whole number above 0, not \(givenJobs)")
        }
    }
}

/// PocketSphinx settings given on the command line as PocketSphinx spells them
/// (`-beam 1e-60 -wbeam 1e-40`), instead of the ones the benchmark compares.
public struct DecoderArguments: ParsableArguments {
    @Argument(
        parsing: .captureForPassthrough,
        help: ArgumentHelp(
            "PocketSphinx settings of your own, as PocketSphinx spells them (e.g. -beam 1e-60 -wbeam 1e-40).",
            valueName: "decoder arguments"))
    public var settings: [String] = []

    public init() {}

    public func validate() throws {
        guard settings.count.isMultiple(of: 2) else {
            throw ValidationError(
                "decoder arguments come in pairs (-name value): \(settings.joined(separator: " "))")
        }
        if let stray = stride(from: 0, to: settings.count, by: 2).map({ settings[$0] }).first(where: {
            !$0.hasPrefix("-")
        }) {
            throw ValidationError("\"\(stray)\" is no decoder setting: they are written -name value")
        }
    }
}

/// A comma-separated list of whole numbers (`--clients 1,2,4`).
public func wholeNumbers(_ text: String) throws -> [Int] {
    try text.split(separator: ",").map { item in
        guard let number = Int(item), number > 0 else {
            throw ValidationError("\"\(item)\" is not a whole number above 0")
        }
        return number
    }
}

/// Why a benchmark cannot measure what was asked (a recording missing, a tool not installed):
/// thrown from `run()`, it is printed as the command's error.
public struct BenchmarkFailure: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
