/// What tools that drive a tree without its UI (the karc shell, through
/// a cluster) read and send: its state, its changes, its emitters by path.
extension ComponentTree {
    /// Where each active router is and what each active component's stores hold, now.
    public var state: ComponentTreeState {
        var state = ComponentTreeState()
        var pending = [node]
        while let next = pending.popLast() {
            guard next.isActive else { continue }
            if let router = next.router { state.paths[next.childPath("router")] = router.stack.map(\.name) }
            for (label, store) in next.stores { state.stores[next.childPath(label)] = store.anyState }
            pending += next.activeChildren
        }
        return state
    }

    /// Fires after each change of ``state``: a navigation, a component
    /// becoming active or inactive, a store's change (once a run of them is over).
    public var changed: SignalEmitter { node.transitions.changed }

    /// Emits each navigation an active router of the tree refused, and why.
    public var refused: ValueEmitter<RouteError> { node.transitions.refused }

    /// Emits each change of an active store's state that held two different
    /// values for one identifier in its `@Ref`s and `@RefCollection`s (see ``Ref``).
    public var referenceConflicts: ValueEmitter<ReferenceConflict> { node.transitions.references.conflicts }

    /// The active component at `path` (`""`: the root), or nil when none is active there.
    package func activeComponent(at path: String) -> (any Component)? {
        var pending = [node]
        while let next = pending.popLast() {
            guard next.isActive else { continue }
            if next.path == path { return next.component }
            if path.hasPrefix(next.path) { pending += next.activeChildren }
        }
        return nil
    }

    /// The emitter held by the property `name` of `component`, if it holds one there.
    package static func emitter(named name: String, in component: any Component) -> (any PathEmitter)? {
        Mirror(reflecting: component).children.first { $0.label == name }?.value as? any PathEmitter
    }

    /// Every emitter a property of `root` or of a component under it holds,
    /// by path (`openSignUp`, `logIn.email`), reached through child
    /// components' properties (not dynamic or instance components: they do
    /// not exist until made). The root's first, then each child's, in declaration order.
    package static func emitters(of root: any Component) -> [(path: String, emitter: any PathEmitter)] {
        var found: [(path: String, emitter: any PathEmitter)] = []
        func walk(_ component: any Component, _ prefix: String) {
            let children = Mirror(reflecting: component).children
            for child in children {
                guard let label = child.label, let emitter = child.value as? any PathEmitter else { continue }
                found.append((prefix + label, emitter))
            }
            for (label, nested) in ComponentParts(of: component).components { walk(nested, prefix + label + ".") }
        }
        walk(root, "")
        return found
    }
}

/// A ``ValueEmitter``, whatever its value type, as a tool sends to it by path.
package protocol PathEmitter: Sendable {
    /// The type of the values it emits (`Void` for a ``SignalEmitter``).
    var valueType: any Sendable.Type { get }
    /// Sends `value` when it is a `valueType`; false when it is not.
    func send(any value: Any) -> Bool
}

extension ValueEmitter: PathEmitter {
    package var valueType: any Sendable.Type { Value.self }

    package func send(any value: Any) -> Bool {
        guard let value = value as? Value else { return false }
        send(value)
        return true
    }
}
