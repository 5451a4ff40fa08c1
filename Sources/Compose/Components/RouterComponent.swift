/// What a router can route to: a ``Component``, or a ``DynamicComponent``
/// once created.
public protocol Routable: Sendable {}

/// A component that shows one of its child components at a time, chosen by
/// its ``router``.
///
/// ```swift
/// struct AuthComponent: RouterComponent {
///     let logIn = LogInComponent()
///     let signUp = SignUpComponent()
///     let router = Router(start: \Self.logIn)
/// }
///
/// extension AuthComponent {
///     var observers: Void {
///         logIn.openSignUp { router.replace(\Self.signUp) }
///         signUp.openLogIn { router.replace(\Self.logIn) }
///     }
/// }
/// ```
///
/// Its child components are active only while they are on the router's
/// stack: every component on the stack is (a navigation stack keeps the
/// screens under the top alive, and their observers with them), the others
/// are not.
public protocol RouterComponent: Component {
    /// The router that chooses the child component shown.
    var router: Router<Self> { get }
}

extension RouterComponent {
    var anyRouter: any AnyRouter { router }
}
