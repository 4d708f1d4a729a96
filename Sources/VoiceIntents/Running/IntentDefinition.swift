/// What an intent type declares, read at run time: title, modes and parameters.
///
/// ```swift
/// let navigate = IntentDefinition(NavigateIntent.self)
/// navigate.parameters.map(\.name)        // ["navigationOption"]
/// IntentDefinition.parameterName(for: \NavigateIntent.$navigationOption)   // "navigationOption"
/// ```
///
/// Parameters are found the way swift-argument-parser finds its property wrappers: with `Mirror`
/// over a fresh instance, so they come in declaration order.
public struct IntentDefinition: Sendable {
    /// The stable identifier (the type name unless the intent overrides it).
    public let identifier: String
    public let title: String
    public let description: String?
    public let supportedModes: IntentModes
    public let isDiscoverable: Bool
    /// Who may run it (``AppIntent/authenticationPolicy``).
    public let authenticationPolicy: IntentAuthenticationPolicy
    /// The parameters in declaration order.
    public let parameters: [IntentParameterDescription]
    /// The intent type.
    public let type: any AppIntent.Type

    /// Reads the declaration of `type`.
    public init(_ type: any AppIntent.Type) {
        self.type = type
        self.identifier = type.persistentIdentifier
        self.title = type.title.defaultValue
        self.description = type.description?.descriptionText.defaultValue
        self.supportedModes = type.supportedModes
        self.isDiscoverable = type.isDiscoverable
        self.authenticationPolicy = type.authenticationPolicy
        self.parameters = IntentReflection.parameters(of: type.init()).map { $0._describe() }
    }

    /// The values of parameter `name` known in advance, with their spoken names: enum cases,
    /// suggested entities. Empty for free text, numbers and unknown names.
    public func namedValues(forParameter name: String) async throws -> [NamedValue] {
        try await parameter(name)?._namedValues() ?? []
    }

    /// The values that parameter `name`'s ``DynamicOptionsProvider`` suggests, as they are spoken,
    /// asked now; `nil` when it has no provider (or the intent no such parameter). For free text
    /// that a grammar can offer: a book's title among the catalogue's titles.
    ///
    /// ```swift
    /// try await IntentDefinition(AddBook.self).suggestedValues(forParameter: "title")
    /// // ["Persuasion", "Emma", "Dune", …]
    /// ```
    ///
    /// - Parameter name: The parameter's name.
    /// - Throws: What the provider throws.
    public func suggestedValues(forParameter name: String) async throws -> [String]? {
        try await parameter(name)?._suggestedNames()
    }

    /// The values that `words` may mean for parameter `name`, found as a spoken answer is found
    /// (an entity's string query, number words, dates…); empty when none fits.
    public func values(matching words: String, forParameter name: String) async throws -> [NamedValue] {
        try await parameter(name)?._resolve(words) ?? []
    }

    private func parameter(_ name: String) -> (any _AnyIntentParameter)? {
        IntentReflection.parameters(of: type.init()).first { $0.name == name }
    }

    /// The name of the parameter a key path such as `\.$navigationOption` points at, or `nil`
    /// when it leads to no `@Parameter` stored in the intent.
    public static func parameterName<Intent: AppIntent, Value>(
        for keyPath: KeyPath<Intent, IntentParameter<Value>>
    ) -> String? {
        let intent = Intent()
        let target = intent[keyPath: keyPath]
        return IntentReflection.parameters(of: intent).first { $0 === target }?.name
    }
}

/// Finding the property wrappers of intents and queries.
enum IntentReflection {
    /// The `@Parameter`s of `intent`, in declaration order, each told its name.
    static func parameters(of intent: any AppIntent) -> [any _AnyIntentParameter] {
        Mirror(reflecting: intent).children.compactMap { child in
            guard let parameter = child.value as? any _AnyIntentParameter, let label = child.label
            else { return nil }
            parameter._assignName(String(label.trimmingPrefix("_")))
            return parameter
        }
    }

    /// The `@Dependency`s of a value (an intent or a query).
    static func dependencies(of value: Any) -> [any _AnyDependency] {
        Mirror(reflecting: value).children.compactMap { $0.value as? any _AnyDependency }
    }

    /// The dependency types that `value` reads but `manager` does not have.
    static func missingDependencies(of value: Any, in manager: AppDependencyManager) -> [String] {
        dependencies(of: value).filter { !manager.contains($0._valueType, key: $0.key) }
            .map { String(describing: $0._valueType) }
    }
}
