import VoiceIntents

/// Finds the landmark nearest the traveller.
public struct ClosestLandmarkIntent: AppIntent {
    public static let title: LocalizedStringResource = "Find Closest Landmark"

    @Dependency var modelData: ModelData

    public init() {}

    public func perform() async throws
        -> some ReturnsValue<LandmarkEntity> & ProvidesDialog & ShowsSnippetView
    {
        let landmark = modelData.findClosestLandmark()
        let kilometres = Int(modelData.distance(to: landmark).rounded())
        return .result(
            value: LandmarkEntity(landmark),
            dialog: IntentDialog(
                full: "The closest landmark is \(landmark.name), \(kilometres) kilometers away.",
                supporting: "\(landmark.name) is in \(landmark.continent)."),
            view: LandmarkView(landmark: landmark, isFavorite: modelData.isFavorite(landmark)))
    }
}

/// How busy a landmark is now.
public struct GetCrowdStatusIntent: AppIntent {
    public static let title: LocalizedStringResource = "Get Crowd Status"
    public static let supportedModes: IntentModes = [.background, .foreground(.dynamic)]

    @Parameter(title: "Landmark", requestValueDialog: "Which landmark?")
    public var landmark: LandmarkEntity

    @Dependency var modelData: ModelData

    public init() {}

    public func perform() async throws -> some ReturnsValue<Int> & ProvidesDialog {
        let crowd = modelData.crowdStatus(of: landmark.landmark)
        let level = crowd > 15_000 ? "very busy" : crowd > 5_000 ? "busy" : "quiet"
        if systemContext.currentMode.canContinueInForeground {
            try await continueInForeground(alwaysConfirm: false)
        }
        return .result(
            value: crowd,
            dialog: "\(landmark) is \(level) right now, with about \(crowd) visitors.")
    }
}

/// Looks for tickets to a landmark, after confirming the search.
public struct FindTicketsIntent: AppIntent {
    public static let title: LocalizedStringResource = "Find Tickets"

    public static var parameterSummary: some ParameterSummary {
        Summary("Find \(\.$ticketCount) tickets for \(\.$landmark)")
    }

    @Parameter(title: "Landmark", requestValueDialog: "Which landmark?")
    public var landmark: LandmarkEntity

    @Parameter(title: "Number of Tickets", requestValueDialog: "How many tickets?")
    public var ticketCount: Int

    public init() {}

    public init(landmark: LandmarkEntity) {
        self.landmark = landmark
    }

    public func perform() async throws -> some ReturnsValue<Int> & ProvidesDialog {
        guard ticketCount > 0 else { throw TravelTrackingError.invalidTicketCount(ticketCount) }
        guard ticketCount <= 10 else { throw TravelTrackingError.tooManyTickets(ticketCount) }
        let noun = ticketCount == 1 ? "ticket" : "tickets"
        try await requestConfirmation(
            actionName: .search, dialog: "Search for \(ticketCount) \(noun) to \(landmark)?")
        let price = landmark.landmark.ticketPrice
        guard price > 0 else {
            return .result(value: 0, dialog: "\(landmark) is free to visit: no tickets needed.")
        }
        let total = price * ticketCount
        return .result(
            value: total,
            dialog: "I found \(ticketCount) \(noun) to \(landmark) for \(total) dollars in total.")
    }
}

/// Adds a landmark to the favorites, or removes it.
public struct UpdateFavoritesIntent: AppIntent {
    public static let title: LocalizedStringResource = "Update Favorites"

    public static var parameterSummary: some ParameterSummary {
        When(\.$isFavorite, .equalTo, true) {
            Summary("Add \(\.$landmark) to favorites")
        } otherwise: {
            Summary("Remove \(\.$landmark) from favorites")
        }
    }

    @Parameter(title: "Landmark", requestValueDialog: "Which landmark?")
    public var landmark: LandmarkEntity

    @Parameter(title: "Is Favorite", default: true)
    public var isFavorite: Bool

    @Dependency var modelData: ModelData

    public init() {}

    public init(landmark: LandmarkEntity, isFavorite: Bool) {
        self.landmark = landmark
        self.isFavorite = isFavorite
    }

    public func perform() async throws -> some IntentResult & ProvidesDialog {
        modelData.setFavorite(landmark.landmark, isFavorite)
        TravelTrackingAppShortcuts.updateAppShortcutParameters()
        return .result(
            dialog: isFavorite
                ? "Added \(landmark) to your favorites." : "Removed \(landmark) from your favorites.")
    }
}

/// Archives or deletes a collection, after asking which.
public struct DeleteCollectionIntent: AppIntent {
    public static let title: LocalizedStringResource = "Delete Collection"

    @Parameter(title: "Collection", requestValueDialog: "Which collection?")
    public var collection: CollectionEntity

    @Dependency var modelData: ModelData

    public init() {}

    public func perform() async throws -> some IntentResult & ReturnsValue<CollectionEntity?> & ProvidesDialog
    {
        let archive = Option(title: "Archive", style: .default)
        let delete = Option(title: "Delete", style: .destructive)
        let choice = try await requestChoice(
            between: [.cancel, archive, delete],
            dialog: "Do you want to archive or delete \(collection)?")
        switch choice {
        case archive:
            modelData.archiveCollection(collection.id)
            return .result(value: collection, dialog: "Archived \(collection).")
        case delete:
            modelData.deleteCollection(collection.id)
            return .result(value: nil, dialog: "Deleted \(collection).")
        default:
            return .result(value: collection, dialog: "Kept \(collection).")
        }
    }
}

/// Errors of the TravelTracking intents, said as they are written.
public enum TravelTrackingError: Error, CustomLocalizedStringResourceConvertible {
    case invalidTicketCount(Int)
    case tooManyTickets(Int)

    public var localizedStringResource: LocalizedStringResource {
        switch self {
        case .invalidTicketCount: "You need at least one ticket."
        case .tooManyTickets(let count): "Sorry, I can't book \(count) tickets at once. The limit is ten."
        }
    }
}
