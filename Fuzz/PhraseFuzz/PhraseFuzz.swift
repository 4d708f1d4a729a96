// Coverage-guided fuzzing of what reads people's phrase files: the phrase syntax, the YAML
// catalog and the phrase-test file. Every input must be read or refused with an error that says
// where (line and column); a crash, a hang, or an error without a position is a finding.
//
//     Scripts/fuzz.sh catalog 1000000
//
// Built only with VOICE_INTENTS_FUZZ set, and with -sanitize=fuzzer, which links libFuzzer; its
// entry point hands over to libFuzzer's driver.
// PHRASE_FUZZ_TARGET chooses what is read: syntax, catalog or tests.

import Foundation
import FuzzDriver
import PhraseMatching

/// What this run reads.
let fuzzTarget = ProcessInfo.processInfo.environment["PHRASE_FUZZ_TARGET"] ?? "syntax"

/// Rules for the syntax target, so that `<name>` references are read too.
let fuzzRules: [String: [PhraseElement]] = ["buy": [.alternatives([[.word("buy")], [.word("get")]])]]

@_cdecl("LLVMFuzzerTestOneInput")
public func phraseFuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    switch fuzzTarget {
    case "syntax":
        do {
            _ = try PhraseParser.parse(text, rules: fuzzRules)
        } catch {
            guard error.column >= 1 else { fatalError("a syntax error without a column: \(error)") }
        }
    case "catalog":
        do {
            _ = try PhraseCatalog.parse(text, file: "fuzz.yaml")
        } catch {
            guard error.line >= 1, error.column >= 1 else {
                fatalError("an error without a position: \(error)")
            }
        }
    case "tests":
        do {
            _ = try PhraseTestSuite.parse(text, file: "fuzz.yaml")
        } catch {
            guard error.line >= 1, error.column >= 1 else {
                fatalError("an error without a position: \(error)")
            }
        }
    default:
        fatalError("PHRASE_FUZZ_TARGET is \(fuzzTarget); expected syntax, catalog or tests")
    }
    return 0
}

/// The program's entry point as SwiftPM links an executable target (`<module>_main`): runs
/// libFuzzer on ``phraseFuzz(_:_:)``.
@_cdecl("PhraseFuzz_main")
public func phraseFuzzMain(
    _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
    runFuzzer(argc, argv) { phraseFuzz($0, $1) }
}
