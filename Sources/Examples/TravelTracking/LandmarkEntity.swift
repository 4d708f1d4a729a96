import VoiceIntents

/// A landmark as intents see it.
public struct LandmarkEntity: AppEntity {
    public var id: Int { landmark.id }
    public var name: String { landmark.name }
    public var continent: String { landmark.continent }
    public let landmark: Landmark

    public init(_ landmark: Landmark) {
        self.landmark = landmark
    }

    public static let typeDisplayRepresentation = TypeDisplayRepresentation(
        name: "Landmark", synonyms: ["place", "sight"])

    public var displayRepresentation: DisplayRepresentation {
        DisplayRepresentation(
            title: "\(name)", subtitle: "\(landmark.country)",
            synonyms: landmark.otherNames.map { LocalizedStringResource($0) })
    }

    public static let defaultQuery = LandmarkEntityQuery()
}

/// Finds landmarks: all of them are known, so the query is enumerable; names said aloud are
/// looked up through the derived string query.
public struct LandmarkEntityQuery: EnumerableEntityQuery, EntityStringQuery {
    @Dependency var modelData: ModelData

    public init() {}

    public func allEntities() async throws -> [LandmarkEntity] {
        modelData.landmarks.map(LandmarkEntity.init)
    }
}

/// A collection of landmarks as intents see it.
public struct CollectionEntity: AppEntity {
    public let id: Int
    public let name: String

    public static let typeDisplayRepresentation: TypeDisplayRepresentation = "Collection"
    public var displayRepresentation: DisplayRepresentation { "\(name)" }
    public static let defaultQuery = CollectionEntityQuery()
}

/// Finds the collections that are not archived.
public struct CollectionEntityQuery: EnumerableEntityQuery {
    @Dependency var modelData: ModelData

    public init() {}

    public func allEntities() async throws -> [CollectionEntity] {
        modelData.collections().map { CollectionEntity(id: $0.id, name: $0.name) }
    }
}

/// The sections of the app.
public enum NavigationOption: String, AppEnum {
    case landmarks
    case map
    case collections

    public static let typeDisplayRepresentation: TypeDisplayRepresentation = "Section"
    public static let caseDisplayRepresentations: [NavigationOption: DisplayRepresentation] = [
        .landmarks: DisplayRepresentation(title: "Landmarks", synonyms: ["places", "sights"]),
        .map: DisplayRepresentation(title: "Map", synonyms: ["the map", "world map"]),
        .collections: DisplayRepresentation(title: "Collections", synonyms: ["my collections"]),
    ]
}
