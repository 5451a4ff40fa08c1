import KarcAsync
import KarcSynchronization
import Synchronization

/// A resource a model uses through an ``Environ``: opened when first acquired,
/// closed when the last user releases it.
public protocol Resource: Sendable {
    /// Creates the resource; `open(configs:)` prepares it.
    init()
    /// Prepares the resource before its first use, with the environ's configs.
    func open(configs: [String: any Sendable]) async throws
    /// Releases what `open(configs:)` prepared.
    func close(configs: [String: any Sendable]) async throws
}

extension Resource {
    /// Does nothing: a resource that needs no preparation.
    public func open(configs: [String: any Sendable]) async throws {}
    /// Does nothing: a resource that needs no clean-up.
    public func close(configs: [String: any Sendable]) async throws {}
}

/// Why an ``Environ`` could not provide a resource.
public enum EnvironError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No acquire/release pair is registered for the resource type.
    case notRegistered(resource: String)
    /// The resource is registered but not acquired under that id.
    case notAcquired(resource: String, id: String)
    /// The gateway registered for the resource does not conform to the resource type.
    case gatewayMismatch(resource: String, gateway: String)

    public var description: String {
        switch self {
        case .notRegistered(let resource):
            return "no \(resource) is registered in this environ; call register(\(resource).self, gatewayType:) or register(acquire:release:)"
        case .notAcquired(let resource, let id):
            return "\(resource) (id \(id)) is not acquired; add Injector<\(resource)>() to the model's scopes, or use @Use"
        case .gatewayMismatch(let resource, let gateway):
            return "gateway \(gateway) does not conform to \(resource)"
        }
    }
}

/// The resources a model's pipelines depend on: which implementation provides
/// each resource type (production, test, …), and which instances are live.
///
/// Acquisitions are reference counted per resource type and id: the first
/// acquire opens the resource, the last release closes it.
///
/// ```swift
/// static let test = Environ()
///     .register(StorageResource.self, gatewayType: StorageTestGateway.self)
/// ```
public final class Environ: Sendable {
    struct Registration: Sendable {
        let acquire: @Sendable ([String: any Sendable]) async throws -> any Sendable
        let release: @Sendable (any Sendable, [String: any Sendable]) async throws -> Void
    }

    struct Live: Sendable {
        var count: Int
        let resource: any Sendable
    }

    struct Key: Hashable, Sendable {
        let type: ObjectIdentifier
        /// The id's type and value: ids of two types that print alike stay apart.
        let id: String
        /// The id as given, for messages.
        let shown: String

        static func == (a: Key, b: Key) -> Bool { a.type == b.type && a.id == b.id }
        func hash(into hasher: inout Hasher) {
            hasher.combine(type)
            hasher.combine(id)
        }
    }

    struct State: Sendable {
        var registrations: [ObjectIdentifier: Registration] = [:]
        var live: [Key: Live] = [:]
        var configs: [String: any Sendable] = [:]
        var clock: any Clock<Duration> = ContinuousClock()
    }

    private let state = KarcMutex(State())
    // Acquire and release run one at a time, so two first users never open a resource twice.
    private let lifecycle = AsyncLock()

    /// An empty environ: no configs, no resources, the continuous clock.
    public init() {}

    /// Registers `gatewayType` as the implementation of `resourceType`.
    @discardableResult
    public func register<R, G: Resource>(_ resourceType: R.Type, gatewayType: G.Type) -> Environ {
        let registration = Registration(
            acquire: { configs in
                let gateway = G()
                guard gateway is R else {
                    throw EnvironError.gatewayMismatch(resource: "\(R.self)", gateway: "\(G.self)")
                }
                try await gateway.open(configs: configs)
                return gateway
            },
            release: { resource, configs in
                try await (resource as? any Resource)?.close(configs: configs)
            }
        )
        state.withLock { $0.registrations[ObjectIdentifier(R.self)] = registration }
        return self
    }

    /// Registers how to acquire and release a resource of type `R`.
    @discardableResult
    public func register<R: Sendable>(
        acquire: @escaping @Sendable ([String: any Sendable]) async throws -> R,
        release: @escaping @Sendable (R) async throws -> Void
    ) -> Environ {
        let registration = Registration(
            acquire: { configs in try await acquire(configs) },
            release: { resource, _ in
                if let resource = resource as? R { try await release(resource) }
            }
        )
        state.withLock { $0.registrations[ObjectIdentifier(R.self)] = registration }
        return self
    }

    /// Sets a configuration value passed to every resource's `open` and `close`.
    @discardableResult
    public func setConfig(key: String, value: any Sendable) -> Environ {
        state.withLock { $0.configs[key] = value }
        return self
    }

    /// The config value under `key`, when it is a `T`.
    public func getConfig<T>(key: String) -> T? {
        state.withLock { $0.configs[key] as? T }
    }

    /// The clock models set up with this environ wait on: between a failed
    /// pipeline's restarts, and for their own timers if they ask for it
    /// here. The continuous clock unless a test sets its own.
    public var clock: any Clock<Duration> { state.withLock { $0.clock } }

    /// Sets ``clock`` (a test's `TestClock`, say).
    @discardableResult
    public func setClock(_ clock: any Clock<Duration>) -> Environ {
        state.withLock { $0.clock = clock }
        return self
    }

    /// Acquires the resource: opens it on first acquisition, counts the others.
    public func acquire<R, Id: Hashable & Sendable>(_ resourceType: R.Type, id: Id) async throws {
        let key = Self.key(R.self, id)
        try await lifecycle.withLock {
            let (registration, configs, isLive) = state.withLock { s in
                (s.registrations[key.type], s.configs, s.live[key] != nil)
            }
            if isLive {
                state.withLock { $0.live[key]?.count += 1 }
                return
            }
            guard let registration else { throw EnvironError.notRegistered(resource: "\(R.self)") }
            let resource = try await registration.acquire(configs)
            state.withLock { $0.live[key] = Live(count: 1, resource: resource) }
        }
    }

    /// Acquires the resource with the default id: opens it, or counts one more acquisition when it is open.
    public func acquire<R>(_ resourceType: R.Type) async throws {
        try await acquire(resourceType, id: DefaultId.shared)
    }

    /// Releases one acquisition; the last one closes the resource.
    public func release<R, Id: Hashable & Sendable>(_ resourceType: R.Type, id: Id) async throws {
        let key = Self.key(R.self, id)
        try await lifecycle.withLock {
            let closing: (Live, Registration?, [String: any Sendable])? = try state.withLock { s in
                guard var live = s.live[key] else {
                    throw EnvironError.notAcquired(resource: "\(R.self)", id: key.shown)
                }
                live.count -= 1
                if live.count > 0 {
                    s.live[key] = live
                    return nil
                }
                s.live[key] = nil
                return (live, s.registrations[key.type], s.configs)
            }
            if let (live, registration, configs) = closing {
                try await registration?.release(live.resource, configs)
            }
        }
    }

    /// Releases one acquisition of the resource with the default id; the last one closes it.
    public func release<R>(_ resourceType: R.Type) async throws {
        try await release(resourceType, id: DefaultId.shared)
    }

    /// The live resource of type `R`; it must have been acquired.
    public func resolve<R, Id: Hashable & Sendable>(_ resourceType: R.Type, id: Id) async throws -> R {
        try resolveNow(R.self, id: id)
    }

    /// The acquired resource with the default id.
    ///
    /// - Throws: ``EnvironError`` when it is not registered or not acquired.
    public func resolve<R>(_ resourceType: R.Type) async throws -> R {
        try resolveNow(R.self, id: DefaultId.shared)
    }

    /// The acquired resource with `id`.
    ///
    /// - Throws: ``EnvironError`` when it is not registered or not acquired.
    public func resolve<R, Id: Hashable & Sendable>(id: Id) async throws -> R {
        try resolveNow(R.self, id: id)
    }

    /// Acquires the resource, runs `operation` with it, and releases it, even on error.
    @discardableResult
    public func use<R, T, Id: Hashable & Sendable>(
        _ resourceType: R.Type,
        id: Id,
        _ operation: (R) async throws -> T
    ) async throws -> T {
        try await acquire(R.self, id: id)
        let result: Result<T, any Error>
        do {
            result = .success(try await operation(try resolveNow(R.self, id: id)))
        } catch {
            result = .failure(error)
        }
        try await release(R.self, id: id)
        return try result.get()
    }

    /// Acquires the resource, runs `operation` with it and releases it, also when `operation` throws.
    ///
    /// - Returns: what `operation` returns.
    @discardableResult
    public func use<R, T>(_ resourceType: R.Type, _ operation: (R) async throws -> T) async throws -> T {
        try await use(resourceType, id: DefaultId.shared, operation)
    }

    /// Number of live acquisitions of a resource (0 when closed).
    public func acquisitionCount<R, Id: Hashable & Sendable>(_ resourceType: R.Type, id: Id) -> Int {
        state.withLock { $0.live[Self.key(R.self, id)]?.count ?? 0 }
    }

    func resolveNow<R, Id: Hashable & Sendable>(_ resourceType: R.Type, id: Id) throws -> R {
        let key = Self.key(R.self, id)
        let live = state.withLock { $0.live[key] }
        guard let resource = live?.resource as? R else {
            throw EnvironError.notAcquired(resource: "\(R.self)", id: key.shown)
        }
        return resource
    }

    static func key<R, Id: Hashable & Sendable>(_: R.Type, _ id: Id) -> Key {
        Key(type: ObjectIdentifier(R.self), id: "\(Id.self):\(id)", shown: "\(id)")
    }
}
