import KarcSynchronization

/// The navigation of a ``RouterComponent``: a stack of key paths to its
/// child components, the top one shown.
///
/// `replace(_:)` makes the stack one route, `push(_:animated:)` and
/// `pop(animated:)` add and remove the top one, `popToRoot(animated:)`
/// returns to the start route. ``path`` and ``paths`` say where it is;
/// ``navigated`` fires after each change.
public final class Router<Owner: Component>: Sendable {
    private struct State {
        var stack: [RouteKey]
        var node: ComponentNode?
        var lastAnimated = false
    }

    private let start: RouteKey
    private let state: Locked<State>

    /// Fires after each navigation: read ``path`` and ``paths`` there.
    public let navigated = SignalEmitter()

    /// Emits why a navigation was refused (a dynamic component routed to before it was created, say).
    public let refused = ValueEmitter<RouteError>()

    /// A router that starts at `start` (`\Self.self`: the router component shows itself).
    public init<Start: Routable>(start: KeyPath<Owner, Start> & Sendable) {
        self.start = RouteKey(path: start)
        state = Locked(State(stack: [self.start]))
    }

    /// The route shown: the top of the stack.
    public var path: PartialKeyPath<Owner> { paths[paths.count - 1] }  // the stack is never empty

    /// Every route on the stack, the root first.
    public var paths: [PartialKeyPath<Owner>] {
        // Every key path on the stack was made from a `KeyPath<Owner, _>`, or appended to one by an enclosed component.
        state.withLock { $0.stack }.compactMap { $0.path as? PartialKeyPath<Owner> }
    }

    /// Whether the last navigation asked to be animated (for a UI layer; `replace` never is).
    public var lastNavigationAnimated: Bool { state.withLock { $0.lastAnimated } }

    /// Makes `route` the whole stack.
    @discardableResult
    public func replace<Route: Routable>(_ route: KeyPath<Owner, Route> & Sendable) -> Bool {
        let key = RouteKey(path: route)
        return navigate(animated: false) { _ in [key] }
    }

    /// Shows `route` on top of the stack.
    @discardableResult
    public func push<Route: Routable>(_ route: KeyPath<Owner, Route> & Sendable, animated: Bool = true) -> Bool {
        push(key: RouteKey(path: route), animated: animated)
    }

    /// Removes the top route (not the last one).
    @discardableResult
    public func pop(animated: Bool = true) -> Bool {
        navigate(animated: animated) { $0.count > 1 ? Array($0.dropLast()) : nil }
    }

    /// Returns to the start route.
    @discardableResult
    public func popToRoot(animated: Bool = false) -> Bool {
        navigate(animated: animated) { [start] _ in [start] }
    }

    func push(key: RouteKey, animated: Bool) -> Bool {
        navigate(animated: animated) { $0 + [key] }
    }

    /// Changes the stack (nil: no change), after checking the new top routes to a component; then shows it.
    private func navigate(animated: Bool, _ change: @escaping @Sendable ([RouteKey]) -> [RouteKey]?) -> Bool {
        let (node, proposed) = state.withLock { ($0.node, change($0.stack)) }
        guard let proposed else { return false }
        if let node, let top = proposed.last, let error = node.routeProblem(top) {
            refused.send(error)
            return false
        }
        state.withLock {
            $0.stack = proposed
            $0.lastAnimated = animated
        }
        navigated.send()
        if let node { node.transitions.perform { node.syncRoutes() } }
        return true
    }

    var stack: [RouteKey] { state.withLock { $0.stack } }

    /// Ties the router to the node of its component while that is active (nil: untied).
    func bind(_ node: ComponentNode?) {
        state.withLock { $0.node = node }
    }
}

/// A router, whatever its component type, as the tree uses it.
protocol AnyRouter: AnyObject, Sendable {
    var stack: [RouteKey] { get }
    func bind(_ node: ComponentNode?)
    func push(key: RouteKey, animated: Bool) -> Bool
    @discardableResult func pop(animated: Bool) -> Bool
    var refused: ValueEmitter<RouteError> { get }
}

extension Router: AnyRouter {}
