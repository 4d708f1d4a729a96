/// A text rendering of what an intent would show, standing in for a SwiftUI view.
///
/// On a terminal the runtime prints the snippet beside the supporting dialog; voice-only use
/// ignores it.
///
/// ```swift
/// struct ClosestLandmarkView: SnippetView {
///     let landmark: LandmarkEntity
///     var text: String { "\(landmark.name)\n\(landmark.continent)" }
/// }
/// ```
public protocol SnippetView: Sendable {
    /// The lines to show.
    var text: String { get }
}

/// A snippet that is just text: `Text("Order #42")`.
public struct Text: SnippetView, Hashable {
    public let text: String

    /// Creates a text snippet.
    public init(_ text: String) {
        self.text = text
    }
}

/// Builds a snippet from the closing expression of a `view:` trailing closure.
@resultBuilder
public enum SnippetViewBuilder {
    public static func buildBlock<Content: SnippetView>(_ content: Content) -> Content { content }
}
