import Foundation

/// Any number of components of one type, created later and each known by a
/// UUID; all destroyed when the component that holds them becomes inactive.
/// Each is active while the holder is.
public final class InstanceComponent<Wrapped: Component>: Sendable {
    private struct State {
        var instances: [(id: UUID, component: Wrapped, node: ComponentNode?)] = []
        var owner: ComponentNode?
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
        let component = state.withLock { s -> Wrapped? in
            guard s.owner === owner, let index = s.instances.firstIndex(where: { $0.id == id }), s.instances[index].node == nil else { return nil }
            return s.instances[index].component
        }
        guard let component else { return }
        let node = ComponentNode(component: component, parent: owner, routeKey: nil, transitions: owner.transitions)
        state.withLock { s in
            if let index = s.instances.firstIndex(where: { $0.id == id }) { s.instances[index].node = node }
        }
        node.activate()
    }
}

/// What the tree does with the instance components a component holds.
protocol InstanceHolder: Sendable {
    /// Activates every instance under `owner` (the holder became active).
    func attach(to owner: ComponentNode)
    /// Destroys every instance (the holder became inactive).
    func detach()
}

extension InstanceComponent: InstanceHolder {
    func attach(to owner: ComponentNode) {
        let ids = state.withLock { s in
            s.owner = owner
            return s.instances.map(\.id)
        }
        for id in ids { activate(id, under: owner) }
    }

    func detach() {
        let ids = state.withLock { s in
            s.owner = nil
            return s.instances.map(\.id)
        }
        for id in ids { destroy(id) }
    }
}
