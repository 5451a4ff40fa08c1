import KarcSynchronization

/// The observations a component made in its `observers`, cancelled
/// together when it becomes inactive.
///
/// While a component's `observers` run, its scope is current (a task-local):
/// `+=`, `!+=` and calling an emitter with a handler register their
/// subscription with it. Outside any scope they live as long as the root
/// emitter, as before.
final class ComponentScope: Sendable {
    @TaskLocal static var current: ComponentScope?

    /// The node whose `observers` run in this scope.
    let node: ComponentNode
    private let subscriptions = Locked<[Subscription]?>([])

    init(node: ComponentNode) {
        self.node = node
    }

    /// Keeps `subscription` until ``cancel()``; cancels it at once when the scope already ended.
    func keep(_ subscription: Subscription) {
        let kept = subscriptions.withLock { list -> Bool in
            guard list != nil else { return false }
            list?.append(subscription)
            return true
        }
        if !kept { subscription.cancel() }
    }

    /// Cancels every subscription made in the scope; later ones are cancelled as they come.
    func cancel() {
        let all = subscriptions.withLock { list in
            defer { list = nil }
            return list ?? []
        }
        for subscription in all { subscription.cancel() }
    }

    /// Evaluates `observers` with this scope current.
    func run(_ body: () -> Void) {
        Self.$current.withValue(self, operation: body)
    }
}
