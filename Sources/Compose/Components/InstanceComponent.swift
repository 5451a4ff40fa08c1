import Foundation
import KarcSynchronization

/// Any number of components of one type, created later and each known by a
/// UUID; all destroyed when the component that holds them becomes inactive.
/// Each is active while the holder is.
public final class InstanceComponent<Wrapped: Component>: Sendable {
    private struct State {
        var instances: [(id: UUID, component: Wrapped, node: ComponentNode?)] = []
        var owner: ComponentNode?
        /// Where the holder is in the tree while it is active: `players` (an instance is `players[UUID]`).
        var path = ""
    }

    private let state = Locked(State())

    /// Fires with the id of each instance created.
    public let didCreate = ValueEmitter<UUID>()
    /// Fires with the id of each instance destroyed.
    public let didDestroy = ValueEmitter<UUID>()

    /// No instances yet.
    public init() {}

    /// Creates an instance of `component`; it is active at once when the holder is.
    ///
    /// - Returns: the new instance's id.
    @discardableResult
    public func create(_ component: Wrapped) -> UUID {
        let id = UUID()
        let owner = state.withLock { s in
            s.instances.append((id, component, nil))
            return s.owner
        }
        didCreate.send(id)
        if let owner { owner.transitions.perform { self.activate(id, under: owner) } }
        return id
    }

    /// The instance with `id`, while it exists.
    public func instance(for id: UUID) -> Wrapped? {
        state.withLock { $0.instances.first { $0.id == id }?.component }
    }

    /// The ids of the instances, oldest first.
    public var ids: [UUID] { state.withLock { $0.instances.map(\.id) } }

    /// Destroys the instance with `id` (it becomes inactive first).
    public func destroy(_ id: UUID) {
        let removed = state.withLock { s -> ComponentNode?? in
            guard let index = s.instances.firstIndex(where: { $0.id == id }) else { return nil }
            return .some(s.instances.remove(at: index).node)
        }
        guard let removed else { return }
        if let node = removed { node.transitions.perform { node.deactivate() } }
        didDestroy.send(id)
    }

    private func activate(_ id: UUID, under owner: ComponentNode) {
        let found = state.withLock { s -> (Wrapped, String)? in
            guard s.owner === owner, let index = s.instances.firstIndex(where: { $0.id == id }), s.instances[index].node == nil else { return nil }
            return (s.instances[index].component, "\(s.path)[\(id.uuidString)]")
        }
        guard let (component, path) = found else { return }
        let node = ComponentNode(component: component, parent: owner, routeKey: nil, path: path, transitions: owner.transitions)
        state.withLock { s in
            if let index = s.instances.firstIndex(where: { $0.id == id }) { s.instances[index].node = node }
        }
        node.activate()
    }
}

/// What the tree does with the instance components a component holds.
protocol InstanceHolder: Sendable {
    /// Activates every instance under `owner` (the holder became active), the holder being at `path` in the tree.
    func attach(to owner: ComponentNode, path: String)
    /// Destroys every instance (the holder became inactive).
    func detach()
    /// The nodes of the active instances.
    var nodes: [ComponentNode] { get }
}

extension InstanceComponent: InstanceHolder {
    func attach(to owner: ComponentNode, path: String) {
        let ids = state.withLock { s in
            s.owner = owner
            s.path = path
            return s.instances.map(\.id)
        }
        for id in ids { activate(id, under: owner) }
    }

    var nodes: [ComponentNode] { state.withLock { $0.instances.compactMap(\.node) } }

    func detach() {
        let ids = state.withLock { s in
            s.owner = nil
            return s.instances.map(\.id)
        }
        for id in ids { destroy(id) }
    }
}
