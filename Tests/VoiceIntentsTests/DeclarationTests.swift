import Foundation
import Testing
import VoiceIntents

@Suite("Declarations")
struct DeclarationTests {
    @Test func parametersAreListedInDeclarationOrder() {
        let parameters = IntentDefinition(VisitIntent.self).parameters
        #expect(parameters.map(\.name) == ["city", "nights"])
        #expect(parameters[0].title == "City")
        #expect(parameters[0].valueType.kind == .entity)
        #expect(parameters[0].valueType.displayName == "City")
        #expect(parameters[0].isRequired)
        #expect(parameters[1].defaultValue == "2")
        #expect(!parameters[1].isRequired)
    }

    @Test func titlesAreDerivedFromNames() {
        let parameters = IntentDefinition(MeasureIntent.self).parameters
        #expect(parameters.map(\.title) == ["Length In Meters", "Is Metric", "Day", "Homepage URL"])
        #expect(parameters.map(\.valueType.kind) == [.decimal, .boolean, .date, .url])
        #expect(parameters.map(\.isOptional) == [false, true, true, true])
        #expect(IntentDefinition(PaintIntent.self).parameters[1].title == "Coat Count")
    }

    @Test func parameterDescriptionShowsPromptAndType() {
        let color = IntentDefinition(PaintIntent.self).parameters[0]
        #expect(color.prompt == "Which color?")
        #expect(color.description == "color: Color \"Color\" prompt \"Which color?\"")
    }

    @Test func keyPathsNameTheirParameter() {
        #expect(IntentDefinition.parameterName(for: \PaintIntent.$color) == "color")
        #expect(IntentDefinition.parameterName(for: \PaintIntent.$coatCount) == "coatCount")
        #expect(IntentDefinition.parameterName(for: \VisitIntent.$nights) == "nights")
        #expect(IntentDefinition.parameterName(for: \Misdeclared.detached) == nil)
    }

    @Test func intentDefaultsMirrorApple() {
        let definition = IntentDefinition(PaintIntent.self)
        #expect(definition.identifier == "PaintIntent")
        #expect(definition.isDiscoverable)
        #expect(definition.supportedModes == .background)
        #expect(IntentDefinition(ModesIntent.self).supportedModes.includesForeground)
    }

    @Test func phrasesAreTemplates() {
        let phrases = GoodShortcuts.appShortcuts[0].phrases
        #expect(
            phrases.map(\.description) == [
                "Paint it ${color} with ${applicationName}", "${applicationName} paint",
            ])
        #expect(
            phrases[0].parts == [
                .text("Paint it "), .parameter(name: "color", valueType: Color._valueType),
                .text(" with "), .applicationName,
            ])
        #expect(phrases[0].parameterNames == ["color"])
        #expect(
            GoodShortcuts.negativePhrases.phrases.map(\.template.description) == [
                "Don't paint with ${applicationName}"
            ])
    }

    @Test func summariesReadBackTheCommand() {
        let paint = PaintIntent()
        #expect(paint.summaryText == "Paint it color")
        paint.color = .green
        #expect(paint.summaryText == "Paint it Green")
        #expect(VisitIntent().summaryText == nil)
        let favorite = FavoriteIntent()
        favorite.city = City.all[2]
        #expect(favorite.summaryText == "Add Kyoto to favorites")
        favorite.isFavorite = false
        #expect(favorite.summaryText == "Remove Kyoto from favorites")
    }

    @Test func switchSummariesPickTheirCase() {
        let intent = SwitchSummaryIntent()
        intent.color = .red
        #expect(intent.summaryText == "Make it hot")
        intent.color = .blue
        #expect(intent.summaryText == "Make it Blue")
    }

    @Test func interpolationSpeaksEntitiesAndEnums() {
        let city = City.all[2]
        let missing: String? = nil
        let dialog: IntentDialog = "\(city) is \(Color.red), \(3) times, \(missing as Any)."
        #expect(dialog.full.defaultValue == "Kyoto is Red, 3 times, .")
        #expect(dialog.full.key == "%@ is %@, %@ times, %@.")
        #expect(String(localized: PaintIntent.title) == "Paint")
    }

    @Test func updateAppShortcutParametersIsBroadcast() async {
        let updates = AppShortcutParameterUpdates.updates()
        let before = AppShortcutParameterUpdates.generation
        GoodShortcuts.updateAppShortcutParameters()
        var iterator = updates.makeAsyncIterator()
        #expect(await iterator.next() == "GoodShortcuts")
        #expect(AppShortcutParameterUpdates.generation > before)
    }
}

@Suite("Start-up validation")
struct ValidationTests {
    @Test func aGoodAppHasNoDiagnostics() throws {
        let app = AppDescription(name: "Painter", shortcuts: GoodShortcuts.self)
        #expect(app.validate().isEmpty)
        #expect(try app.validated().isEmpty)
        #expect(app.intents.map(\.identifier) == ["PaintIntent"])
    }

    @Test func placeholderWithoutParameterIsAnError() throws {
        let app = AppDescription(name: "Painter", shortcuts: DetachedPlaceholderShortcuts.self)
        let error = try #require(throws: AppValidationError.self) { try app.validated() }
        #expect(
            error.description.contains(
                "error: phrase \"Move ${?} with ${applicationName}\" of Misdeclared: a placeholder of type Color names no @Parameter of Misdeclared"
            ))
    }

    @Test func enumCaseWithoutDisplayRepresentationIsAnError() {
        let app = AppDescription(name: "Painter", shortcuts: UndescribedEnumShortcuts.self)
        #expect(
            app.validate() == [
                AppDiagnostic(
                    .error,
                    "enum Size: case .large has no display representation; add it to caseDisplayRepresentations"
                )
            ])
    }

    @Test func twoIntentsWithOneIdentifierIsAnError() {
        let app = AppDescription(
            name: "Painter", shortcuts: GoodShortcuts.self, additionalIntents: [Impostor.self])
        let diagnostics = app.validate()
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.severity == .error)
        #expect(
            diagnostics.first?.message.hasPrefix("two intents have the identifier \"PaintIntent\"") == true)
    }

    @Test func appNameMissingOrRepeatedIsAWarning() throws {
        let app = AppDescription(name: "Painter", shortcuts: NamelessShortcuts.self)
        let warnings = try app.validated()
        #expect(
            warnings.map(\.description) == [
                "warning: phrase \"Paint it ${color}\" of PaintIntent does not contain \\(.applicationName)",
                "warning: phrase \"${applicationName} paint ${applicationName}\" of PaintIntent contains \\(.applicationName) more than once",
            ])
    }

    @Test func anAppAddressedWithoutItsNameNeedsNoneInItsPhrases() throws {
        let app = AppDescription(name: "Painter", shortcuts: NamelessShortcuts.self, isAddressedByName: false)
        #expect(
            try app.validated().map(\.description) == [
                "warning: phrase \"${applicationName} paint ${applicationName}\" of PaintIntent contains \\(.applicationName) more than once"
            ])
    }

    @Test func emptyAppNameIsAnError() {
        let app = AppDescription(name: " ", shortcuts: GoodShortcuts.self)
        #expect(app.validate().contains { $0.severity == .error && $0.message.contains("name is empty") })
    }
}

// MARK: Declarations for these tests

struct GoodShortcuts: AppShortcutsProvider {
    static var appShortcuts: [AppShortcut] {
        AppShortcut(
            intent: PaintIntent(),
            phrases: ["Paint it \(\.$color) with \(.applicationName)", "\(.applicationName) paint"],
            shortTitle: "Paint", systemImageName: "paintbrush")
    }
    static var negativePhrases: NegativeAppShortcutPhrases {
        NegativeAppShortcutPhrases { "Don't paint with \(.applicationName)" }
    }
}

struct NamelessShortcuts: AppShortcutsProvider {
    static var appShortcuts: [AppShortcut] {
        AppShortcut(
            intent: PaintIntent(),
            phrases: ["Paint it \(\.$color)", "\(.applicationName) paint \(.applicationName)"],
            shortTitle: "Paint", systemImageName: "paintbrush")
    }
}

/// An intent whose key path leads to a parameter that is not one of its stored properties.
struct Misdeclared: AppIntent {
    static let title: LocalizedStringResource = "Move"
    @Parameter(title: "Color") var color: Color
    var detached: IntentParameter<Color> { IntentParameter(title: "Detached") }
    func perform() async throws -> some IntentResult { .result() }
}

struct DetachedPlaceholderShortcuts: AppShortcutsProvider {
    static var appShortcuts: [AppShortcut] {
        AppShortcut(
            intent: Misdeclared(), phrases: ["Move \(\.detached) with \(.applicationName)"],
            shortTitle: "Move", systemImageName: "arrow.right")
    }
}

enum Size: String, AppEnum {
    case small, large
    static let typeDisplayRepresentation: TypeDisplayRepresentation = "Size"
    static let caseDisplayRepresentations: [Size: DisplayRepresentation] = [.small: "Small"]
}

struct ResizeIntent: AppIntent {
    static let title: LocalizedStringResource = "Resize"
    @Parameter var size: Size
    func perform() async throws -> some IntentResult { .result() }
}

struct UndescribedEnumShortcuts: AppShortcutsProvider {
    static var appShortcuts: [AppShortcut] {
        AppShortcut(
            intent: ResizeIntent(), phrases: ["Resize to \(\.$size) in \(.applicationName)"],
            shortTitle: "Resize", systemImageName: "arrow.up.left.and.arrow.down.right")
    }
}

/// A second intent claiming PaintIntent's identifier.
struct Impostor: AppIntent {
    static let title: LocalizedStringResource = "Paint Too"
    static let persistentIdentifier = "PaintIntent"
    func perform() async throws -> some IntentResult { .result() }
}

struct FavoriteIntent: AppIntent {
    static let title: LocalizedStringResource = "Favorite"
    static var parameterSummary: some ParameterSummary {
        When(\.$isFavorite, .equalTo, true) {
            Summary("Add \(\.$city) to favorites")
        } otherwise: {
            Summary("Remove \(\.$city) from favorites")
        }
    }
    @Parameter(title: "City") var city: City
    @Parameter(title: "Favorite", default: true) var isFavorite: Bool
    func perform() async throws -> some IntentResult { .result() }
}

struct SwitchSummaryIntent: AppIntent {
    static let title: LocalizedStringResource = "Switch"
    static var parameterSummary: some ParameterSummary {
        Switch(\.$color) {
            Case(Color.red) { Summary("Make it hot") }
            DefaultCase { Summary("Make it \(\.$color)") }
        }
    }
    @Parameter(title: "Color") var color: Color
    func perform() async throws -> some IntentResult { .result() }
}
