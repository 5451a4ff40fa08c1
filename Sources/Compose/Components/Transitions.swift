import KarcSynchronization

/// Runs transitions one at a time: one asked for while another runs is
/// queued and run next by the same caller, outside any lock. Whatever ran,
/// ``changed`` fires once the queue is empty again: the tree is in a state
/// worth looking at.
final class Transitions: Sendable {
    private struct Queue {
        var pending: [@Sendable () -> Void] = []
        var running = false
    }

    private let queue = Locked(Queue())

    /// Fires after a run of transitions (and of ``noteChange()``s) is over.
    let changed = SignalEmitter()

    /// Emits every navigation an active router of the tree refused.
    let refused = ValueEmitter<RouteError>()

    /// The tree's identified values (`@Ref`), kept the same in its active
    /// stores: one per tree, as these transitions are.
    let references = ReferenceRegistry()

    /// Something outside a transition changed (a store): ``changed`` fires
    /// now, or after the transitions running now.
    func noteChange() {
        perform {}
    }

    func perform(_ transition: @escaping @Sendable () -> Void) {
        let runNow = queue.withLock { q -> Bool in
            q.pending.append(transition)
            defer { q.running = true }
            return !q.running
        }
        guard runNow else { return }
        while let next = queue.withLock({ q -> (@Sendable () -> Void)? in
            guard !q.pending.isEmpty else {
                q.running = false
                return nil
            }
            return q.pending.removeFirst()
        }) {
            next()
        }
        changed.send()
    }
}
