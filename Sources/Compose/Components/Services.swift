import KarcSynchronization

/// A shared piece of app structure: data and the methods on it that every
/// component may use (`services.user.login()`). Created lazily, once, on
/// first use.
///
/// ```swift
/// struct UserService: Service {
///     static let Name = "storyline.user"
///     func login() { … }
/// }
///
/// extension Services {
///     var user: UserService {
///         get { self[UserService.self] }
///         set { self[UserService.self] = newValue }
///     }
/// }
/// ```
///
/// Compose's `Service` and Trellis's share a name: in a file that imports
/// both, write `Compose.Service`.
public protocol Service: Sendable {
    /// Creates the service, on its first use.
    init()
}

/// The app's services, by type: what `services` gives every component.
public struct Services: Sendable {
    /// The registry, shared by every `Services` value.
    private static let registry = Locked<[ObjectIdentifier: any Sendable]>([:])

    /// The services (they are shared: every value reads the same registry).
    public init() {}

    /// The service of type `type`, created on first use; setting one replaces it (a test double, say).
    public subscript<S: Service>(_ type: S.Type) -> S {
        get {
            if let service = Self.registry.withLock({ $0[ObjectIdentifier(type)] as? S }) { return service }
            // Made outside the lock: a service's init may use other services. The first one stored wins.
            let made = S()
            return Self.registry.withLock { registry in
                if let service = registry[ObjectIdentifier(type)] as? S { return service }
                registry[ObjectIdentifier(type)] = made
                return made
            }
        }
        nonmutating set {
            Self.registry.withLock { $0[ObjectIdentifier(type)] = newValue }
        }
    }
}
