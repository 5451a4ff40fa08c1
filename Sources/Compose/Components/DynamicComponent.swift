import Foundation
import KarcSynchronization

/// A component created later, with the data it needs, and destroyed when it
/// goes out of view (popped from the router that showed it).
///
/// ```swift
/// struct ProfileComponent: RouterComponent {
///     let editProfile = DynamicComponent<EditProfileComponent>()
///     let router = Router(start: \Self.self)
///     let openEditProfile = ValueEmitter<ProfileObject>()
/// }
///
/// extension ProfileComponent {
///     var observers: Void {
///         openEditProfile += { profile in
///             editProfile.create(EditProfileComponent(profile: profile))
///             router.push(\Self.editProfile)
///         }
///     }
/// }
/// ```
///
/// Routing to it before ``create(_:)`` is refused (``RouteError/notCreated(route:)``).
public final class DynamicComponent<Wrapped: Component>: Routable {
    private let created = Locked<Wrapped?>(nil)

    /// Fires when ``create(_:)`` made a component.
    public let didCreate = SignalEmitter()
    /// Fires when the component was destroyed (popped, or its router component became inactive).
    public let didDestroy = SignalEmitter()

    /// No component yet.
    public init() {}

    /// The component, while it exists.
    public var component: Wrapped? { created.withLock { $0 } }

    /// Makes `component` the one routes to this lead to.
    public func create(_ component: Wrapped) {
        created.withLock { $0 = component }
        didCreate.send()
    }

    /// Drops the component (when it goes out of view).
    func destroy() {
        let existed = created.withLock { value in
            defer { value = nil }
            return value != nil
        }
        if existed { didDestroy.send() }
    }
}

/// A dynamic component, whatever its type, as the tree routes to it.
protocol DynamicHolder: Sendable {
    var createdComponent: (any Component)? { get }
    func destroy()
}

extension DynamicComponent: DynamicHolder {
    var createdComponent: (any Component)? { component }
}
