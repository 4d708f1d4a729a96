import ArgumentParser
import Foundation
import PhraseMatching
import VoiceAudio
import VoiceIntents

/// Options every phrase command shares.
struct PhraseOptions: ParsableArguments {
    @Option(help: "The Phrases folder (default: $VOICE_INTENTS_PHRASES, or ./Phrases found upwards).")
    var phrases: String?

    @Option(help: "The locale of the catalogs and tests.")
    var locale = "en"

    var location: PhraseLocation { PhraseLocation.find(explicit: phrases, locale: locale) }
}

/// What the app knows without being told, for phrases that take a value from it
/// (`set: { area: $area }` in a catalog: "turn on the lights here").
struct ContextOptions: ParsableArguments {
    @Option(
        name: .customLong("context"),
        help: ArgumentHelp(
            "What the device knows without being told, as key=value (area=Kitchen); repeat for more.",
            valueName: "key=value"))
    var pairs: [String] = []

    /// The pairs by key.
    var values: [String: String] {
        Dictionary(
            pairs.compactMap { pair in
                pair.firstIndex(of: "=").map { (String(pair[..<$0]), String(pair[pair.index(after: $0)...])) }
            }, uniquingKeysWith: { _, last in last })
    }

    func validate() throws {
        for pair in pairs where pair.firstIndex(of: "=").map({ $0 == pair.startIndex }) ?? true {
            throw ValidationError("--context takes key=value (area=Kitchen), not \"\(pair)\"")
        }
    }
}

/// `match`: what a sentence reaches.
struct MatchCommand<Apps: AppSet>: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "match",
            abstract:
                "Show which shortcut a sentence reaches, with which values and score, and the runners-up.")
    }

    @OptionGroup var selection: AppSelection<Apps>

    @OptionGroup var phraseOptions: PhraseOptions

    @OptionGroup var contextOptions: ContextOptions

    @Flag(help: "Print JSON for tools.")
    var json = false

    @Argument(help: "The sentence, as said or typed.")
    var sentence: String

    func run() async throws {
        try await reportingFailures {
            let context = try selection.context()
            let matcher = try await context.matcher(phraseOptions.location)
            let result = await matcher.match(sentence, context: contextOptions.values)
            let joined = await matcher.matchJoined(sentence, context: contextOptions.values, whole: result)
            if json {
                print(MatchReport.json(result, sentence: sentence, joined: joined), terminator: "")
            } else if let joined {
                print(MatchReport.text(joined: joined, app: context.description), terminator: "")
            } else {
                print(MatchReport.text(result, app: context.description), terminator: "")
            }
            if result.best == nil, joined == nil { throw ExitCode(1) }
        }
    }
}

/// `test`: run phrase test files.
struct TestCommand<Apps: AppSet>: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "test",
            abstract: "Run phrase tests (Phrases/<locale>/tests/<app>.yaml) and print every failure.",
            discussion: "Ends with the line \"N passed, N failed\" and exits non-zero when a test failed.")
    }

    @OptionGroup var selection: AppSelection<Apps>

    @OptionGroup var phraseOptions: PhraseOptions

    @Flag(help: "Also list the tests that pass.")
    var verbose = false

    @Flag(
        help: ArgumentHelp(
            "Also time the matcher: how long it takes to compile, and how long each test sentence takes (p50, p99).",
            discussion: "Build with -c release for figures worth comparing."))
    var timing = false

    @Argument(help: "Test files (default: the app's own).")
    var files: [String] = []

    func run() async throws {
        try await reportingFailures {
            let location = phraseOptions.location
            let contexts = files.isEmpty ? try selection.contexts() : [try selection.context()]
            var passed = 0
            var failed = 0
            var ran = 0
            let clock = ContinuousClock()
            for context in contexts {
                let urls =
                    files.isEmpty ? context.testFiles(location) : files.map { URL(fileURLWithPath: $0) }
                guard !urls.isEmpty else { continue }
                let compiling = clock.now
                let matcher = try await context.matcher(location)
                let compiled = clock.now - compiling
                var times: [Duration] = []
                for suite in try PhraseTestSuite.load(from: urls) {
                    ran += 1
                    for testCase in suite.cases {
                        let began = clock.now
                        let result = await matcher.run(testCase)
                        times.append(clock.now - began)
                        if result.passed {
                            passed += 1
                            if verbose { print("ok: \"\(result.testCase.sentence)\" → \(result.got)") }
                        } else {
                            failed += 1
                            print(result)
                        }
                    }
                }
                if timing {
                    print(Self.timing(context.executableName, matcher, compiled: compiled, times: times))
                }
            }
            guard ran > 0 else {
                throw CommandFailure(
                    "no phrase test files in \(location.folder.map { $0.appendingPathComponent(location.locale).appendingPathComponent("tests").relativePath } ?? "Phrases/")"
                )
            }
            print("\(passed) passed, \(failed) failed")
            if failed > 0 { throw ExitCode(1) }
        }
    }
}

extension TestCommand {
    /// The `--timing` line of one app: compile time, and the time per test sentence.
    static func timing(_ app: String, _ matcher: PhraseMatcher, compiled: Duration, times: [Duration])
        -> String
    {
        let sorted = times.sorted()
        func microseconds(_ fraction: Double) -> String {
            guard !sorted.isEmpty else { return "-" }
            return String(format: "%.1f", percentile(sorted, fraction).inSeconds * 1e6)
        }
        let milliseconds = compiled.inSeconds * 1e3
        var line =
            "timing \(app): compiled \(matcher.phraseCount) phrases in \(String(format: "%.1f", milliseconds)) ms; "
            + "per test sentence p50 \(microseconds(0.5)) µs, p99 \(microseconds(0.99)) µs (\(sorted.count) sentences)"
        #if DEBUG
            line += "; a debug build: build with -c release for figures worth comparing"
        #endif
        return line
    }
}

/// Runs `body`, printing a ``CommandFailure`` or a file error on standard error with exit code 1.
/// Phrase file and compile errors already begin with the file, line and column they name.
func reportingFailures(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch  where error is PhraseFileError || error is PhraseMatcher.CompileError {
        FileHandle.standardError.write(Data("\(error)\n".utf8))
        throw ExitCode(1)
    } catch
        where error is CommandFailure || error is VoiceLoopError || error is SpeechError
        || error is AudioFileError
    {
        FileHandle.standardError.write(Data("error: \(error)\n".utf8))
        throw ExitCode(1)
    }
}

/// A failure to report on standard error, with a non-zero exit.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
