import Compose
import KarcAsync
import KarcSynchronization
import Trellis

/// A bound component tree in a cluster: it sends to emitters by path and
/// reports each change of the tree's state to the cluster's observers, once
/// a command's changes are over (or as they come, when no command runs).
final class MountedTree<Root: Component>: Sendable {
    private struct State {
        var tree: ComponentTree<Root>
        var target = ""
        /// The state last reported: each report is a change from it.
        var reported: ComponentTreeState
        /// Commands running: while one runs, its changes are reported when it ends.
        var commands = 0
        var subscriptions: [Subscription] = []
        /// Every emitter's path under the root, found once a tree: the walk
        /// reflects over every component, and the paths are the root's
        /// properties' (dynamic components are not walked).
        var emitterPaths: [String]?
    }

    private let makeRoot: @Sendable () -> Root
    private let hub: ObservationHub
    private let guarded: KarcMutex<State>

    init(makeRoot: @escaping @Sendable () -> Root, hub: ObservationHub) {
        self.makeRoot = makeRoot
        self.hub = hub
        let tree = ComponentTree(root: makeRoot())
        guarded = KarcMutex(State(tree: tree, reported: tree.state))
    }

    var root: Root { guarded.withLock { $0.tree.root } }

    var tree: ComponentTree<Root> { guarded.withLock { $0.tree } }

    /// The tree's state now.
    var current: ComponentTreeState { tree.state }

    /// Starts reporting as the target named `target`.
    func start(target: String) {
        guarded.withLock { $0.target = target }
        observe(tree)
    }

    private func observe(_ tree: ComponentTree<Root>) {
        let changed = tree.changed.subscribe { [weak self] in
            guard let self, guarded.withLock({ $0.commands == 0 }) else { return }
            report()
        }
        let refused = tree.refused.subscribe { [weak self] error in
            guard let self else { return }
            hub.publish(.emitted(source: guarded.withLock { $0.target }, event: error))
        }
        guarded.withLock { $0.subscriptions = [changed, refused] }
    }

    /// Sends `action`'s value through its emitter, then reports what changed.
    func emit(_ action: any EmitterAction) throws {
        let (owner, name) = Self.split(action.emitter)
        let tree = tree
        guard let component = tree.activeComponent(at: owner) else {
            let known = emitterPaths
            guard known.contains(action.emitter) else {
                throw ComponentCommandError.unknownEmitter(emitter: action.emitter, known: known)
            }
            throw ComponentCommandError.inactive(emitter: action.emitter, component: owner, shown: tree.state.paths)
        }
        guard let emitter = ComponentTree<Root>.emitter(named: name, in: component) else {
            throw ComponentCommandError.unknownEmitter(emitter: action.emitter, known: emitterPaths)
        }
        let value = action.sentValue
        guarded.withLock { $0.commands += 1 }
        let sent = emitter.send(any: value)
        guarded.withLock { $0.commands -= 1 }
        report()
        guard sent else {
            throw ComponentCommandError.wrongValue(emitter: action.emitter, expected: "\(emitter.valueType)", got: "\(type(of: value))")
        }
    }

    /// The paths of the tree's emitters (`openSignUp`, `logIn.email`), walked once a tree.
    private var emitterPaths: [String] {
        if let known = guarded.withLock({ $0.emitterPaths }) { return known }
        let root = guarded.withLock { $0.tree.root }
        let paths = ComponentTree<Root>.emitters(of: root).map(\.path)
        guarded.withLock { $0.emitterPaths = paths }
        return paths
    }

    /// `logIn.openResetPassword` → (`logIn`, `openResetPassword`); `openSignUp` → (``, `openSignUp`).
    private static func split(_ path: String) -> (owner: String, name: String) {
        guard let dot = path.lastIndex(of: ".") else { return ("", path) }
        return (String(path[..<dot]), String(path[path.index(after: dot)...]))
    }

    /// Reports the change from the last reported state, if there is one. The
    /// read and the report are one step, so reports follow each other in order.
    private func report() {
        guarded.withLock { s in
            let now = s.tree.state
            guard now != s.reported else { return }
            let old = s.reported
            s.reported = now
            if hub.hasSubscribers { hub.publish(.stateChanged(source: s.target, old: old, new: now)) }
        }
    }

    /// Unbinds the tree and binds a new one from a new root (`cluster.reset()`).
    func rebind() {
        let old = guarded.withLock { s in
            for subscription in s.subscriptions { subscription.cancel() }
            return s.tree
        }
        old.unbind()
        let tree = ComponentTree(root: makeRoot())
        guarded.withLock {
            $0.tree = tree
            $0.emitterPaths = nil
        }
        observe(tree)
        report()
    }

    /// Unbinds the tree (the cluster shut down).
    func unbind() {
        let tree = guarded.withLock { s in
            for subscription in s.subscriptions { subscription.cancel() }
            s.subscriptions = []
            return s.tree
        }
        tree.unbind()
    }
}
