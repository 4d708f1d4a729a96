import Foundation

/// One of the answers to ``AppIntent/requestChoice(between:dialog:)``.
///
/// ```swift
/// let archive = Option(title: "Archive", style: .default)
/// let delete = Option(title: "Delete", style: .destructive)
/// let choice = try await requestChoice(between: [.cancel, archive, delete], dialog: "Archive or delete?")
/// ```
///
/// Its title is what a person says to pick it. Picking ``cancel`` ends the intent.
public struct IntentChoiceOption: Sendable, Hashable {
    /// How an option is presented; a destructive option is never picked by a guess.
    public enum Style: Sendable, Hashable {
        case `default`, destructive, cancel
    }

    public let title: LocalizedStringResource
    public let subtitle: LocalizedStringResource?
    public let style: Style
    let id: UUID

    /// Creates an option.
    ///
    /// - Parameters:
    ///   - title: What is shown and what a person says to pick it.
    ///   - subtitle: Extra text for a screen.
    ///   - style: How it is presented.
    public init(
        title: LocalizedStringResource, subtitle: LocalizedStringResource? = nil,
        style: Style = .default
    ) {
        self.title = title
        self.subtitle = subtitle
        self.style = style
        self.id = UUID()
    }

    private init(cancelWithTitle title: LocalizedStringResource) {
        self.title = title
        self.subtitle = nil
        self.style = .cancel
        self.id = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1))
    }

    /// The option that cancels: choosing it throws ``AppIntentError/userCancelled``.
    public static let cancel = IntentChoiceOption(cancelWithTitle: "Cancel")
}
