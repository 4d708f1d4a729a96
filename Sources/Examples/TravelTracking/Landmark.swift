/// A place people travel to see.
public struct Landmark: Sendable, Hashable, Identifiable {
    public let id: Int
    public let name: String
    /// Other names people use for it.
    public let otherNames: [String]
    public let continent: String
    public let country: String
    public let latitude: Double
    public let longitude: Double
    /// A typical number of visitors on site at midday.
    public let typicalCrowd: Int
    /// Ticket price in US dollars; 0 where entry is free.
    public let ticketPrice: Int

    public var description: String { "\(name), \(country)" }
}

extension Landmark {
    /// The landmarks the sample app knows, hard names included.
    public static let all: [Landmark] = [
        .init(
            id: 1, name: "Niagara Falls", otherNames: ["Horseshoe Falls"], continent: "North America",
            country: "Canada", latitude: 43.0962, longitude: -79.0377, typicalCrowd: 12_000, ticketPrice: 0),
        .init(
            id: 2, name: "Machu Picchu", otherNames: [], continent: "South America", country: "Peru",
            latitude: -13.1631, longitude: -72.5450, typicalCrowd: 2_500, ticketPrice: 62),
        .init(
            id: 3, name: "Chichén Itzá", otherNames: ["Chichen Itza"], continent: "North America",
            country: "Mexico", latitude: 20.6843, longitude: -88.5678, typicalCrowd: 6_000, ticketPrice: 35),
        .init(
            id: 4, name: "Uluru", otherNames: ["Ayers Rock"], continent: "Oceania", country: "Australia",
            latitude: -25.3444, longitude: 131.0369, typicalCrowd: 1_200, ticketPrice: 25),
        .init(
            id: 5, name: "Mount Kilimanjaro", otherNames: ["Kilimanjaro"], continent: "Africa",
            country: "Tanzania", latitude: -3.0674, longitude: 37.3556, typicalCrowd: 300, ticketPrice: 70),
        .init(
            id: 6, name: "Hagia Sophia", otherNames: ["Ayasofya"], continent: "Europe", country: "Turkey",
            latitude: 41.0086, longitude: 28.9802, typicalCrowd: 9_000, ticketPrice: 28),
        .init(
            id: 7, name: "Eiffel Tower", otherNames: ["Tour Eiffel"], continent: "Europe", country: "France",
            latitude: 48.8584, longitude: 2.2945, typicalCrowd: 20_000, ticketPrice: 30),
        .init(
            id: 8, name: "Great Wall of China", otherNames: ["Great Wall"], continent: "Asia",
            country: "China", latitude: 40.4319, longitude: 116.5704, typicalCrowd: 25_000, ticketPrice: 8),
        .init(
            id: 9, name: "Taj Mahal", otherNames: [], continent: "Asia", country: "India", latitude: 27.1751,
            longitude: 78.0421, typicalCrowd: 22_000, ticketPrice: 15),
        .init(
            id: 10, name: "Colosseum", otherNames: ["Colosseo"], continent: "Europe", country: "Italy",
            latitude: 41.8902, longitude: 12.4922, typicalCrowd: 18_000, ticketPrice: 20),
        .init(
            id: 11, name: "Petra", otherNames: [], continent: "Asia", country: "Jordan", latitude: 30.3285,
            longitude: 35.4444, typicalCrowd: 3_000, ticketPrice: 70),
        .init(
            id: 12, name: "Christ the Redeemer", otherNames: ["Cristo Redentor"], continent: "South America",
            country: "Brazil", latitude: -22.9519, longitude: -43.2105, typicalCrowd: 5_000, ticketPrice: 18),
        .init(
            id: 13, name: "Statue of Liberty", otherNames: ["Lady Liberty"], continent: "North America",
            country: "United States", latitude: 40.6892, longitude: -74.0445, typicalCrowd: 11_000,
            ticketPrice: 25),
        .init(
            id: 14, name: "Grand Canyon", otherNames: [], continent: "North America",
            country: "United States", latitude: 36.1069, longitude: -112.1129, typicalCrowd: 16_000,
            ticketPrice: 35),
        .init(
            id: 15, name: "Sagrada Família", otherNames: ["Sagrada Familia"], continent: "Europe",
            country: "Spain", latitude: 41.4036, longitude: 2.1744, typicalCrowd: 13_000, ticketPrice: 33),
        .init(
            id: 16, name: "Angkor Wat", otherNames: [], continent: "Asia", country: "Cambodia",
            latitude: 13.4125, longitude: 103.8670, typicalCrowd: 7_000, ticketPrice: 37),
        .init(
            id: 17, name: "Kinkaku-ji", otherNames: ["Golden Pavilion", "Kyoto"], continent: "Asia",
            country: "Japan", latitude: 35.0394, longitude: 135.7292, typicalCrowd: 8_000, ticketPrice: 4),
        .init(
            id: 18, name: "Santorini", otherNames: ["Oia"], continent: "Europe", country: "Greece",
            latitude: 36.4618, longitude: 25.3753, typicalCrowd: 10_000, ticketPrice: 0),
        .init(
            id: 19, name: "Neuschwanstein Castle", otherNames: ["Neuschwanstein"], continent: "Europe",
            country: "Germany", latitude: 47.5576, longitude: 10.7498, typicalCrowd: 6_000, ticketPrice: 19),
        .init(
            id: 20, name: "Stonehenge", otherNames: [], continent: "Europe", country: "United Kingdom",
            latitude: 51.1789, longitude: -1.8262, typicalCrowd: 4_000, ticketPrice: 30),
        .init(
            id: 21, name: "Mount Fuji", otherNames: ["Fujisan"], continent: "Asia", country: "Japan",
            latitude: 35.3606, longitude: 138.7274, typicalCrowd: 5_000, ticketPrice: 0),
        .init(
            id: 22, name: "Sydney Opera House", otherNames: ["Opera House"], continent: "Oceania",
            country: "Australia", latitude: -33.8568, longitude: 151.2153, typicalCrowd: 9_000,
            ticketPrice: 43),
        .init(
            id: 23, name: "Golden Gate Bridge", otherNames: ["Golden Gate"], continent: "North America",
            country: "United States", latitude: 37.8199, longitude: -122.4783, typicalCrowd: 10_000,
            ticketPrice: 0),
        .init(
            id: 24, name: "Table Mountain", otherNames: [], continent: "Africa", country: "South Africa",
            latitude: -33.9628, longitude: 18.4098, typicalCrowd: 3_000, ticketPrice: 25),
        .init(
            id: 25, name: "Victoria Falls", otherNames: ["Mosi-oa-Tunya"], continent: "Africa",
            country: "Zambia", latitude: -17.9243, longitude: 25.8572, typicalCrowd: 2_000, ticketPrice: 30),
        .init(
            id: 26, name: "Acropolis of Athens", otherNames: ["Acropolis", "Parthenon"], continent: "Europe",
            country: "Greece", latitude: 37.9715, longitude: 23.7257, typicalCrowd: 14_000, ticketPrice: 22),
        .init(
            id: 27, name: "Burj Khalifa", otherNames: [], continent: "Asia", country: "United Arab Emirates",
            latitude: 25.1972, longitude: 55.2744, typicalCrowd: 15_000, ticketPrice: 45),
        .init(
            id: 28, name: "Pyramids of Giza", otherNames: ["Great Pyramid", "Giza"], continent: "Africa",
            country: "Egypt", latitude: 29.9792, longitude: 31.1342, typicalCrowd: 17_000, ticketPrice: 12),
        .init(
            id: 29, name: "Iguazu Falls", otherNames: ["Iguaçu Falls"], continent: "South America",
            country: "Argentina", latitude: -25.6953, longitude: -54.4367, typicalCrowd: 4_500,
            ticketPrice: 28),
        .init(
            id: 30, name: "Reykjavík Hallgrímskirkja", otherNames: ["Hallgrimskirkja", "Hallgrímskirkja"],
            continent: "Europe", country: "Iceland", latitude: 64.1417, longitude: -21.9266,
            typicalCrowd: 1_500, ticketPrice: 8),
    ]
}
