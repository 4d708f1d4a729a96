import Foundation
import Synchronization
import VoiceIntents

// Small intents, one per behaviour under test.

enum Color: String, AppEnum {
    case red, green, blue
    static let typeDisplayRepresentation: TypeDisplayRepresentation = "Color"
    static let caseDisplayRepresentations: [Color: DisplayRepresentation] = [
        .red: DisplayRepresentation(title: "Red", synonyms: ["crimson"]),
        .green: "Green",
        .blue: DisplayRepresentation(title: "Blue", synonyms: ["navy"]),
    ]
}

/// Records what intents did, so tests can check side effects (or their absence).
final class Journal: Sendable {
    private let entries = Mutex<[String]>([])
    func record(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
}

struct City: AppEntity {
    let id: String
    let name: String
    let country: String
    static let typeDisplayRepresentation: TypeDisplayRepresentation = "City"
    var displayRepresentation: DisplayRepresentation {
        DisplayRepresentation(title: "\(name)", subtitle: "\(country)")
    }
    static let defaultQuery = CityQuery()

    static let all = [
        City(id: "paris-fr", name: "Paris", country: "France"),
        City(id: "paris-tx", name: "Paris", country: "Texas"),
        City(id: "kyoto", name: "Kyoto", country: "Japan"),
        City(id: "lima", name: "Lima", country: "Peru"),
    ]
}

struct CityQuery: EnumerableEntityQuery {
    func allEntities() async throws -> [City] { City.all }
}

struct PaintIntent: AppIntent {
    static let title: LocalizedStringResource = "Paint"
    static var parameterSummary: some ParameterSummary { Summary("Paint it \(\.$color)") }
    @Parameter(title: "Color", requestValueDialog: "Which color?") var color: Color
    @Parameter var coatCount: Int?
    func perform() async throws -> some IntentResult & ReturnsValue<Color> & ProvidesDialog {
        .result(value: color, dialog: "Painted it \(color).")
    }
}

struct VisitIntent: AppIntent {
    static let title: LocalizedStringResource = "Visit"
    @Parameter(title: "City") var city: City
    @Parameter(title: "Nights", default: 2) var nights: Int
    func perform() async throws -> some IntentResult & ReturnsValue<City> & ProvidesDialog {
        .result(value: city, dialog: "Booked \(nights) nights in \(city), \(city.country).")
    }
}

struct GreetIntent: AppIntent {
    static let title: LocalizedStringResource = "Greet"
    @Parameter var personName: String?
    func perform() async throws -> some IntentResult & ProvidesDialog {
        guard let personName else { throw $personName.requestValue("Who should I greet?") }
        return .result(dialog: "Hello, \(personName)!")
    }
}

struct PickCityIntent: AppIntent {
    static let title: LocalizedStringResource = "Pick City"
    @Parameter(title: "City") var city: City?
    func perform() async throws -> some IntentResult & ReturnsValue<City> {
        let paris = City.all.filter { $0.name == "Paris" }
        let chosen = try await $city.requestDisambiguation(among: paris, dialog: "Which Paris?")
        return .result(value: chosen)
    }
}

struct ConfirmColorIntent: AppIntent {
    static let title: LocalizedStringResource = "Confirm Color"
    @Parameter(title: "Color") var color: Color
    func perform() async throws -> some IntentResult & ProvidesDialog {
        let sure = try await $color.requestConfirmation(for: color, dialog: "Really \(color)?")
        return .result(dialog: sure ? "Keeping \(color)." : "Not \(color) then.")
    }
}

struct EraseIntent: AppIntent {
    static let title: LocalizedStringResource = "Erase Everything"
    @Dependency var journal: Journal
    func perform() async throws -> some IntentResult & ProvidesDialog {
        try await requestConfirmation(actionName: .delete, dialog: "Erase everything?")
        journal.record("erased")
        return .result(dialog: "Erased.")
    }
}

/// Suggests the journal's entries as names.
struct JournalEntries: DynamicOptionsProvider {
    @Dependency var journal: Journal
    func results() async throws -> [String] { journal.all }
}

struct NameIntent: AppIntent {
    static let title: LocalizedStringResource = "Name"
    @Parameter(title: "Name", requestValueDialog: "Which name?", optionsProvider: JournalEntries())
    var name: String
    func perform() async throws -> some IntentResult & ProvidesDialog {
        .result(dialog: "Hello, \(name).")
    }
}

struct TidyIntent: AppIntent {
    static let title: LocalizedStringResource = "Tidy"
    @Dependency var journal: Journal
    func perform() async throws -> some IntentResult & ProvidesDialog {
        let keep = Option(title: "Keep", style: .default)
        let bin = Option(title: "Throw Away", style: .destructive)
        let choice = try await requestChoice(between: [.cancel, keep, bin], dialog: "Keep or throw away?")
        journal.record(choice == bin ? "binned" : "kept")
        return .result(dialog: choice == bin ? "Thrown away." : "Kept.")
    }
}

struct CreateNoteIntent: AppIntent {
    static let title: LocalizedStringResource = "Create Note"
    @Parameter(title: "Text") var text: String
    func perform() async throws -> some IntentResult & ReturnsValue<String> & OpensIntent {
        .result(value: text, opensIntent: ShowNoteIntent(text: text))
    }
}

/// A number within bounds, declared as on Apple platforms.
struct DimIntent: AppIntent {
    static let title: LocalizedStringResource = "Dim"
    @Parameter(title: "Brightness", inclusiveRange: (0, 100)) var brightness: Int
    @Parameter(title: "Fade", inclusiveRange: (0, 10)) var fade: Double?
    func perform() async throws -> some IntentResult & ProvidesDialog {
        .result(dialog: "Dimmed to \(brightness).")
    }
}

/// Apple's argument order: the value, the intent to open, then the dialog.
struct SaveNoteIntent: AppIntent {
    static let title: LocalizedStringResource = "Save Note"
    @Parameter(title: "Text") var text: String
    func perform() async throws -> some IntentResult & ReturnsValue<String> & OpensIntent & ProvidesDialog {
        .result(value: text, opensIntent: ShowNoteIntent(text: text), dialog: "Saved.")
    }
}

struct ShowNoteIntent: AppIntent {
    static let title: LocalizedStringResource = "Show Note"
    @Parameter(title: "Text") var text: String
    init() {}
    init(text: String) { self.text = text }
    func perform() async throws -> some IntentResult & ProvidesDialog & ShowsSnippetView {
        .result(
            dialog: IntentDialog(full: "Your note says: \(text).", supporting: "Here is your note."),
            view: Text("📝 \(text)"))
    }
}

struct Tarnished: LocalizedError {
    var errorDescription: String? { "The silver is tarnished." }
}

enum ShopError: Error, CustomLocalizedStringResourceConvertible {
    case soldOut(String)
    var localizedStringResource: LocalizedStringResource {
        switch self {
        case .soldOut(let item): "Sorry, \(item) is sold out."
        }
    }
}

struct BuyIntent: AppIntent {
    static let title: LocalizedStringResource = "Buy"
    @Parameter(title: "Item") var item: String
    func perform() async throws -> some IntentResult {
        if item == "gold" { throw ShopError.soldOut(item) }
        if item == "silver" { throw Tarnished() }
        struct Opaque: Error {}
        if item == "tin" { throw Opaque() }
        return .result()
    }
}

struct ModesIntent: AppIntent {
    static let title: LocalizedStringResource = "Modes"
    static let supportedModes: IntentModes = [.background, .foreground(.dynamic)]
    func perform() async throws -> some IntentResult & ProvidesDialog {
        let before = systemContext.currentMode == .foreground ? "foreground" : "background"
        let could = systemContext.currentMode.canContinueInForeground
        if could { try await continueInForeground(alwaysConfirm: false) }
        let after = systemContext.currentMode == .foreground ? "foreground" : "background"
        return .result(dialog: "\(before) \(could ? "can" : "cannot") continue, \(after)")
    }
}

struct MeasureIntent: AppIntent {
    static let title: LocalizedStringResource = "Measure"
    @Parameter var lengthInMeters: Double
    @Parameter var isMetric: Bool?
    @Parameter var day: Date?
    @Parameter var homepageURL: URL?
    func perform() async throws -> some IntentResult & ReturnsValue<Double> {
        .result(value: lengthInMeters)
    }
}

struct LoopingIntent: AppIntent {
    static let title: LocalizedStringResource = "Loop"
    @Parameter var word: String?
    func perform() async throws -> some IntentResult {
        // Asks until it hears "enough"; the test never says it.
        guard word == "enough" else { throw $word.requestValue("Again?") }
        return .result()
    }
}

/// A door lock: unlocking requires authentication, opening the safe a local device, locking
/// nothing (unless the runner is told it sounds like unlocking).
enum Door: String, AppEnum {
    case front, garage
    static let typeDisplayRepresentation: TypeDisplayRepresentation = "Door"
    static let caseDisplayRepresentations: [Door: DisplayRepresentation] = [
        .front: "Front Door", .garage: "Garage Door",
    ]
}

struct UnlockIntent: AppIntent {
    static let title: LocalizedStringResource = "Unlock"
    static let authenticationPolicy: IntentAuthenticationPolicy = .requiresAuthentication
    static var parameterSummary: some ParameterSummary { Summary("unlock the \(\.$door)") }
    @Parameter(title: "Door", requestValueDialog: "Which door?") var door: Door
    @Dependency var journal: Journal
    func perform() async throws -> some IntentResult & ProvidesDialog {
        journal.record("unlocked \(door.rawValue)")
        return .result(dialog: "Unlocked.")
    }
}

struct LockIntent: AppIntent {
    static let title: LocalizedStringResource = "Lock"
    @Parameter(title: "Door") var door: Door
    @Dependency var journal: Journal
    func perform() async throws -> some IntentResult & ProvidesDialog {
        journal.record("locked \(door.rawValue)")
        return .result(dialog: "Locked.")
    }
}

struct OpenSafeIntent: AppIntent {
    static let title: LocalizedStringResource = "Open Safe"
    static let authenticationPolicy: IntentAuthenticationPolicy = .requiresLocalDeviceAuthentication
    @Dependency var journal: Journal
    func perform() async throws -> some IntentResult {
        journal.record("opened the safe")
        return .result()
    }
}

struct MixIntent: AppIntent {
    static let title: LocalizedStringResource = "Mix"
    @Parameter(title: "Colors", requestValueDialog: "Which colors?") var colors: [Color]
    func perform() async throws -> some IntentResult & ProvidesDialog {
        .result(dialog: "Mixed \(colors.map(\.rawValue).joined(separator: " and ")).")
    }
}

struct TourIntent: AppIntent {
    static let title: LocalizedStringResource = "Tour"
    @Parameter(title: "Cities", requestValueDialog: "Which cities?") var cities: [City]
    func perform() async throws -> some IntentResult & ProvidesDialog {
        .result(dialog: "Touring \(cities.map(\.name).joined(separator: ", ")).")
    }
}
