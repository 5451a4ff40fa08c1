/// Runs transitions one at a time: one asked for while another runs is
/// queued and run next by the same caller, outside any lock.
final class Transitions: Sendable {
    private struct Queue {
        var pending: [@Sendable () -> Void] = []
        var running = false
    }

    private let queue = Locked(Queue())

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
    }
}
