/// What an intent says: a full sentence for voice-only use, and an optional shorter one that
/// accompanies something shown on a screen.
///
/// ```swift
/// IntentDialog(
///     full: "The closest landmark is \(landmark.name).",
///     supporting: "\(landmark.name) is in \(landmark.continent).")
/// let simple: IntentDialog = "Opening \(navigationOption)."
/// ```
public struct IntentDialog: Sendable, Hashable, ExpressibleByStringInterpolation {
    /// Said when voice is the only output: it must stand on its own.
    public let full: LocalizedStringResource
    /// Said beside a snippet on a screen; the full dialog when none was given.
    public let supporting: LocalizedStringResource

    /// Creates a dialog with both forms.
    ///
    /// - Parameters:
    ///   - full: The sentence for voice-only use.
    ///   - supporting: The sentence that accompanies visual output.
    public init(full: LocalizedStringResource, supporting: LocalizedStringResource) {
        self.full = full
        self.supporting = supporting
    }

    /// Creates a dialog whose full and supporting forms are the same.
    public init(_ text: LocalizedStringResource) {
        self.init(full: text, supporting: text)
    }

    public init(stringLiteral value: String) {
        self.init(LocalizedStringResource(stringLiteral: value))
    }

    public init(stringInterpolation: SpokenStringInterpolation) {
        self.init(LocalizedStringResource(stringInterpolation: stringInterpolation))
    }
}
