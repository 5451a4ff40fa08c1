import KarcSynchronization

/// One active component of a ``ComponentTree``: its observations (a
/// ``ComponentScope``), its lifecycle emitters, and the nodes of its active
/// children. Made when the component becomes active, dropped when it
/// becomes inactive. Every method runs inside a transition (``Transitions``).
final class ComponentNode: Sendable {
    let component: any Component
    let parent: ComponentNode?
    /// The route from the nearest router component that shows this one, when a router does.
    let routeKey: RouteKey?
    /// Where it is in the tree, from the root (`""`): `logIn.resetPassword`.
    let path: String
    let transitions: Transitions
    let didAppear = SignalEmitter()
    let didDisappear = SignalEmitter()

    private struct Routed {
        let key: RouteKey
        let node: ComponentNode?
        let dynamic: (any DynamicHolder)?

        /// Off the stack: its component becomes inactive, and a dynamic one is destroyed.
        func end() {
            node?.deactivate()
            dynamic?.destroy()
        }
    }

    private struct State {
        var scope: ComponentScope?
        var children: [ComponentNode] = []
        var routed: [Routed] = []
        var instances: [(label: String, holder: any InstanceHolder)] = []
        var stores: [(label: String, store: any ComponentStore)] = []
    }

    private let state = Locked(State())

    init(component: any Component, parent: ComponentNode?, routeKey: RouteKey?, path: String, transitions: Transitions) {
        self.component = component
        self.parent = parent
        self.routeKey = routeKey
        self.path = path
        self.transitions = transitions
    }

    var router: (any AnyRouter)? { (component as? any RouterComponent)?.anyRouter }

    var isActive: Bool { state.withLock { $0.scope != nil } }

    /// The active nodes under this one (children, routes, instances), if it is active.
    var activeChildren: [ComponentNode] {
        let (nodes, holders) = state.withLock { s -> ([ComponentNode], [any InstanceHolder]) in
            guard s.scope != nil else { return ([], []) }
            return (s.children + s.routed.compactMap(\.node), s.instances.map(\.holder))
        }
        // Outside this node's lock: a holder has a lock of its own.
        return nodes + holders.flatMap(\.nodes)
    }

    /// Its `@Store`s, by property name, while it is active.
    var stores: [(label: String, store: any ComponentStore)] { state.withLock { $0.stores } }

    /// The path of a component under this one: `logIn` under the root, `logIn.resetPassword` under `logIn`.
    func childPath(_ label: String) -> String {
        path.isEmpty ? label : "\(path).\(label)"
    }

    /// Sets up the component's observations, then its children's, then says it appeared.
    func activate() {
        guard !isActive else { return }
        let parts = ComponentParts(of: component)
        router?.bind(self)
        for enclosing in parts.enclosingRouters { bindEnclosing(enclosing) }
        let scope = ComponentScope(node: self)
        state.withLock {
            $0.scope = scope
            $0.stores = parts.stores
        }
        // A store takes the tree's current `@Ref` values before anything observes it.
        for (_, store) in parts.stores {
            if let joined = store.joinReferences(transitions.references) { scope.keep(joined) }
        }
        // What the tree shows changes with its stores; a refusal is the tree's to report.
        for (_, store) in parts.stores { scope.keep(store.observeChanges { [transitions] in transitions.noteChange() }) }
        if let router { scope.keep(router.refused.subscribe { [transitions] in transitions.refused.send($0) }) }
        scope.run { _ = component.observers }
        // The child components of a component that routes (a router component, or one with an
        // @EnclosingRouter) are routes: active only while on a stack. Others are active with it.
        let routes = router != nil || !parts.enclosingRouters.isEmpty
        let children =
            routes
            ? []
            : parts.components.map {
                ComponentNode(component: $0.component, parent: self, routeKey: nil, path: childPath($0.label), transitions: transitions)
            }
        state.withLock {
            $0.children = children
            $0.instances = parts.instances
        }
        for child in children { child.activate() }
        for (label, holder) in parts.instances { holder.attach(to: self, path: childPath(label)) }
        syncRoutes()
        didAppear.send()
    }

    /// Children first (routes from the top down), then this component: it says it disappears, then its observations end.
    func deactivate() {
        let (scope, children, routed, instances) = state.withLock { s in
            defer { s = State() }
            return (s.scope, s.children, s.routed, s.instances)
        }
        guard let scope else { return }
        for route in routed.reversed() { route.end() }
        for (_, holder) in instances { holder.detach() }
        for child in children.reversed() { child.deactivate() }
        router?.bind(nil)
        didDisappear.send()
        scope.cancel()
    }

    /// Makes the routed nodes match the router's stack: what is no longer on
    /// it becomes inactive (from the top), what is new becomes active (from the bottom).
    func syncRoutes() {
        guard let router, isActive else { return }
        let stack = router.stack
        let removed = state.withLock { s -> [Routed] in
            var common = 0
            while common < min(stack.count, s.routed.count), s.routed[common].key == stack[common] { common += 1 }
            defer { s.routed.removeLast(s.routed.count - common) }
            return Array(s.routed[common...])
        }
        for route in removed.reversed() { route.end() }
        let kept = state.withLock { $0.routed.count }
        for key in stack[kept...] {
            let target = value(at: key)
            let dynamic = target as? any DynamicHolder
            let shown = dynamic?.createdComponent ?? (target as? any Component)
            // A route to the router component itself (`\Self.self`) shows it: no child to make.
            let node = shown.flatMap {
                isSelf(key) ? nil : ComponentNode(component: $0, parent: self, routeKey: key, path: childPath(key.name), transitions: transitions)
            }
            state.withLock { $0.routed.append(Routed(key: key, node: node, dynamic: dynamic)) }
            node?.activate()
        }
    }

    /// Why the router cannot show `key`, if it cannot.
    func routeProblem(_ key: RouteKey) -> RouteError? {
        let target = value(at: key)
        if let dynamic = target as? any DynamicHolder {
            return dynamic.createdComponent == nil ? .notCreated(route: "\(key.path)") : nil
        }
        return target is any Component ? nil : .notAComponent(route: "\(key.path)")
    }

    /// What `key` leads to from this node's component.
    private func value(at key: RouteKey) -> Any? {
        func open<C: Component>(_ component: C) -> Any? { component[keyPath: key.path] }
        return open(component)
    }

    private func isSelf(_ key: RouteKey) -> Bool {
        func open<C: Component>(_: C) -> Bool { key.path == \C.self }
        return open(component)
    }

    /// Points an `@EnclosingRouter` of this component at the router of the
    /// nearest router component above it, with the route that shows this one.
    private func bindEnclosing(_ box: EnclosingRouterBox) {
        var node = parent
        var child: ComponentNode = self
        while let current = node, current.router == nil {
            child = current
            node = current.parent
        }
        let owner = "\(type(of: component))"
        guard let routerNode = node, let router = routerNode.router else {
            box.bind(router: nil, prefix: nil, owner: owner)
            return
        }
        // Only a component the router shows (or that one itself) has a route to append to.
        box.bind(router: router, prefix: child === self ? routeKey : nil, owner: owner)
    }
}
