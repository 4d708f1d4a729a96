import VoiceIntents

package struct ShowMenuIntent: AppIntent {
    package static let title: LocalizedStringResource = "Show Menu"
    package init() {}
    package func perform() async throws -> some IntentResult { .result() }
}

package struct ShowTipsIntent: AppIntent {
    package static let title: LocalizedStringResource = "Show Tips"
    package init() {}
    package func perform() async throws -> some IntentResult { .result() }
}

package struct TwinsShortcuts: AppShortcutsProvider {
    package static var appShortcuts: [AppShortcut] {
        AppShortcut(
            intent: ShowMenuIntent(),
            phrases: ["Show everything in \(.applicationName)", "Show the menu in \(.applicationName)"],
            shortTitle: "Menu", systemImageName: "list.bullet")
        AppShortcut(
            intent: ShowTipsIntent(),
            phrases: ["Show everything in \(.applicationName)", "Show the tips in \(.applicationName)"],
            shortTitle: "Tips", systemImageName: "lightbulb")
    }
}

/// An app whose two shortcuts share a phrase: "show everything in twins" fits both.
package struct TwinsApp: VoiceApp {
    package typealias Shortcuts = TwinsShortcuts
    package static let name = "Twins"
    package init() {}
}
