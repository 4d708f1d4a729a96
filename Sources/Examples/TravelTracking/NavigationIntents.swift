import Foundation
import VoiceIntents

/// Opens a section of the app.
public struct NavigateIntent: AppIntent {
    public static let title: LocalizedStringResource = "Navigate to Section"
    public static let description: IntentDescription? = "Opens the landmarks, the map or your collections."
    public static let supportedModes: IntentModes = .foreground

    public static var parameterSummary: some ParameterSummary {
        Summary("Navigate to \(\.$navigationOption)")
    }

    @Parameter(title: "Section", requestValueDialog: "Which section?")
    public var navigationOption: NavigationOption

    public init() {}

    public func perform() async throws -> some IntentResult & ProvidesDialog {
        .result(dialog: "Opening \(navigationOption).")
    }
}

/// Opens one landmark.
public struct OpenLandmarkIntent: OpenIntent {
    public static let title: LocalizedStringResource = "Open Landmark"

    @Parameter(title: "Landmark", requestValueDialog: "Which landmark?")
    public var target: LandmarkEntity

    public init() {}

    public init(landmark: LandmarkEntity) {
        self.target = landmark
    }

    public func perform() async throws -> some IntentResult & ProvidesDialog & ShowsSnippetView {
        .result(
            dialog: IntentDialog(
                full: "Here is \(target), in \(target.landmark.country).",
                supporting: "Here is \(target)."),
            view: LandmarkView(landmark: target.landmark))
    }
}

/// A landmark's card on a terminal.
public struct LandmarkView: SnippetView {
    public let landmark: Landmark
    public var isFavorite = false

    public var text: String {
        """
        \(landmark.name)\(isFavorite ? " ★" : "")
        \(landmark.country), \(landmark.continent)
        \(String(format: "%.4f, %.4f", landmark.latitude, landmark.longitude))
        """
    }
}
