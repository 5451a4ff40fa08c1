/// A building block of an app's structure, usually one screen: a struct of
/// emitters, stores and child components, whose ``observers`` say what
/// happens when its emitters fire.
///
/// ```swift
/// struct AuthComponent: Component {
///     let logIn = SignalEmitter()
/// }
///
/// extension AuthComponent {
///     var observers: Void {
///         didAppear += { print("Component appeared.") }
///         logIn += { print("Log In tapped.") }
///     }
/// }
/// ```
///
/// A component is active while it is in a bound tree (``ComponentTree``)
/// and, under a ``RouterComponent``, on its router's stack. Its `observers`
/// run when it becomes active, and every observation they make (`+=`, `!+=`,
/// `emitter { … }`) is cancelled when it becomes inactive; its child
/// components are active with it, except in a component that routes (a
/// ``RouterComponent``, or one with an ``EnclosingRouter``), whose child
/// components are routes, active while a router shows them. Subscribe within a component's scope: to
/// its own emitters and its children's, never a parent's.
///
/// Never read `observers` yourself: the tree does.
public protocol Component: Routable {
    /// Sets up the component's observations; runs each time it becomes active.
    var observers: Void { get }
}

/// What `observers` returns when a component has none: `var observers: Void { None }`.
public let None: Void = ()

extension Component {
    /// Fires when the component becomes active (its observers and children are set up).
    ///
    /// Read it in the component's own `observers`: elsewhere there is no
    /// active component to tell, and it is an emitter that never fires.
    public var didAppear: SignalEmitter { ComponentScope.current?.node.didAppear ?? SignalEmitter() }

    /// Fires when the component becomes inactive, before its observations are cancelled.
    ///
    /// Read it in the component's own `observers`, as ``didAppear``.
    public var didDisappear: SignalEmitter { ComponentScope.current?.node.didDisappear ?? SignalEmitter() }

    /// The app's shared services (``Services``): `services.user`.
    public var services: Services { Services() }
}
