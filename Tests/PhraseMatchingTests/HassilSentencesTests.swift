import Foundation
import PhraseMatching
import Testing
import VoiceIntents

// A house whose intents are named as Home Assistant names them, so that a Home Assistant
// user's sentence file (hassil's YAML, `custom_sentences/en/*.yaml`) drives them as it is.

enum HouseDomain: String, AppEnum {
    case light, fan
    static let typeDisplayRepresentation: TypeDisplayRepresentation = "Domain"
    static let caseDisplayRepresentations: [HouseDomain: DisplayRepresentation] = [
        .light: "light", .fan: "fan",
    ]
}

enum HouseColor: String, AppEnum {
    case red, blue, green
    static let typeDisplayRepresentation: TypeDisplayRepresentation = "Color"
    static let caseDisplayRepresentations: [HouseColor: DisplayRepresentation] = [
        .red: "red", .blue: "blue", .green: "green",
    ]
}

struct HouseDevice: AppEntity {
    let id: String
    @Property(title: "Domain") var domain: String

    init(_ id: String, _ domain: String) {
        self.id = id
        self.domain = domain
    }

    static let typeDisplayRepresentation: TypeDisplayRepresentation = "Device"
    var displayRepresentation: DisplayRepresentation { "\(id)" }
    static let defaultQuery = HouseDeviceQuery()
}

struct HouseDeviceQuery: EntityQuery {
    static let all = [
        HouseDevice("Kitchen Light", "light"), HouseDevice("Porch Fan", "fan"),
        HouseDevice("Desk Lamp", "light"),
    ]
    func entities(for identifiers: [String]) async throws -> [HouseDevice] {
        Self.all.filter { identifiers.contains($0.id) }
    }
    func suggestedEntities() async throws -> [HouseDevice] { Self.all }
}

enum HouseArea: String, AppEnum {
    case kitchen, bedroom
    static let typeDisplayRepresentation: TypeDisplayRepresentation = "Area"
    static let caseDisplayRepresentations: [HouseArea: DisplayRepresentation] = [
        .kitchen: "Kitchen", .bedroom: "Bedroom",
    ]
}

struct HassTurnOn: AppIntent {
    static let title: LocalizedStringResource = "Turn On"
    @Parameter var name: HouseDevice?
    @Parameter var area: HouseArea?
    @Parameter var domain: HouseDomain?
    func perform() async throws -> some IntentResult { .result() }
}

struct HassLightSet: AppIntent {
    static let title: LocalizedStringResource = "Set Light"
    @Parameter var name: HouseDevice
    @Parameter var color: HouseColor?
    @Parameter var brightness: Int?
    func perform() async throws -> some IntentResult { .result() }
}

struct HassShoppingListAddItem: AppIntent {
    static let title: LocalizedStringResource = "Add to the Shopping List"
    @Parameter var item: String
    func perform() async throws -> some IntentResult { .result() }
}

struct HouseShortcuts: AppShortcutsProvider {
    static var appShortcuts: [AppShortcut] {
        AppShortcut(
            intent: HassTurnOn(), phrases: ["Turn on \(\.$name) with \(.applicationName)"], shortTitle: "On",
            systemImageName: "power")
        AppShortcut(
            intent: HassLightSet(), phrases: ["Set \(\.$name) with \(.applicationName)"], shortTitle: "Set",
            systemImageName: "lightbulb")
        AppShortcut(
            intent: HassShoppingListAddItem(), phrases: ["Add \(\.$item) with \(.applicationName)"],
            shortTitle: "Add", systemImageName: "cart")
    }
}

@Suite("Home Assistant's sentence files")
struct HassilSentencesTests {
    /// Written for these tests in the format of Home Assistant's `custom_sentences`.
    static let sentences = """
        language: "en"
        intents:
          HassTurnOn:
            data:
              - sentences:
                  - "<turn> on [the] {name}"
                  - "<turn> [the] {name} on"
                requires_context:
                  domain: light
              - sentences:
                  - "<turn> on [the] lights in [the] {area}"
                  - "<turn> on the lights"
                slots:
                  domain: light
                requires_context:
                  area:
                    slot: true
          HassLightSet:
            data:
              - sentences:
                  - "(set|make) [the] {name} [colo[u]r] [to] {color}"
                  - "set [the] {name} brightness to {brightness} [percent]"
                  - "dim(s|) [the] {name} to {brightness:brightness} percent"
                  - "paint [the] {name} {paint:color}"
          HassShoppingListAddItem:
            data:
              - sentences:
                  - "add {item} to [my] shopping list"
                excludes_context:
                  area: garage
        lists:
          color:
            values:
              - red
              - in: "(sky|light) blue"
                out: blue
              - in: grass green
                out: green
          paint:
            values:
              - in: crimson
                out: red
          brightness:
            range:
              from: 0
              to: 100
          item:
            wildcard: true
        expansion_rules:
          turn: "(turn|switch)"
        skip_words:
          - please
        """

    static func matcher(_ text: String = HassilSentencesTests.sentences) async throws -> PhraseMatcher {
        try await PhraseMatcher(
            app: AppDescription(name: "House", shortcuts: HouseShortcuts.self, isAddressedByName: false),
            catalog: try Coffee.catalog(text, name: "house.yaml"))
    }

    @Test(arguments: [
        ("please turn on the kitchen light", "HassTurnOn", ["name": "Kitchen Light"]),
        ("switch the desk lamp on", "HassTurnOn", ["name": "Desk Lamp"]),
        ("turn on the lights in the bedroom", "HassTurnOn", ["area": "Bedroom", "domain": "light"]),
        ("make the desk lamp colour sky blue", "HassLightSet", ["name": "Desk Lamp", "color": "blue"]),
        (
            "set the kitchen light to grass green", "HassLightSet",
            ["name": "Kitchen Light", "color": "green"]
        ),
        ("set the kitchen light to red", "HassLightSet", ["name": "Kitchen Light", "color": "red"]),
        (
            "set desk lamp brightness to 40 percent", "HassLightSet",
            ["name": "Desk Lamp", "brightness": "40"]
        ),
        ("dims the desk lamp to 20 percent", "HassLightSet", ["name": "Desk Lamp", "brightness": "20"]),
        // A list's words are the phrase's that uses it.
        ("paint the desk lamp crimson", "HassLightSet", ["name": "Desk Lamp", "color": "red"]),
        ("add toothpaste to my shopping list", "HassShoppingListAddItem", ["item": "toothpaste"]),
    ])
    func aSentenceFileDrivesTheSwiftIntentsOfItsNames(
        sentence: String, intent: String, values: [String: String]
    )
        async throws
    {
        let match = await try Self.matcher().match(sentence)
        let best = try #require(match.best, "\(sentence): \(match.candidates)")
        #expect(best.intent == intent, "\(sentence)")
        #expect(best.values.mapValues { $0.title ?? $0.words } == values, "\(sentence): \(best)")
    }

    /// `requires_context: domain: light` narrows the names a sentence takes to the lights, as
    /// Home Assistant's own lists of names do; `requires_context: area: slot: true` takes the
    /// room from the context.
    @Test func theContextANameCarriesAndTheContextTheDeviceGives() async throws {
        let matcher = try await Self.matcher()
        let fan = await matcher.match("turn on the porch fan")
        #expect(fan.best == nil, "\(fan.candidates)")
        // Crimson is red only in the phrase whose list says so: here it is a color to ask about.
        let crimson = await matcher.match("set the desk lamp to crimson")
        #expect(crimson.best?.values["color"]?.isKnown == false, "\(crimson.candidates)")
        let here = await matcher.match("turn on the lights", context: ["area": "Kitchen"])
        #expect(here.best?.values["area"]?.title == "Kitchen", "\(here.candidates)")
        #expect(here.best?.values["domain"]?.title == "light", "\(here.candidates)")
    }

    /// What the catalog does not apply is named where it is written, and the rest is read.
    @Test func whatIsNotAppliedIsNamedWhereItIsWritten() throws {
        let catalog = try PhraseCatalog.parse(Self.sentences, file: "house.yaml")
        #expect(catalog.language == "en")
        #expect(catalog.entries.count == 9)
        let warnings = catalog.warnings.map(\.description)
        #expect(
            warnings == [
                "house.yaml:29:9: warning: \"excludes_context\": not applied; these sentences are matched in any context"
            ], "\(warnings)")
    }

    @Test(arguments: [
        (
            "language: en\nintents:\n  HassTurnOn:\n    data:\n      - sentences:\n          - \"<switch> on {name}\"\n",
            6, 14, "no expansion rule named <switch>; declare it under expansion_rules:"
        ),
        (
            "language: en\nintents:\n  HassTurnOn:\n    data:\n      - sentences:\n          - \"turn on {name\"\n",
            6, 22, "expected \"}\" to close \"{\", found the end of the phrase"
        ),
        (
            "language: en\nintents:\n  HassTurnOn:\n    data:\n      - sentence:\n          - \"turn on {name}\"\n",
            5, 9,
            "unknown key \"sentence\" in a data block; expected sentences, slots, requires_context, excludes_context, expansion_rules, lists, response or metadata"
        ),
        (
            "language: en\nintents: {}\nlists:\n  color:\n    valves: [red]\n", 5, 5,
            "unknown key \"valves\" in a list; expected values, range or wildcard"
        ),
    ])
    func aMalformedSentenceFileSaysFileLineAndColumn(text: String, line: Int, column: Int, message: String)
        throws
    {
        do {
            _ = try PhraseCatalog.parse(text, file: "bad.yaml")
            Issue.record("read")
        } catch {
            #expect(error.file == "bad.yaml")
            #expect(error.line == line && error.column == column, "\(error)")
            #expect(error.message == message, "\(error)")
        }
    }

    @Test func anExpansionRuleThatUsesItselfIsNamed() throws {
        let text = """
            language: en
            intents:
              HassTurnOn:
                data:
                  - sentences: ["<a> on"]
            expansion_rules:
              a: "x <b>"
              b: "y <a>"
            """
        #expect {
            try PhraseCatalog.parse(text, file: "loop.yaml")
        } throws: { error in
            "\(error)" == "loop.yaml:7:6: error: expansion rule <a> uses itself: <a> → <b> → <a>"
        }
    }

    /// Written for Home Assistant's intents, a file may say more than the app declares: what the
    /// app cannot take is left out, once each with a warning, and the rest is heard.
    @Test func whatTheAppDoesNotDeclareIsLeftOutWithAWarning() async throws {
        let text = """
            language: en
            intents:
              HassVacuumStart:
                data:
                  - sentences: ["start [the] vacuum"]
              HassTurnOn:
                data:
                  - sentences: ["<turn> on [the] {name}", "<turn> on [the] {floor}"]
              HassLightSet:
                data:
                  - sentences: ["make [the] {name} {color}"]
            lists:
              color:
                values: [red, white]
            expansion_rules:
              turn: "(turn|switch)"
            """
        let matcher = try await Self.matcher(text)
        let warnings = matcher.catalogWarnings.map { $0.description.split(separator: "/").last ?? "" }
        #expect(
            warnings == [
                "house.yaml:5:22: warning: \"start [the] vacuum\": no shortcut runs an intent \"HassVacuumStart\"; the app has: HassTurnOn, HassLightSet, HassShoppingListAddItem; left out",
                "house.yaml:8:48: warning: \"<turn> on [the] {floor}\": placeholder ${floor} names no parameter of HassTurnOn; it has: area, domain, name; left out",
                "house.yaml:14:19: warning: \"make [the] {name} {color}\": values: color has no value \"white\"; it has: red, blue, green; left out",
            ], "\(warnings)")
        #expect(await matcher.match("switch on the desk lamp").best?.intent == "HassTurnOn")
        #expect(await matcher.match("make the desk lamp red").best?.values["color"]?.title == "red")
    }

    /// Home Assistant's own test format runs as the project's phrase tests do.
    @Test func homeAssistantsTestFilesRun() async throws {
        let tests = try PhraseTestSuite.parse(
            """
            language: en
            tests:
              - sentences:
                  - "turn on the kitchen light"
                  - "switch the kitchen light on"
                intent:
                  name: HassTurnOn
                  slots:
                    name: Kitchen Light
              - sentences: ["turn on the lights"]
                intent:
                  name: HassTurnOn
                  slots: { area: Kitchen, domain: light }
                  context: { area: Kitchen }
              - sentences: ["set the desk lamp to sky blue"]
                intent: { name: HassLightSet, slots: { name: Desk Lamp, color: [blue] } }
                response: Done
              - sentences: ["turn on the porch fan"]
                intent: { name: HassTurnOn, slots: { name: Porch Fan } }
            """, file: "light_HassTurnOn.yaml")
        #expect(tests.cases.count == 5)
        #expect(tests.cases[2].context == ["area": "Kitchen"])
        let results = await try Self.matcher().run(tests)
        // The last is no light, and the sentences take only lights.
        #expect(results.map(\.passed) == [true, true, true, true, false], "\(results)")
        #expect(try PhraseTestSuite.parse("language: en\nareas: []\n", file: "_fixtures.yaml").cases.isEmpty)
        #expect {
            try PhraseTestSuite.parse("language: en\nareas: []\n", file: "lights.yaml")
        } throws: { error in
            "\(error)" == "lights.yaml:2:1: error: unknown key \"areas\"; expected language or tests"
        }
    }

    /// A Home Assistant user copies `custom_sentences/en/` into `Phrases/en/<app>/`.
    @Test func anAppReadsTheFolderOfItsName() throws {
        let file = try TemporaryFile(
            name: "lights.yaml", text: Self.sentences, folder: "Phrases/en/house")
        let phrases = file.url.deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        // The compiled JSON of the home-assistant-intents package has the same shape.
        let json =
            #"{"language": "en", "intents": {"HassTurnOn": {"data": [{"sentences": ["wake [the] {name}"]}]}}}"#
        try json.write(
            to: file.url.deletingLastPathComponent().appendingPathComponent("en.json"), atomically: true,
            encoding: .utf8)
        let catalog = try PhraseCatalog.load(app: "house", locale: "en", in: phrases)
        #expect(catalog.entries.count == 10)
        #expect(catalog.entries.first?.pattern.text == "wake [the] {name}")
        #expect {
            try PhraseCatalog.load(app: "house", locale: "de", in: try Self.folder(file, locale: "de"))
        } throws: { error in
            "\(error)".hasSuffix("error: the file says language \"en\", and it is in the folder of \"de\"")
        }
    }

    /// `file`'s sentences copied into a `de` folder beside it.
    static func folder(_ file: TemporaryFile, locale: String) throws -> URL {
        let phrases = file.url.deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let target = phrases.appendingPathComponent("\(locale)/house")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: file.url, to: target.appendingPathComponent("lights.yaml"))
        return phrases
    }
}
