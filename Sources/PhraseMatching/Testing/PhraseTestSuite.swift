import Foundation
import VoiceIntents
import Yams

/// A file of phrase tests: sentences and the intent and values each must reach, or no match.
/// See `Phrases/README.md` for the format.
public struct PhraseTestSuite: Sendable {
    /// What a sentence must do.
    public enum Expectation: Sendable, Hashable {
        /// Reach `intent` with exactly these values (as spoken titles).
        case intent(String, values: [String: String])
        /// Reach nothing.
        case noMatch
        /// Reach several commands said together, in this order (each an ``intent(_:values:)``):
        /// `intents: [{ intent: …, values: … }, …]` in a test file.
        case joined([Expectation])
    }

    /// One sentence and its expectation.
    public struct Case: Sendable {
        public let sentence: String
        public let expectation: Expectation
        public let source: PhraseSource
        /// A recording of the sentence (`audio:`, relative to the file), for spoken evaluation of
        /// real speech; `say` is then what the recording says.
        public let audio: URL?
        /// What the runtime knows without being told (`context: { area: Kitchen }`: said to a
        /// satellite in the kitchen), as ``PhraseMatcher/match(_:limit:context:)`` takes it.
        public let context: [String: String]

        public init(
            sentence: String, expectation: Expectation, source: PhraseSource, audio: URL? = nil,
            context: [String: String] = [:]
        ) {
            self.sentence = sentence
            self.expectation = expectation
            self.source = source
            self.audio = audio
            self.context = context
        }
    }

    public let file: String
    public let cases: [Case]

    public init(file: String, cases: [Case]) {
        self.file = file
        self.cases = cases
    }

    /// Reads phrase test files in order, where the first file to test a sentence decides what it
    /// must reach: an app's own file comes first, so its test of "lock the front door" replaces
    /// the shared file's (a command for that app, no command for the others).
    ///
    /// - Throws: ``PhraseFileError`` naming the file, line and column of the first problem.
    public static func load(from urls: [URL]) throws(PhraseFileError) -> [PhraseTestSuite] {
        var tested = Set<String>()
        var suites: [PhraseTestSuite] = []
        for url in urls {
            let suite = try load(from: url)
            let cases = suite.cases.filter { !tested.contains(TextNormalizer.key($0.sentence)) }
            suites.append(PhraseTestSuite(file: suite.file, cases: cases))
            tested.formUnion(suite.cases.map { TextNormalizer.key($0.sentence) })
        }
        return suites
    }

    /// Reads a phrase test file.
    ///
    /// - Throws: ``PhraseFileError`` naming the file, line and column of the first problem.
    public static func load(from url: URL) throws(PhraseFileError) -> PhraseTestSuite {
        try load(
            YAMLDocument(contentsOf: url, displayName: url.relativePathForMessages),
            folder: url.deletingLastPathComponent())
    }

    /// Reads phrase tests from `text`, named `file` in errors; `audio:` paths are relative to
    /// `folder`.
    ///
    /// - Throws: ``PhraseFileError`` naming the line and column of the first problem.
    public static func parse(
        _ text: String, file: String = "tests.yaml",
        folder: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    ) throws(PhraseFileError) -> PhraseTestSuite {
        try load(YAMLDocument(text: text, displayName: file), folder: folder)
    }

    private static func load(_ document: YAMLDocument, folder: URL) throws(PhraseFileError) -> PhraseTestSuite
    {
        let root = try document.mapping(document.root, "a phrase test file")
        if root.contains(where: { $0.key.string == "language" }) {
            return try loadHomeAssistant(document, root)
        }
        var cases: [Case] = []
        for (key, value) in root {
            let name = try document.string(key, "a key")
            guard name == "tests" else {
                throw document.error(key, "unknown key \"\(name)\"; expected tests")
            }
            for node in try document.sequence(value, "tests") {
                cases.append(try testCase(node, document, folder: folder))
            }
        }
        guard !cases.isEmpty else { throw document.error(document.root, "expected tests, found none") }
        return PhraseTestSuite(file: document.file, cases: cases)
    }

    /// A test file in Home Assistant's format (`tests/en/*.yaml` of its intents repository):
    /// `language`, then `tests`, each with its `sentences` and the `intent` they reach, by
    /// `name`, with its `slots` (values as spoken, compared as in the project's tests) and the
    /// `context` they are said in (beside `intent` or in it). A file whose name begins with `_`
    /// (`_fixtures.yaml`, `_common.yaml`) holds no tests, and gives none.
    private static func loadHomeAssistant(_ document: YAMLDocument, _ root: [(key: Node, value: Node)])
        throws(PhraseFileError) -> PhraseTestSuite
    {
        let shared = URL(fileURLWithPath: document.file).lastPathComponent.hasPrefix("_")
        var cases: [Case] = []
        for (key, value) in root {
            switch try document.string(key, "a key") {
            case "language": continue
            case "tests":
                for test in try document.sequence(value, "tests") {
                    cases += try homeAssistantCases(test, document)
                }
            case _ where shared: continue
            case let other:
                throw document.error(key, "unknown key \"\(other)\"; expected language or tests")
            }
        }
        guard !cases.isEmpty || shared else {
            throw document.error(document.root, "expected tests, found none")
        }
        return PhraseTestSuite(file: document.file, cases: cases)
    }

    /// One test of Home Assistant's format: a case for each of its sentences.
    private static func homeAssistantCases(_ node: Node, _ document: YAMLDocument) throws(PhraseFileError)
        -> [Case]
    {
        var sentences: [Node] = []
        var intent: String?
        var values: [String: String] = [:]
        var context: [String: String] = [:]
        /// Scalars by key; a list of one value is that value, of several the values joined by
        /// " or " (no parameter takes several, so such a test fails, and says so).
        func scalars(_ node: Node, _ what: String) throws(PhraseFileError) -> [String: String] {
            var found: [String: String] = [:]
            for (key, value) in try document.mapping(node, what) {
                let text: String =
                    if case .sequence = value {
                        try document.sequence(value, "values").map { node throws(PhraseFileError) in
                            try document.string(node, "a value")
                        }.joined(separator: " or ")
                    } else {
                        try document.string(value, "a value")
                    }
                found[try document.string(key, "a name")] = text
            }
            return found
        }
        for (key, value) in try document.mapping(node, "a test (sentences, intent)") {
            switch try document.string(key, "a key") {
            case "sentences": sentences = try document.sequence(value, "the sentences said")
            case "intent":
                for (field, part) in try document.mapping(value, "the intent (name, slots)") {
                    switch try document.string(field, "a key") {
                    case "name": intent = try document.string(part, "an intent name")
                    case "slots": values = try scalars(part, "slots by name")
                    case "context": context.merge(try scalars(part, "context by key")) { $1 }
                    case let other:
                        throw document.error(
                            field, "unknown key \"\(other)\"; expected name, slots or context")
                    }
                }
            case "context": context.merge(try scalars(value, "context by key")) { $1 }
            case "response", "metadata": continue
            case let other:
                throw document.error(
                    key, "unknown key \"\(other)\"; expected sentences, intent, context, response or metadata"
                )
            }
        }
        guard let intent else { throw document.error(node, "expected intent: with its name, found none") }
        guard !sentences.isEmpty else { throw document.error(node, "expected sentences, found none") }
        return try sentences.map { sentence throws(PhraseFileError) in
            let mark = sentence.mark
            return Case(
                sentence: try document.string(sentence, "a sentence"),
                expectation: .intent(intent, values: values),
                source: PhraseSource(file: document.file, line: mark?.line ?? 0, column: mark?.column ?? 0),
                context: context)
        }
    }

    /// `values: { parameter: spoken value, … }`.
    private static func values(_ node: Node, _ document: YAMLDocument) throws(PhraseFileError) -> [String:
        String]
    {
        var values: [String: String] = [:]
        for (name, spoken) in try document.mapping(node, "values by parameter name") {
            values[try document.string(name, "a parameter name")] = try document.string(spoken, "a value")
        }
        return values
    }

    private static func testCase(_ node: Node, _ document: YAMLDocument, folder: URL) throws(PhraseFileError)
        -> Case
    {
        var sentence: String?
        var intent: String?
        var joined: [Expectation]?
        var audio: URL?
        var values: [String: String] = [:]
        var context: [String: String] = [:]
        for (key, value) in try document.mapping(node, "a test (say, intent, values)") {
            switch try document.string(key, "a key") {
            case "say":
                sentence = try document.string(value, "the sentence to say")
                if sentence?.trimmingCharacters(in: .whitespaces).isEmpty == true {
                    throw document.error(value, "expected a sentence after say, found nothing")
                }
            case "intent": intent = try document.string(value, "an intent identifier or none")
            case "intents":
                var commands: [Expectation] = []
                for command in try document.sequence(value, "the commands said together, in order") {
                    var name: String?
                    var said: [String: String] = [:]
                    for (key, part) in try document.mapping(command, "a command (intent, values)") {
                        switch try document.string(key, "a key") {
                        case "intent": name = try document.string(part, "an intent identifier")
                        case "values": said = try Self.values(part, document)
                        case let other:
                            throw document.error(key, "unknown key \"\(other)\"; expected intent or values")
                        }
                    }
                    guard let name, name != "none" else {
                        throw document.error(command, "expected intent: with an identifier, found none")
                    }
                    commands.append(.intent(name, values: said))
                }
                guard commands.count >= 2 else {
                    throw document.error(value, "intents: lists two commands or more; one is intent:")
                }
                joined = commands
            case "audio":
                let path = try document.string(value, "a recording's path")
                audio = path.hasPrefix("/") ? URL(fileURLWithPath: path) : folder.appendingPathComponent(path)
            case "values": values = try Self.values(value, document)
            case "context":
                for (name, known) in try document.mapping(value, "what the runtime knows, by key") {
                    context[try document.string(name, "a context key")] = try document.string(
                        known, "a value")
                }
            case let other:
                throw document.error(
                    key, "unknown key \"\(other)\"; expected say, intent, intents, values, context or audio")
            }
        }
        guard let sentence else { throw document.error(node, "expected say: with a sentence, found none") }
        if let joined {
            guard intent == nil, values.isEmpty else {
                throw document.error(
                    node, "a test with intents: has its values in each command, and no intent:")
            }
            let mark = node.mark
            return Case(
                sentence: sentence, expectation: .joined(joined),
                source: PhraseSource(file: document.file, line: mark?.line ?? 0, column: mark?.column ?? 0),
                audio: audio, context: context)
        }
        guard let intent else {
            throw document.error(node, "expected intent: (an identifier, or none), found none")
        }
        if intent == "none", !values.isEmpty {
            throw document.error(node, "a test with intent: none cannot expect values")
        }
        let mark = node.mark
        return Case(
            sentence: sentence,
            expectation: intent == "none" ? .noMatch : .intent(intent, values: values),
            source: PhraseSource(file: document.file, line: mark?.line ?? 0, column: mark?.column ?? 0),
            audio: audio, context: context)
    }
}

/// The result of one phrase test.
public struct PhraseTestResult: Sendable, CustomStringConvertible {
    public let testCase: PhraseTestSuite.Case
    public let passed: Bool
    /// What the matcher made of the sentence, in the expectation's terms.
    public let got: String

    /// The expectation, in the same terms as ``got``.
    public var expected: String { PhraseTestResult.describe(testCase.expectation) }

    /// `file:line:column: error: "sentence": expected … got …`.
    public var description: String {
        "\(testCase.source): error: \"\(testCase.sentence)\": expected \(expected), got \(got)"
    }

    static func describe(_ expectation: PhraseTestSuite.Expectation) -> String {
        switch expectation {
        case .noMatch: "no match"
        case .intent(let intent, let values):
            "\(intent)(\(values.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")))"
        case .joined(let commands): commands.map(describe).joined(separator: " + ")
        }
    }
}

extension PhraseMatcher {
    /// Runs every case of `suite`.
    public func run(_ suite: PhraseTestSuite) async -> [PhraseTestResult] {
        var results: [PhraseTestResult] = []
        for testCase in suite.cases {
            results.append(await run(testCase))
        }
        return results
    }

    /// Runs one case: the best match must be the expected intent with exactly the expected values
    /// (compared as normalised words), or there must be none.
    public func run(_ testCase: PhraseTestSuite.Case) async -> PhraseTestResult {
        let (got, description) = await outcome(of: testCase.sentence, context: testCase.context)
        return PhraseTestResult(
            testCase: testCase, passed: testCase.expectation.isMet(by: got), got: description)
    }

    /// What `sentence` reaches, in a phrase test's terms, and the same in words for a report (with
    /// the score, or why nothing was reached): several commands when it joins them
    /// (``matchJoined(_:context:whole:)``).
    public func outcome(of sentence: String, context: [String: String] = [:]) async -> (
        PhraseTestSuite.Expectation, description: String
    ) {
        let whole = await match(sentence, context: context)
        if let parts = await matchJoined(sentence, context: context, whole: whole) {
            return outcome(ofJoined: parts)
        }
        return outcome(of: whole)
    }

    /// The cases that reach an intent with no context and pass alone, with what each reaches:
    /// the commands ``joinedAsBoth(_:_:)`` joins two by two.
    package func commandsThatPassAlone(_ cases: [PhraseTestSuite.Case]) async -> [(
        sentence: String, outcome: PhraseTestSuite.Expectation
    )] {
        var alone: [(sentence: String, outcome: PhraseTestSuite.Expectation)] = []
        for testCase in cases where testCase.expectation.intent != nil && testCase.context.isEmpty {
            let (outcome, _) = outcome(of: await match(testCase.sentence))
            if testCase.expectation.isMet(by: outcome) { alone.append((testCase.sentence, outcome)) }
        }
        return alone
    }

    /// `first` and `second` said as one sentence, joined by "and", and whether
    /// ``matchJoined(_:context:whole:)`` reads it as both, in order, each reaching what it reaches
    /// alone; `got`, what it was read as.
    package func joinedAsBoth(
        _ first: (sentence: String, outcome: PhraseTestSuite.Expectation),
        _ second: (sentence: String, outcome: PhraseTestSuite.Expectation)
    ) async -> (sentence: String, isBoth: Bool, got: [PhraseTestSuite.Expectation]) {
        let sentence = "\(first.sentence) and \(second.sentence)"
        let got = await matchJoined(sentence)?.map { outcome(of: $0).0 } ?? []
        let isBoth = got.count == 2 && first.outcome.isMet(by: got[0]) && second.outcome.isMet(by: got[1])
        return (sentence, isBoth, got)
    }

    /// What the commands of a joined sentence reach, in order, as a phrase test's `intents:`.
    public func outcome(ofJoined parts: [MatchResult]) -> (PhraseTestSuite.Expectation, description: String) {
        let outcomes = parts.map { outcome(of: $0) }
        return (.joined(outcomes.map(\.0)), outcomes.map(\.description).joined(separator: " + "))
    }

    /// What a match already made reaches, in a phrase test's terms, described as for a sentence.
    public func outcome(of result: MatchResult) -> (PhraseTestSuite.Expectation, description: String) {
        if let best = result.best {
            // Words that name no known value leave the parameter unfilled: the runtime asks.
            let values = best.values.filter(\.value.isKnown).mapValues { $0.title ?? $0.words }
            let got = PhraseTestSuite.Expectation.intent(best.intent, values: values)
            return (got, PhraseTestResult.describe(got) + String(format: " score %.2f", best.score))
        }
        var description = "no match"
        if result.isAmbiguous {
            description +=
                " (ambiguous: \(result.candidates.prefix(2).map(\.description).joined(separator: " / ")))"
        } else if let negative = result.negativePhrase {
            description += " (negative phrase \"\(negative)\")"
        } else if let top = result.candidates.first {
            description += " (best \(top), below \(String(format: "%.2f", threshold)))"
        }
        return (.noMatch, description)
    }
}

extension PhraseTestSuite.Expectation: CustomStringConvertible {
    /// Whether `got` is what this expects: the same intent with the same values (compared as
    /// normalised words), or no match for no match.
    public func isMet(by got: PhraseTestSuite.Expectation) -> Bool {
        switch (self, got) {
        case (.noMatch, .noMatch): return true
        case (.intent(let wanted, let wantedValues), .intent(let found, let foundValues)):
            return wanted == found
                && wantedValues.mapValues(TextNormalizer.key) == foundValues.mapValues(TextNormalizer.key)
        case (.joined(let wanted), .joined(let found)):
            return wanted.count == found.count && zip(wanted, found).allSatisfy { $0.isMet(by: $1) }
        default: return false
        }
    }

    /// `NavigateIntent(navigationOption: Map)`, or `no match`.
    public var description: String { PhraseTestResult.describe(self) }

    /// The intent's identifier (the first command's, of several); `nil` for no match.
    public var intent: String? {
        switch self {
        case .intent(let intent, _): intent
        case .joined(let commands): commands.first?.intent
        case .noMatch: nil
        }
    }

    /// The values by parameter name (none for no match, nor for several commands: each has its
    /// own).
    public var values: [String: String] {
        if case .intent(_, let values) = self { return values }
        return [:]
    }
}

extension PhraseTestSuite.Case: CustomStringConvertible {
    /// The sentence and what it must do, as a test's name.
    public var description: String {
        "\"\(sentence)\" → \(PhraseTestResult.describe(expectation))"
    }
}

extension PhraseTestSuite {
    /// The cases of a phrase test file, as arguments of a Swift Testing test: each sentence
    /// becomes its own test case, reported by name.
    ///
    /// ```swift
    /// @Test(arguments: try PhraseTestSuite.cases(in: "Phrases/en/tests/travel-tracking.yaml"))
    /// func phrase(_ testCase: PhraseTestSuite.Case) async throws {
    ///     let result = await matcher.run(testCase)
    ///     #expect(result.passed, "\(result)")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - path: The file, relative to the package root (the first folder above `file` that holds
    ///     a `Package.swift`), or absolute.
    ///   - file: Where the call is; found by the compiler.
    /// - Throws: ``PhraseFileError`` when the file is missing or malformed.
    public static func cases(in path: String, relativeTo file: String = #filePath) throws -> [Case] {
        var url = URL(fileURLWithPath: path)
        if !path.hasPrefix("/") {
            var folder = URL(fileURLWithPath: file).deletingLastPathComponent()
            while folder.path != "/",
                !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path)
            {
                folder.deleteLastPathComponent()
            }
            url = folder.appendingPathComponent(path)
        }
        return try load(from: url).cases
    }
}
