import Foundation
import Synchronization

/// The sample app's data: landmarks, favorites and collections, shared by every intent through
/// `@Dependency`.
public final class ModelData: Sendable {
    private struct State {
        var favorites: Set<Int>
        var collections: [Int: LandmarkCollection]
        var archived: Set<Int> = []
    }

    public let landmarks: [Landmark]
    /// Where the traveller is, for "closest landmark".
    public let currentLatitude: Double
    public let currentLongitude: Double
    private let state: Mutex<State>

    /// Creates the data set.
    ///
    /// - Parameters:
    ///   - landmarks: The landmarks.
    ///   - latitude: The traveller's latitude (San Francisco by default).
    ///   - longitude: The traveller's longitude.
    public init(
        landmarks: [Landmark] = Landmark.all, latitude: Double = 37.7749,
        longitude: Double = -122.4194
    ) {
        self.landmarks = landmarks
        self.currentLatitude = latitude
        self.currentLongitude = longitude
        self.state = Mutex(
            State(
                favorites: [7, 17, 23],
                collections: [
                    1: LandmarkCollection(id: 1, name: "Waterfalls", landmarkIDs: [1, 25, 29]),
                    2: LandmarkCollection(id: 2, name: "Ancient Wonders", landmarkIDs: [3, 8, 10, 11, 28]),
                    3: LandmarkCollection(id: 3, name: "Summer Trip", landmarkIDs: [7, 15, 18]),
                ]))
    }

    public func landmarks(for identifiers: [Int]) -> [Landmark] {
        landmarks.filter { identifiers.contains($0.id) }
    }

    public func favoriteLandmarks() -> [Landmark] {
        let favorites = state.withLock { $0.favorites }
        return landmarks.filter { favorites.contains($0.id) }
    }

    public func isFavorite(_ landmark: Landmark) -> Bool {
        state.withLock { $0.favorites.contains(landmark.id) }
    }

    public func setFavorite(_ landmark: Landmark, _ isFavorite: Bool) {
        state.withLock {
            if isFavorite { $0.favorites.insert(landmark.id) } else { $0.favorites.remove(landmark.id) }
        }
    }

    /// The landmark nearest the traveller, by great-circle distance.
    public func findClosestLandmark() -> Landmark {
        landmarks.min {
            distance(to: $0) < distance(to: $1)
        }!
    }

    /// Kilometres from the traveller to `landmark`.
    public func distance(to landmark: Landmark) -> Double {
        let radians = { (degrees: Double) in degrees * .pi / 180 }
        let dLat = radians(landmark.latitude - currentLatitude)
        let dLon = radians(landmark.longitude - currentLongitude)
        let a =
            sin(dLat / 2) * sin(dLat / 2) + cos(radians(currentLatitude))
            * cos(radians(landmark.latitude)) * sin(dLon / 2) * sin(dLon / 2)
        return 6_371 * 2 * atan2(sqrt(a), sqrt(1 - a))
    }

    /// How many people are at the landmark now (deterministic: the typical crowd).
    public func crowdStatus(of landmark: Landmark) -> Int {
        landmark.typicalCrowd
    }

    public func collections() -> [LandmarkCollection] {
        state.withLock { state in
            state.collections.values.filter { !state.archived.contains($0.id) }.sorted { $0.id < $1.id }
        }
    }

    public func archiveCollection(_ id: Int) {
        _ = state.withLock { $0.archived.insert(id) }
    }

    public func deleteCollection(_ id: Int) {
        _ = state.withLock { $0.collections.removeValue(forKey: id) }
    }
}

/// A named group of landmarks.
public struct LandmarkCollection: Sendable, Hashable, Identifiable {
    public let id: Int
    public let name: String
    public let landmarkIDs: [Int]
}
