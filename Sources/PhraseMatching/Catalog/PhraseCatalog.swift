import Foundation
import VoiceIntents
import Yams

/// An app's extra phrases for one locale: alternative names, forms of declared phrases, phrases
/// for intents, and negative phrases. See `Phrases/README.md` for the file format.
///
/// ```swift
/// let catalog = try PhraseCatalog.load(app: "travel-tracking", locale: "en", in: phrasesFolder)
/// ```
public struct PhraseCatalog: Sendable {
    /// What a catalog phrase reaches.
    public enum Target: Sendable, Hashable {
        /// The shortcut of a phrase declared in Swift, by its text (`${…}` placeholders).
        case declaredPhrase(String)
        /// The first shortcut of an intent, by identifier.
        case intent(String)
        /// Nothing: a negative phrase.
        case negative
    }

    /// One catalog phrase.
    public struct Entry: Sendable {
        public let target: Target
        public let pattern: PhrasePattern
        public let source: PhraseSource
        /// Values the phrase gives parameters without their being said, by parameter name: a
        /// number, or the title of a named value ("turn on the lights" sets a domain of Light).
        public let fixedValues: [String: String]
        /// The entities each placeholder of the phrase accepts, by parameter name: those whose
        /// `@Property` of the given name has one of the given values ("is ${sensor} detected"
        /// only for gas, smoke and motion sensors). A placeholder not named accepts every value.
        public let narrowing: [String: Narrowing]
        /// Words that stand for a placeholder's values in this phrase only, by parameter name (a
        /// Home Assistant list: "open" is the state on in one phrase, open in another), beside
        /// the catalog's ``PhraseCatalog/valueWords``.
        public let valueWords: [String: [ValueWord]]
        /// The kind of file it comes from.
        public let origin: Origin

        public init(
            target: Target, pattern: PhrasePattern, source: PhraseSource, fixedValues: [String: String] = [:],
            narrowing: [String: Narrowing] = [:], valueWords: [String: [ValueWord]] = [:],
            origin: Origin = .catalog
        ) {
            self.target = target
            self.pattern = pattern
            self.source = source
            self.fixedValues = fixedValues
            self.narrowing = narrowing
            self.valueWords = valueWords
            self.origin = origin
        }
    }

    /// The kind of file a phrase comes from.
    public enum Origin: Sendable, Hashable {
        /// The project's catalog: a phrase the app cannot take (an intent, a parameter or a value
        /// it does not declare) is an error.
        case catalog
        /// A Home Assistant sentence file, written for Home Assistant's intents: what the app
        /// does not declare is left out with a warning (``PhraseMatcher/catalogWarnings``), so
        /// an app can take the sentences of the intents it has from a whole catalog.
        case homeAssistant
    }

    /// Which entities a placeholder accepts in one phrase: those whose properties have the values
    /// given (every property named must have one of its values), as an `EntityPropertyQuery`'s
    /// equal-to comparators would find them.
    public struct Narrowing: Sendable, Hashable {
        /// The accepted values of each property, by the property's name in Swift or its title.
        public let values: [String: [String]]
        /// Where it is written, for errors.
        public let source: PhraseSource

        public init(values: [String: [String]], source: PhraseSource) {
            self.values = values
            self.source = source
        }
    }

    /// More spoken names for the app.
    public var names: [String]
    public var entries: [Entry]
    /// Words that may be said anywhere in a command and mean nothing ("please", "for me").
    public var skipWords: [String]
    /// Words that stand for a value of a parameter, by parameter name: "max" for a brightness of
    /// 100, "the big lamp" for the light titled Standing Light.
    public var valueWords: [String: [ValueWord]] = [:]
    /// The language a Home Assistant sentence file says it is in (`language: en`); `nil` for
    /// the project's own catalogs, whose folder says it.
    public var language: String?
    /// What of the files read is not applied, each where it is written (a Home Assistant
    /// sentence file's `excludes_context:`, for one): the rest of the file is read all the same.
    /// The voice loop logs them, and `lint` prints them (``PhraseMatcher/lint()``).
    public var warnings: [PhraseDiagnostic] = []

    /// Words that stand for one value.
    public struct ValueWord: Sendable {
        /// What is said ("max").
        public let words: String
        /// The value: a number, or the title of a known value ("Standing Light").
        public let value: String
        public let source: PhraseSource

        public init(words: String, value: String, source: PhraseSource) {
            self.words = words
            self.value = value
            self.source = source
        }
    }

    public init(names: [String] = [], entries: [Entry] = [], skipWords: [String] = []) {
        self.names = names
        self.entries = entries
        self.skipWords = skipWords
    }

    /// Adds another catalog's names, entries and skip words.
    public mutating func merge(_ other: PhraseCatalog) {
        names += other.names.filter { !names.contains($0) }
        entries += other.entries
        skipWords += other.skipWords.filter { !skipWords.contains($0) }
        valueWords.merge(other.valueWords) { $0 + $1 }
        warnings += other.warnings
    }

    /// The catalog of `app` in `folder/locale/`: its YAML file (`<app>.yaml`), every YAML or
    /// JSON file in the folder `<app>/` there (Home Assistant's `custom_sentences/<locale>/`
    /// copied as it is, the compiled `en.json` of the `home-assistant-intents` package, or
    /// catalogs), and an `AppShortcuts.xcstrings` there, if any. Empty when the locale
    /// has no files for the app.
    ///
    /// - Throws: ``PhraseFileError`` for an unknown locale, or a malformed file.
    public static func load(app: String, locale: String, in folder: URL) throws(PhraseFileError)
        -> PhraseCatalog
    {
        let localeFolder = folder.appendingPathComponent(locale)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: localeFolder.path, isDirectory: &isFolder),
            isFolder.boolValue
        else {
            let known =
                (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?
                .filter { !$0.hasPrefix(".") && !$0.hasSuffix(".md") }.sorted() ?? []
            throw PhraseFileError(
                file: localeFolder.path,
                message: "no phrases for locale \"\(locale)\""
                    + (known.isEmpty ? "" : "; there are: \(known.joined(separator: ", "))"))
        }
        var catalog = PhraseCatalog()
        let yaml = localeFolder.appendingPathComponent("\(app).yaml")
        if FileManager.default.fileExists(atPath: yaml.path) {
            catalog.merge(try load(from: yaml))
        }
        let sentences = localeFolder.appendingPathComponent(app)
        if let files = try? FileManager.default.contentsOfDirectory(atPath: sentences.path) {
            for file in files.sorted() where [".yaml", ".yml", ".json"].contains(where: file.hasSuffix) {
                let read = try load(from: sentences.appendingPathComponent(file))
                if let language = read.language, language != locale {
                    throw PhraseFileError(
                        file: sentences.appendingPathComponent(file).relativePathForMessages,
                        message:
                            "the file says language \"\(language)\", and it is in the folder of \"\(locale)\""
                    )
                }
                catalog.merge(read)
            }
        }
        let strings = localeFolder.appendingPathComponent("AppShortcuts.xcstrings")
        if FileManager.default.fileExists(atPath: strings.path) {
            catalog.merge(try loadStringCatalog(from: strings, locale: locale))
        }
        return catalog
    }

    /// Reads one YAML catalog file.
    ///
    /// - Throws: ``PhraseFileError`` naming the file, line and column of the first problem.
    public static func load(from url: URL) throws(PhraseFileError) -> PhraseCatalog {
        try load(YAMLDocument(contentsOf: url, displayName: url.relativePathForMessages))
    }

    /// Reads a YAML catalog from `text`, named `file` in errors.
    ///
    /// ```swift
    /// let catalog = try PhraseCatalog.parse("intents:\n  NavigateIntent:\n    - \"go to ${navigationOption}\"\n")
    /// ```
    ///
    /// - Throws: ``PhraseFileError`` naming the line and column of the first problem.
    public static func parse(_ text: String, file: String = "catalog.yaml") throws(PhraseFileError)
        -> PhraseCatalog
    {
        try load(YAMLDocument(text: text, displayName: file))
    }

    private static func load(_ document: YAMLDocument) throws(PhraseFileError) -> PhraseCatalog {
        var catalog = PhraseCatalog()
        let root = try document.mapping(document.root, "a phrase catalog")
        if isHassil(root) { return try loadHassil(document, root: root) }
        // Rules first, wherever they are in the file: each may use the rules above it.
        var rules: [String: [PhraseElement]] = [:]
        for (key, value) in root where try document.string(key, "a key") == "rules" {
            for (ruleKey, ruleText) in try document.mapping(value, "named rules") {
                let ruleName = try document.string(ruleKey, "a rule name")
                guard !ruleName.isEmpty, ruleName.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
                else {
                    throw document.error(
                        ruleKey, "a rule name takes letters, digits and _ only, found \"\(ruleName)\"")
                }
                rules[ruleName] = try parse(ruleText, document, rules: rules).elements
            }
        }
        for (key, value) in root {
            let name = try document.string(key, "a key")
            switch name {
            case "rules":
                continue
            case "values":
                for (parameter, words) in try document.mapping(value, "value words by parameter") {
                    let name = try document.string(parameter, "a parameter name")
                    for (said, meant) in try document.mapping(words, "words and the value each stands for") {
                        let text = try document.string(said, "words")
                        guard !TextNormalizer.tokens(text).isEmpty else {
                            throw document.error(
                                said, "expected words that stand for a value, found \"\(text)\"")
                        }
                        let mark = said.mark
                        catalog.valueWords[name, default: []].append(
                            ValueWord(
                                words: text, value: try document.string(meant, "a value"),
                                source: PhraseSource(
                                    file: document.file, line: mark?.line ?? 0, column: mark?.column ?? 0)))
                    }
                }
            case "skip":
                catalog.skipWords = try document.sequence(value, "words that may be said anywhere").map {
                    node throws(PhraseFileError) in
                    let words = try document.string(node, "a word or words")
                    guard !TextNormalizer.tokens(words).isEmpty else {
                        throw document.error(node, "expected a word to skip, found \"\(words)\"")
                    }
                    return words
                }
            case "names":
                catalog.names = try document.sequence(value, "the app's names").map {
                    node throws(PhraseFileError) in
                    try document.string(node, "a name")
                }
            case "phrases", "intents":
                for (target, phrases) in try document.mapping(
                    value, name == "phrases" ? "declared phrases" : "intents")
                {
                    let targetText = try document.string(
                        target, name == "phrases" ? "a declared phrase" : "an intent identifier")
                    let reach: Target = name == "phrases" ? .declaredPhrase(targetText) : .intent(targetText)
                    for node in try document.sequence(phrases, "phrases") {
                        catalog.entries.append(try entry(node, reach, document, rules: rules))
                    }
                }
            case "negative":
                for node in try document.sequence(value, "negative phrases") {
                    catalog.entries.append(try entry(node, .negative, document, rules: rules))
                }
            default:
                throw document.error(
                    key,
                    "unknown key \"\(name)\"; expected names, skip, values, rules, phrases, intents or negative"
                )
            }
        }
        return catalog
    }

    /// A phrase: its text, or `{ say: text, set: { parameter: value } }` for a phrase that gives
    /// parameters values without their being said, with `only: { parameter: { property: values } }`
    /// for a placeholder that accepts only some entities.
    private static func entry(
        _ node: Node, _ target: Target, _ document: YAMLDocument, rules: [String: [PhraseElement]]
    ) throws(PhraseFileError) -> Entry {
        var phrase = node
        var fixedValues: [String: String] = [:]
        var narrowing: [String: Narrowing] = [:]
        if case .mapping = node {
            var said: Node?
            for (key, value) in try document.mapping(node, "a phrase") {
                switch try document.string(key, "a key") {
                case "say": said = value
                case "set":
                    guard target != .negative else {
                        throw document.error(key, "a negative phrase runs nothing, so it sets no values")
                    }
                    for (parameter, fixed) in try document.mapping(value, "values by parameter") {
                        fixedValues[try document.string(parameter, "a parameter name")] = try document.string(
                            fixed, "a value")
                    }
                case "only":
                    for (parameter, properties) in try document.mapping(value, "properties by parameter") {
                        let name = try document.string(parameter, "a parameter name")
                        var accepted: [String: [String]] = [:]
                        for (property, values) in try document.mapping(properties, "values by property") {
                            let texts: [String]
                            if case .sequence = values {
                                texts = try document.sequence(values, "values").map {
                                    node throws(PhraseFileError) in try document.string(node, "a value")
                                }
                            } else {
                                texts = [try document.string(values, "a value or a list of values")]
                            }
                            guard !texts.isEmpty else {
                                throw document.error(values, "expected at least one value")
                            }
                            accepted[try document.string(property, "a property name")] = texts
                        }
                        let mark = parameter.mark
                        narrowing[name] = Narrowing(
                            values: accepted,
                            source: PhraseSource(
                                file: document.file, line: mark?.line ?? 0, column: mark?.column ?? 0))
                    }
                default:
                    throw document.error(
                        key, "unknown key \"\(try document.string(key, "a key"))\"; expected say, set or only"
                    )
                }
            }
            guard let said else { throw document.error(node, "expected say: with the phrase") }
            phrase = said
        }
        let pattern = try parse(phrase, document, rules: rules)
        let mark = phrase.mark
        return Entry(
            target: target, pattern: pattern,
            source: PhraseSource(
                file: document.file, line: mark?.line ?? 0,
                column: (mark?.column ?? 0) + document.textOffset(phrase)),
            fixedValues: fixedValues, narrowing: narrowing)
    }

    /// The phrase in `node`; a syntax error names the file, line and column.
    private static func parse(_ node: Node, _ document: YAMLDocument, rules: [String: [PhraseElement]])
        throws(PhraseFileError) -> PhrasePattern
    {
        let text = try document.string(node, "a phrase")
        do {
            return try PhraseParser.parse(text, rules: rules)
        } catch {
            throw document.error(
                node, error.message, columnOffset: document.textOffset(node) + error.column - 1)
        }
    }

    /// Reads Apple's `AppShortcuts.xcstrings`: each key is a declared phrase, each of the
    /// locale's `stringUnit.value` or `stringSet.values` a form of it.
    public static func loadStringCatalog(from url: URL, locale: String) throws(PhraseFileError)
        -> PhraseCatalog
    {
        let file = url.relativePathForMessages
        let json: Any
        do {
            json = try JSONSerialization.jsonObject(with: Data(contentsOf: url))
        } catch {
            throw PhraseFileError(
                file: file, message: "not a string catalog (invalid JSON): \(error.localizedDescription)")
        }
        guard let root = json as? [String: Any], let strings = root["strings"] as? [String: Any] else {
            throw PhraseFileError(file: file, message: "expected a string catalog with a \"strings\" object")
        }
        var catalog = PhraseCatalog()
        for (key, value) in strings.sorted(by: { $0.key < $1.key }) {
            let localizations = (value as? [String: Any])?["localizations"] as? [String: Any]
            guard let localized = localizations?[locale] as? [String: Any] else { continue }
            var forms: [String] = []
            if let unit = localized["stringUnit"] as? [String: Any], let text = unit["value"] as? String {
                forms.append(text)
            }
            if let set = localized["stringSet"] as? [String: Any], let values = set["values"] as? [String] {
                forms += values
            }
            for form in forms {
                do {
                    catalog.entries.append(
                        Entry(
                            target: .declaredPhrase(key), pattern: try PhraseParser.parse(form),
                            source: PhraseSource(file: file, line: 0, column: 0)))
                } catch {
                    throw PhraseFileError(file: file, message: "in \"\(key)\" (\(locale)): \(error)")
                }
            }
        }
        return catalog
    }
}

extension URL {
    /// The path relative to the current directory when it is inside it, as tools print paths.
    var relativePathForMessages: String {
        let current = FileManager.default.currentDirectoryPath + "/"
        return path.hasPrefix(current) ? String(path.dropFirst(current.count)) : path
    }
}
