import Foundation
import PhraseMatching
import VoiceIntents

// A small app for the matcher's tests: several placeholders per phrase, modifiers in any order,
// every value kind, and an open set of entities (found by a string query only).

enum Size: String, AppEnum {
    case small, medium, large
    static let typeDisplayRepresentation: TypeDisplayRepresentation = "Size"
    static let caseDisplayRepresentations: [Size: DisplayRepresentation] = [
        .small: "Small", .medium: DisplayRepresentation(title: "Medium", synonyms: ["regular"]),
        .large: "Large",
    ]
}

enum Roast: String, AppEnum {
    case light, dark
    static let typeDisplayRepresentation: TypeDisplayRepresentation = "Roast"
    static let caseDisplayRepresentations: [Roast: DisplayRepresentation] = [
        .light: "Light Roast", .dark: DisplayRepresentation(title: "Dark Roast", synonyms: ["dark"]),
    ]
}

enum Drink: String, AppEnum {
    case latte, cappuccino, espresso, flatWhite
    static let typeDisplayRepresentation: TypeDisplayRepresentation = "Drink"
    static let caseDisplayRepresentations: [Drink: DisplayRepresentation] = [
        .latte: "Latte", .cappuccino: "Cappuccino", .espresso: "Espresso", .flatWhite: "Flat White",
    ]
}

/// A café, found only by name: the set is open, nothing is suggested.
struct Cafe: AppEntity {
    let id: String
    static let typeDisplayRepresentation: TypeDisplayRepresentation = "Café"
    var displayRepresentation: DisplayRepresentation { "\(id)" }
    static let defaultQuery = CafeQuery()
}

struct CafeQuery: EntityStringQuery {
    static let names = ["Blue Bottle", "Monmouth", "Tim Wendelboe"]
    func entities(for identifiers: [String]) async throws -> [Cafe] { identifiers.map(Cafe.init) }
    func entities(matching string: String) async throws -> [Cafe] {
        Self.names.filter { $0.lowercased() == string.lowercased() }.map(Cafe.init)
    }
}

struct OrderCoffeeIntent: AppIntent {
    static let title: LocalizedStringResource = "Order Coffee"
    @Parameter var size: Size?
    @Parameter var roast: Roast?
    @Parameter var shots: Int?
    @Parameter var drink: Drink
    @Parameter var cafe: Cafe?
    func perform() async throws -> some IntentResult { .result() }
}

struct TipIntent: AppIntent {
    static let title: LocalizedStringResource = "Leave a Tip"
    @Parameter var amount: Double
    @Parameter var isAnonymous: Bool?
    func perform() async throws -> some IntentResult { .result() }
}

struct NoteIntent: AppIntent {
    static let title: LocalizedStringResource = "Note"
    @Parameter var text: String
    @Parameter var day: Date?
    func perform() async throws -> some IntentResult { .result() }
}

struct OpenMenuIntent: AppIntent {
    static let title: LocalizedStringResource = "Open Menu"
    func perform() async throws -> some IntentResult { .result() }
}

struct CoffeeShortcuts: AppShortcutsProvider {
    static var appShortcuts: [AppShortcut] {
        AppShortcut(
            intent: OrderCoffeeIntent(), phrases: ["Order a \(\.$drink) with \(.applicationName)"],
            shortTitle: "Order", systemImageName: "cup")
        AppShortcut(
            intent: TipIntent(), phrases: ["Tip \(\.$amount) dollars with \(.applicationName)"],
            shortTitle: "Tip", systemImageName: "dollarsign")
        AppShortcut(
            intent: NoteIntent(), phrases: ["Note \(\.$text) in \(.applicationName)"],
            shortTitle: "Note", systemImageName: "note")
        AppShortcut(
            intent: OpenMenuIntent(), phrases: ["Open the menu in \(.applicationName)"],
            shortTitle: "Menu", systemImageName: "menucard")
    }

    static var negativePhrases: NegativeAppShortcutPhrases {
        NegativeAppShortcutPhrases { "Don't order anything with \(.applicationName)" }
    }
}

enum Coffee {
    static let app = AppDescription(
        name: "Coffee Corner", alternativeNames: ["Coffee Shop"], shortcuts: CoffeeShortcuts.self)

    static let catalogText = """
        names: [The Corner]
        intents:
          OrderCoffeeIntent:
            - "[(can | could) I (have | get)] (a | an) ([${size}] ; [${roast}] ; [${shots} shot]) ${drink} [from ${cafe}] [(with | from) ${applicationName}]"
          TipIntent:
            - "[please] (tip | give) ${amount} [dollars] [anonymously ${isAnonymous}] [with ${applicationName}]"
          NoteIntent:
            - "(note | remember) ${text} (for | on) ${day} [in ${applicationName}]"
        negative:
          - "cancel my (order | coffee)"
        """

    /// A matcher over the app's Swift phrases and the catalog above.
    static func matcher(catalog text: String = catalogText) async throws -> PhraseMatcher {
        try await PhraseMatcher(app: app, catalog: try catalog(text))
    }

    static func catalog(_ text: String, name: String = "coffee-corner.yaml") throws -> PhraseCatalog {
        try PhraseCatalog.load(from: TemporaryFile(name: name, text: text).url)
    }
}

/// A file in a fresh temporary folder.
struct TemporaryFile {
    let url: URL

    init(name: String, text: String, folder: String? = nil) throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("phrase-tests-\(UUID().uuidString)")
            .appendingPathComponent(folder ?? "")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        url = directory.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }
}
