import KarcSynchronization

/// The router of the nearest ``RouterComponent`` around a component, for
/// push and pop navigation from a component that has no router of its own.
///
/// ```swift
/// struct LogInComponent: Component {
///     let resetPassword = ResetPasswordComponent()
///     @EnclosingRouter var router
///     let openResetPassword = SignalEmitter()
/// }
///
/// extension LogInComponent {
///     var observers: Void {
///         openResetPassword += { router.push(\Self.resetPassword) }
///         resetPassword.goBack += { router.pop() }
///     }
/// }
/// ```
///
/// It is bound when the component becomes active, to the router that shows
/// it; a route it pushes is a key path from this component, appended to the
/// route that shows it. Only `push` and `pop`: replacing the stack is the
/// router component's business.
@propertyWrapper
public struct EnclosingRouter: Sendable {
    let box = EnclosingRouterBox()

    /// An enclosing router, bound when the component becomes active.
    public init() {}

    /// Push and pop on the enclosing router.
    public var wrappedValue: EnclosingRoute { EnclosingRoute(box: box) }
}

/// Where an ``EnclosingRouter`` points: the router and the route that shows its component.
final class EnclosingRouterBox: Sendable {
    private let state = Locked<(router: (any AnyRouter)?, prefix: RouteKey?, owner: String)>((nil, nil, "a component"))

    var binding: (router: (any AnyRouter)?, prefix: RouteKey?, owner: String) { state.withLock { $0 } }

    func bind(router: (any AnyRouter)?, prefix: RouteKey?, owner: String) {
        state.withLock { $0 = (router, prefix, owner) }
    }
}
