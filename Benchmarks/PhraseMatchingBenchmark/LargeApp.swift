import Foundation
import VoiceIntents

// A generated app at the scale the matcher must handle: 200 shortcuts with 5 phrases each
// (1,000 phrases) and 20,000 entity names. Words are made from syllables with a fixed seed, so
// every run builds the same app.

/// A deterministic generator (SplitMix64), so the large app is the same on every run.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

enum GeneratedWords {
    static let syllables = [
        "ka", "lo", "ven", "rid", "ta", "mor", "li", "sen", "dra", "pol", "qui", "ne", "zar", "bel", "to",
        "mi", "cas", "dun", "ro", "vel", "sha", "gin", "pe", "tor", "lu", "ban", "fi", "gor", "ha", "nis",
    ]

    static func word(_ random: inout SeededGenerator, syllables count: Int) -> String {
        (0..<count).map { _ in syllables.randomElement(using: &random)! }.joined()
    }

    /// 20,000 distinct names of one to three words.
    static let entityNames: [String] = {
        var random = SeededGenerator(state: 42)
        var names = Set<String>()
        var ordered: [String] = []
        while ordered.count < 20_000 {
            let words = (0..<Int.random(in: 1...3, using: &random)).map { _ in
                word(&random, syllables: Int.random(in: 2...3, using: &random)).capitalized
            }
            let name = words.joined(separator: " ")
            if names.insert(name).inserted { ordered.append(name) }
        }
        return ordered
    }()

    /// 200 verb phrases and 200 nouns for the shortcuts, distinct from each other.
    static let (verbs, nouns): ([String], [String]) = {
        var random = SeededGenerator(state: 7)
        var seen = Set<String>()
        func fresh(_ syllableCount: Int) -> String {
            while true {
                let candidate = word(&random, syllables: syllableCount)
                if seen.insert(candidate).inserted { return candidate }
            }
        }
        return ((0..<200).map { _ in fresh(2) }, (0..<200).map { _ in fresh(3) })
    }()
}

struct GeneratedEntity: AppEntity {
    let id: Int
    let name: String
    static let typeDisplayRepresentation: TypeDisplayRepresentation = "Item"
    var displayRepresentation: DisplayRepresentation { "\(name)" }
    static let defaultQuery = GeneratedQuery()
}

struct GeneratedQuery: EnumerableEntityQuery {
    func allEntities() async throws -> [GeneratedEntity] {
        GeneratedWords.entityNames.enumerated().map { GeneratedEntity(id: $0.offset, name: $0.element) }
    }
}

struct GeneratedIntent: AppIntent {
    static let title: LocalizedStringResource = "Generated"
    @Parameter(title: "Item") var item: GeneratedEntity
    @Parameter(title: "Count") var count: Int?
    func perform() async throws -> some IntentResult { .result() }
}

struct GeneratedShortcuts: AppShortcutsProvider {
    static var appShortcuts: [AppShortcut] {
        for index in 0..<200 {
            AppShortcut(
                intent: GeneratedIntent(), phrases: phrases(for: index), shortTitle: "Shortcut \(index)",
                systemImageName: "circle")
        }
    }

    /// Five phrases for shortcut `index`, with its own verb and noun.
    static func phrases(for index: Int) -> [AppShortcutPhrase<GeneratedIntent>] {
        let verb = GeneratedWords.verbs[index]
        let noun = GeneratedWords.nouns[index]
        func phrase(_ parts: [Any]) -> AppShortcutPhrase<GeneratedIntent> {
            var interpolation = AppShortcutPhrase<GeneratedIntent>.StringInterpolation(
                literalCapacity: 32, interpolationCount: 2)
            for part in parts {
                switch part {
                case let text as String: interpolation.appendLiteral(text)
                case let token as AppShortcutPhraseToken: interpolation.appendInterpolation(token)
                case let keyPath as KeyPath<GeneratedIntent, IntentParameter<GeneratedEntity>>:
                    interpolation.appendInterpolation(keyPath)
                case let keyPath as KeyPath<GeneratedIntent, IntentParameter<Int?>>:
                    interpolation.appendInterpolation(keyPath)
                default: break
                }
            }
            return AppShortcutPhrase(stringInterpolation: interpolation)
        }
        return [
            phrase([
                "\(verb) the \(noun) ", \GeneratedIntent.$item, " in ",
                AppShortcutPhraseToken.applicationName,
            ]),
            phrase(["\(verb) ", \GeneratedIntent.$count, " \(noun) for ", \GeneratedIntent.$item]),
            phrase(["please \(verb) my \(noun) with ", AppShortcutPhraseToken.applicationName]),
            phrase([AppShortcutPhraseToken.applicationName, " \(verb) \(noun) ", \GeneratedIntent.$item]),
            phrase(["\(noun) \(verb) now in ", AppShortcutPhraseToken.applicationName]),
        ]
    }
}

struct GeneratedApp: VoiceApp {
    typealias Shortcuts = GeneratedShortcuts
    static let name = "Big Helper"
}
