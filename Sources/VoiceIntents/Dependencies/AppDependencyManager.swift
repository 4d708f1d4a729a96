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

    /// How a dependency is made: at once when first read, or by awaiting a maker before an
    /// intent that reads it runs (``make(_:key:)``).
    private enum Maker: Sendable {
        case now(@Sendable () throws -> Any)
        case later(@Sendable () async throws -> Any)
    }

    private struct Entry: Sendable {
        var make: Maker
        var instance: Instance?
    }

    /// The type and the key an app chose (an `AnyHashable`, as Apple's API takes it: a string or
    /// an enum case in practice), only ever compared: hence the unchecked `Sendable`.
    private struct Key: Hashable, @unchecked Sendable {
        let type: ObjectIdentifier
        let key: AnyHashable?
    }

    private let entries = Mutex<[Key: Entry]>([:])

    /// Creates an empty manager; tests use one of their own instead of ``shared``.
    public init() {}

    /// Registers a value as a dependency; it is evaluated the first time an intent needs it.
    ///
    /// ```swift
    /// AppDependencyManager.shared.add(dependency: ModelData())
    /// ```
    ///
    /// - Parameters:
    ///   - key: Distinguishes several dependencies of the same type.
    ///   - dependency: The dependency.
    public func add<Dependency: Sendable>(
        key: AnyHashable? = nil, dependency: @autoclosure @escaping @Sendable () -> Dependency
    ) {
        register(Dependency.self, key: key, .now { dependency() })
    }

    /// Registers a dependency made by a closure the first time an intent needs it.
    ///
    /// ```swift
    /// AppDependencyManager.shared.add { ModelData() }
    /// ```
    public func add<Dependency: Sendable>(
        key: AnyHashable? = nil,
        dependency provider: @autoclosure @escaping () -> @Sendable () throws -> Dependency
    ) {
        let make = provider()
        register(Dependency.self, key: key, .now { try make() })
    }

    /// Registers a dependency made by an asynchronous closure, awaited before the first intent
    /// (or query) that needs it runs.
    ///
    /// ```swift
    /// AppDependencyManager.shared.add { try await Database.open() }
    /// ```
    public func add<Dependency: Sendable>(
        key: AnyHashable? = nil, dependency: @escaping @Sendable () async throws -> Dependency
    ) {
        register(Dependency.self, key: key, .later { try await dependency() })
    }

    private func register(_ type: Any.Type, key: AnyHashable?, _ make: Maker) {
        entries.withLock { $0[Key(type: ObjectIdentifier(type), key: key)] = Entry(make: make) }
    }

    /// Whether a dependency of this type (and key) was registered.
    public func contains(_ type: Any.Type, key: AnyHashable? = nil) -> Bool {
        entries.withLock { $0[Key(type: ObjectIdentifier(type), key: key)] != nil }
    }

    /// Forgets every registration.
    public func removeAll() {
        entries.withLock { $0.removeAll() }
    }

    /// The dependency of this type, made now if it was not yet; `nil` if none was registered,
    /// if its maker threw, or if its maker is asynchronous and was not awaited yet
    /// (``make(_:key:)``).
    public func resolve<Dependency>(_ type: Dependency.Type, key: AnyHashable? = nil) -> Dependency? {
        let id = Key(type: ObjectIdentifier(type), key: key)
        guard let entry = entries.withLock({ $0[id] }) else { return nil }
        if let instance = entry.instance { return instance.value as? Dependency }
        guard case .now(let make) = entry.make, let value = try? make() else { return nil }
        return keep(Instance(value), for: id).value as? Dependency
    }

    /// Makes the dependency of this type (and key) if it was not made yet, awaiting an
    /// asynchronous maker; the runner does this for every `@Dependency` of an intent before it
    /// runs it.
    ///
    /// - Throws: What its maker threw.
    public func make(_ type: Any.Type, key: AnyHashable? = nil) async throws {
        let id = Key(type: ObjectIdentifier(type), key: key)
        guard let entry = entries.withLock({ $0[id] }), entry.instance == nil else { return }
        switch entry.make {
        case .now(let make): _ = keep(Instance(try make()), for: id)
        case .later(let make): _ = keep(Instance(try await make()), for: id)
        }
    }

    /// Makes every dependency registered with an asynchronous maker that was not made yet, so
    /// that code which reads dependencies outside an intent's run (an entity query asked for the
    /// names the app knows) finds them.
    ///
    /// - Throws: What a maker threw.
    public func makeAsynchronous() async throws {
        let waiting = entries.withLock { entries in
            entries.filter {
                guard $0.value.instance == nil, case .later = $0.value.make else { return false }
                return true
            }.map(\.key)
        }
        for id in waiting {
            guard let entry = entries.withLock({ $0[id] }), case .later(let make) = entry.make else {
                continue
            }
            _ = keep(Instance(try await make()), for: id)
        }
    }

    /// `made`, kept as the instance for `id`, unless another was kept first (made outside the
    /// lock, so that a dependency may itself resolve others): the one kept.
    private func keep(_ made: Instance, for id: Key) -> Instance {
        entries.withLock { entries in
            if let instance = entries[id]?.instance { return instance }
            entries[id]?.instance = made
            return made
        }
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
///
/// Its only state is the key, set once when it is declared: an `AnyHashable`, as Apple's API takes
/// it (a string or an enum case in practice), hence the unchecked `Sendable`.
@propertyWrapper
public struct Dependency<Value>: @unchecked Sendable {
    /// The registration key, when several dependencies share a type.
    public let key: AnyHashable?

    /// Declares a dependency.
    ///
    /// - Parameter key: The key it was registered under, if any.
    public init(key: AnyHashable? = nil) {
        self.key = key
    }

    /// The registered instance. Reading an unregistered dependency is a programming error;
    /// ``IntentRunner`` checks every dependency before it runs an intent.
    public var wrappedValue: Value {
        guard let value = AppDependencyManager.current.resolve(Value.self, key: key) else {
            fatalError(
                "@Dependency \(Value.self) is not registered, or its maker threw. "
                    + "Add `AppDependencyManager.shared.add { … }` in your app's init().")
        }
        return value
    }
}

/// What the runner checks about a dependency before it runs an intent.
protocol _AnyDependency {
    var _valueType: Any.Type { get }
    var key: AnyHashable? { get }
}

extension Dependency: _AnyDependency {
    var _valueType: Any.Type { Value.self }
}
