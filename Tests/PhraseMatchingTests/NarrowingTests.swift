import Foundation
import PhraseMatching
import Testing
import VoiceIntents

// A house whose sensors of every kind share one intent, as large catalogs write "get state":
// each phrase is for one kind of sensor, and says which with `only:`.

struct Sensor: AppEntity {
    let id: String
    @Property(title: "Device Class") var deviceClass: String

    init(_ id: String, _ deviceClass: String) {
        self.id = id
        self.deviceClass = deviceClass
    }

    static let typeDisplayRepresentation: TypeDisplayRepresentation = "Sensor"
    var displayRepresentation: DisplayRepresentation { "\(id)" }
    static let defaultQuery = SensorQuery()
}

struct SensorQuery: EntityQuery {
    static let all = [
        Sensor("Kitchen Thermometer", "temperature"), Sensor("Bathroom Hygrometer", "humidity"),
        Sensor("Front Door", "door"), Sensor("Garage Door", "door"), Sensor("Bedroom Window", "window"),
        Sensor("Hallway Motion", "motion"), Sensor("Kitchen Smoke", "smoke"),
    ]
    func entities(for identifiers: [String]) async throws -> [Sensor] {
        Self.all.filter { identifiers.contains($0.id) }
    }
    func suggestedEntities() async throws -> [Sensor] { Self.all }
}

enum SensorReading: String, AppEnum {
    case temperature, humidity, open, detected
    static let typeDisplayRepresentation: TypeDisplayRepresentation = "Reading"
    static let caseDisplayRepresentations: [SensorReading: DisplayRepresentation] = [
        .temperature: "Temperature", .humidity: "Humidity", .open: "Open", .detected: "Detected",
    ]
}

struct GetStateIntent: AppIntent {
    static let title: LocalizedStringResource = "Get State"
    @Parameter var sensor: Sensor
    @Parameter var reading: SensorReading?
    func perform() async throws -> some IntentResult { .result() }
}

struct SensorShortcuts: AppShortcutsProvider {
    static var appShortcuts: [AppShortcut] {
        AppShortcut(
            intent: GetStateIntent(), phrases: ["Ask \(.applicationName) about \(\.$sensor)"],
            shortTitle: "State", systemImageName: "sensor")
    }
}

@Suite("Names narrowed per phrase")
struct NarrowingTests {
    static let catalog = """
        intents:
          GetStateIntent:
            - { say: "what is the ${sensor}", set: { reading: temperature }, only: { sensor: { deviceClass: temperature } } }
            - { say: "what is the ${sensor}", set: { reading: humidity }, only: { sensor: { deviceClass: humidity } } }
            - { say: "is the ${sensor} open", set: { reading: open }, only: { sensor: { deviceClass: [door, window] } } }
            - { say: "is [the] ${sensor} detected", set: { reading: detected }, only: { sensor: { Device Class: [motion, smoke, gas] } } }
        """

    static func matcher(_ catalog: String = NarrowingTests.catalog) async throws -> PhraseMatcher {
        try await PhraseMatcher(
            app: AppDescription(name: "Sensors", shortcuts: SensorShortcuts.self, isAddressedByName: false),
            catalog: try Coffee.catalog(catalog, name: "sensors.yaml"))
    }

    /// The same words read by the phrase for the kind of thing named: the phrase's own values
    /// follow the name.
    @Test(arguments: [
        ("what is the kitchen thermometer", "Kitchen Thermometer", "Temperature"),
        ("what is the bathroom hygrometer", "Bathroom Hygrometer", "Humidity"),
        ("is the garage door open", "Garage Door", "Open"),
        ("is the bedroom window open", "Bedroom Window", "Open"),
        ("is hallway motion detected", "Hallway Motion", "Detected"),
        ("is the kitchen smoke detected", "Kitchen Smoke", "Detected"),
    ])
    func aPhraseReadsOnlyTheNamesItAccepts(_ sentence: String, _ sensor: String, _ reading: String)
        async throws
    {
        let result = try await Self.matcher().match(sentence)
        let best = try #require(result.best, "\(result.candidates)")
        #expect(best.values["sensor"]?.title == sensor)
        #expect(best.values["reading"]?.title == reading)
        #expect(!result.isAmbiguous)
    }

    /// A name of another kind is no value of a phrase that does not accept it.
    @Test func aNameOfAnotherKindIsNotTaken() async throws {
        let result = try await Self.matcher().match("is the kitchen thermometer open")
        #expect(result.best?.values["sensor"]?.title != "Kitchen Thermometer", "\(result.candidates)")
    }

    /// The grammar offers each phrase only the names it accepts.
    @Test func theGrammarSaysOnlyTheNamesAPhraseAccepts() async throws {
        let forms = try await Self.matcher().spokenForms
        let open = try #require(forms.phrases.first { $0.text.hasSuffix("open") })
        guard case .names(let names) = open.placeholders["sensor"] else {
            Issue.record("\(String(describing: open.placeholders["sensor"]))")
            return
        }
        #expect(
            Set(names.map { $0.joined(separator: " ") }) == ["front door", "garage door", "bedroom window"])
        #expect(forms.valueNames.filter { $0.typeName == "Sensor" }.count == 1)
    }

    /// Phrases of the same words for names of different kinds are no duplicates, and none
    /// collides with another; the same phrase twice still is one.
    @Test func lintKnowsWhatEachPhraseAccepts() async throws {
        let clean = try await Self.matcher().lint()
        #expect(clean.isEmpty, "\(clean)")
        let twice =
            Self.catalog + """

                    - { say: "is the ${sensor} open", set: { reading: open }, only: { sensor: { deviceClass: [window, door] } } }
                """
        let diagnostics = try await Self.matcher(twice).lint()
        #expect(
            diagnostics.map(\.message).contains { $0.hasPrefix("duplicates the phrase at") }, "\(diagnostics)"
        )
    }

    /// What cannot be narrowed says where and why.
    @Test(arguments: [
        (
            #"- { say: "is the ${sensor} open", only: { sensor: { colour: red } } }"#,
            "only: Sensor has no property \"colour\"; it has: deviceClass"
        ),
        (
            #"- { say: "is the ${sensor} open", only: { sensor: { deviceClass: lava } } }"#,
            "only: no Sensor has deviceClass lava"
        ),
        (
            #"- { say: "is the ${sensor} open", only: { reading: { deviceClass: door } } }"#,
            "only: ${reading} is not said in the phrase"
        ),
    ])
    func mistakesAreNamed(_ line: String, _ message: String) async throws {
        do {
            _ = try await Self.matcher("intents:\n  GetStateIntent:\n    \(line)\n")
            Issue.record("compiled")
        } catch {
            #expect("\(error)".contains(message), "\(error)")
            #expect("\(error)".contains("sensors.yaml:3:"), "\(error)")
        }
    }
}
