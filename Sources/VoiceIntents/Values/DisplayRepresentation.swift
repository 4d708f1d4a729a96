/// How a value is shown and, here, spoken: a title, an optional subtitle, and synonyms.
///
/// The title is the name people say; synonyms are other names that mean the same value.
///
/// ```swift
/// DisplayRepresentation(title: "Map", synonyms: ["world map", "the map"])
/// let short: DisplayRepresentation = "Currently Reading"
/// ```
public struct DisplayRepresentation: Sendable, Hashable, ExpressibleByStringInterpolation {
    /// An image; kept for source compatibility, never spoken.
    public struct Image: Sendable, Hashable {
        public let systemName: String?
        public let named: String?

        /// An SF Symbol name on Apple platforms; ignored by voice.
        public init(systemName: String) {
            self.systemName = systemName
            self.named = nil
        }

        /// An image asset name; ignored by voice.
        public init(named: String) {
            self.systemName = nil
            self.named = named
        }
    }

    public var title: LocalizedStringResource
    public var subtitle: LocalizedStringResource?
    public var image: Image?
    /// Other names a person may say for the same value.
    public var synonyms: [LocalizedStringResource]

    /// Creates a representation.
    ///
    /// - Parameters:
    ///   - title: The spoken and shown name.
    ///   - subtitle: Extra text for a screen.
    ///   - image: Ignored by voice.
    ///   - synonyms: Other names that mean the same value.
    public init(
        title: LocalizedStringResource,
        subtitle: LocalizedStringResource? = nil,
        image: Image? = nil,
        synonyms: [LocalizedStringResource] = []
    ) {
        self.title = title
        self.subtitle = subtitle
        self.image = image
        self.synonyms = synonyms
    }

    public init(stringLiteral value: String) {
        self.init(title: LocalizedStringResource(stringLiteral: value))
    }

    public init(stringInterpolation: SpokenStringInterpolation) {
        self.init(title: LocalizedStringResource(stringInterpolation: stringInterpolation))
    }

    /// The title followed by the synonyms: every name that refers to the value.
    public var spokenNames: [String] {
        [title.defaultValue] + synonyms.map(\.defaultValue)
    }
}

/// How a type of value is named: "Landmark", "Shelf". Prompts use it ("Which landmark?").
///
/// ```swift
/// static let typeDisplayRepresentation: TypeDisplayRepresentation = "Landmark"
/// ```
public struct TypeDisplayRepresentation: Sendable, Hashable, ExpressibleByStringInterpolation {
    public var name: LocalizedStringResource
    public var numericFormat: LocalizedStringResource?
    public var synonyms: [LocalizedStringResource]

    /// Creates a type name.
    ///
    /// - Parameters:
    ///   - name: The singular name of the type.
    ///   - numericFormat: A format for counts ("\(placeholder: .int) landmarks"); kept, not spoken yet.
    ///   - synonyms: Other names for the type.
    public init(
        name: LocalizedStringResource,
        numericFormat: LocalizedStringResource? = nil,
        synonyms: [LocalizedStringResource] = []
    ) {
        self.name = name
        self.numericFormat = numericFormat
        self.synonyms = synonyms
    }

    public init(stringLiteral value: String) {
        self.init(name: LocalizedStringResource(stringLiteral: value))
    }

    public init(stringInterpolation: SpokenStringInterpolation) {
        self.init(name: LocalizedStringResource(stringInterpolation: stringInterpolation))
    }
}
