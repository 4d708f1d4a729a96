import Synchronization

/// Where an app registers the objects its intents and queries reach through `@Dependency`.
///
/// ```swift
/// AppDependencyManager.shared.add { ModelData() }
/// ```
///
/// Each dependency is made on first use and then shared. Register them in the app's `init()`
/// (see ``VoiceApp``); an intent whose dependency is missing is not run, and the error names it.
public final class AppDependencyManager: Sendable {
    /// The manager intents use unless a runner was given another one.
    public static let shared = AppDependencyManager()

    /// The manager `@Dependency` reads from in the current task: ``shared`` unless a runner (or
    /// a test) binds another.
    ///
    /// ```swift
    /// try await AppDependencyManager.$current.withValue(testManager) {
    ///     try await LandmarkEntity.defaultQuery.suggestedEntities()
    /// }
    /// ```
    @TaskLocal public static var current: AppDependencyManager = .shared

    /// Dependencies are the app's own objects, shared by every intent as on Apple platforms;
    /// the manager only guards its table, not the objects.
    private final class Instance: @unchecked Sendable {
        let value: Any
        init(_ value: Any) { self.value = value }
    }

    private struct Entry: Sendable {
        var make: @Sendable () -> Any
        var instance: Instance?
    }

    private struct Key: Hashable {
        let type: ObjectIdentifier
        let key: String?
    }

    private let entries = Mutex<[Key: Entry]>([:])

    /// Creates an empty manager; tests use one of their own instead of ``shared``.
    public init() {}

    /// Registers a dependency, made by `dependency` the first time an intent needs it.
    ///
    /// - Parameters:
    ///   - key: Distinguishes several dependencies of the same type.
    ///   - dependency: Makes the dependency.
    public func add<Dependency>(
        key: String? = nil, dependency: @escaping @Sendable () -> Dependency
    ) {
        entries.withLock {
            $0[Key(type: ObjectIdentifier(Dependency.self), key: key)] = Entry(make: dependency)
        }
    }

    /// Whether a dependency of this type (and key) was registered.
    public func contains(_ type: Any.Type, key: String? = nil) -> Bool {
        entries.withLock { $0[Key(type: ObjectIdentifier(type), key: key)] != nil }
    }

    /// Forgets every registration.
    public func removeAll() {
        entries.withLock { $0.removeAll() }
    }

    /// The dependency of this type, made now if it was not yet; `nil` if none was registered.
    public func resolve<Dependency>(_ type: Dependency.Type, key: String? = nil) -> Dependency? {
        let id = Key(type: ObjectIdentifier(type), key: key)
        let existing: Entry? = entries.withLock { $0[id] }
        guard let entry = existing else { return nil }
        if let instance = entry.instance { return instance.value as? Dependency }
        // Made outside the lock so a dependency may itself resolve others.
        let made = Instance(entry.make())
        let kept = entries.withLock { entries in
            if let instance = entries[id]?.instance { return instance }
            entries[id]?.instance = made
            return made
        }
        return kept.value as? Dependency
    }
}

/// Reaches a dependency registered with ``AppDependencyManager``.
///
/// ```swift
/// struct ClosestLandmarkIntent: AppIntent {
///     @Dependency var modelData: ModelData
///     …
/// }
/// ```
@propertyWrapper
public struct Dependency<Value>: Sendable {
    /// The registration key, when several dependencies share a type.
    public let key: String?

    /// Declares a dependency.
    ///
    /// - Parameter key: The key it was registered under, if any.
    public init(key: String? = nil) {
        self.key = key
    }

    /// The registered instance. Reading an unregistered dependency is a programming error;
    /// ``IntentRunner`` checks every dependency before it runs an intent.
    public var wrappedValue: Value {
        guard let value = AppDependencyManager.current.resolve(Value.self, key: key) else {
            fatalError(
                "@Dependency \(Value.self) is not registered. "
                    + "Add `AppDependencyManager.shared.add { … }` in your app's init().")
        }
        return value
    }
}

/// What the runner checks about a dependency before it runs an intent.
protocol _AnyDependency {
    var _valueType: Any.Type { get }
    var key: String? { get }
}

extension Dependency: _AnyDependency {
    var _valueType: Any.Type { Value.self }
}
