import Foundation
import VoiceIntents

// A small app whose phrases cover Debian's real recordings: a rover that moves ("go forward ten
// meters", pocketsphinx-testdata's goforward.raw), plays cards ("ten of clubs", its cards WAVs)
// and takes numbers (Asterisk's spoken digits, one speaker, 16 kHz G.722).

enum RoverDirection: String, AppEnum {
    case forward, backward, left, right
    static let typeDisplayRepresentation: TypeDisplayRepresentation = "Direction"
    static let caseDisplayRepresentations: [RoverDirection: DisplayRepresentation] = [
        .forward: "Forward", .backward: DisplayRepresentation(title: "Backward", synonyms: ["back"]),
        .left: "Left", .right: "Right",
    ]
}

enum CardRank: String, AppEnum {
    case ace, two, three, four, five, six, seven, eight, nine, ten, jack, queen, king
    static let typeDisplayRepresentation: TypeDisplayRepresentation = "Rank"
    static let caseDisplayRepresentations: [CardRank: DisplayRepresentation] = Dictionary(
        uniqueKeysWithValues: allCases.map {
            ($0, DisplayRepresentation(title: "\($0.rawValue.capitalized)"))
        })
}

enum CardSuit: String, AppEnum {
    case clubs, hearts, diamonds, spades
    static let typeDisplayRepresentation: TypeDisplayRepresentation = "Suit"
    static let caseDisplayRepresentations: [CardSuit: DisplayRepresentation] = [
        .clubs: "Clubs", .hearts: "Hearts", .diamonds: "Diamonds", .spades: "Spades",
    ]
}

struct MoveRoverIntent: AppIntent {
    static let title: LocalizedStringResource = "Move"
    @Parameter var direction: RoverDirection
    @Parameter var distance: Int
    func perform() async throws -> some IntentResult { .result() }
}

struct PlayCardIntent: AppIntent {
    static let title: LocalizedStringResource = "Play a Card"
    @Parameter var rank: CardRank
    @Parameter var suit: CardSuit
    func perform() async throws -> some IntentResult { .result() }
}

struct EnterNumberIntent: AppIntent {
    static let title: LocalizedStringResource = "Enter a Number"
    @Parameter var number: Int
    func perform() async throws -> some IntentResult { .result() }
}

struct RoverShortcuts: AppShortcutsProvider {
    static var appShortcuts: [AppShortcut] {
        AppShortcut(
            intent: MoveRoverIntent(),
            phrases: [
                "go \(\.$direction) \(\.$distance) meters",
                "\(.applicationName) go \(\.$direction) \(\.$distance) meters",
            ],
            shortTitle: "Move", systemImageName: "arrow.up")
        AppShortcut(
            intent: PlayCardIntent(),
            phrases: ["\(\.$rank) of \(\.$suit)", "play \(\.$rank) of \(\.$suit) in \(.applicationName)"],
            shortTitle: "Play", systemImageName: "suit.club")
        AppShortcut(
            intent: EnterNumberIntent(),
            phrases: ["\(\.$number)", "enter \(\.$number) in \(.applicationName)"],
            shortTitle: "Number", systemImageName: "number")
    }
}

struct RoverApp: VoiceApp {
    typealias Shortcuts = RoverShortcuts
    static let name = "Rover"
}
