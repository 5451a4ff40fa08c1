import KarcSynchronization

extension Emitters {
    /// For every upstream value, observes the emitter `transform` returns, and
    /// emits what all of those emit (like Combine's `flatMap`: every inner
    /// emitter stays observed until the observation stops).
    public struct FlatMap<Upstream: Emitter, Inner: Emitter>: Emitter {
        let upstream: Upstream
        let transform: @Sendable (Upstream.Value) -> Inner

        public func subscribe(_ handler: @escaping @Sendable (Inner.Value) -> Void) -> Subscription {
            let relay = SerialRelay(handler)
            let inners = Locked(Inners())
            let outer = upstream.subscribe { value in
                let inner = transform(value).subscribe { relay.push($0) }
                let isKept = inners.withLock { inners in
                    guard !inners.isCancelled else { return false }
                    inners.subscriptions.append(inner)
                    return true
                }
                if !isKept { inner.cancel() }
            }
            return Subscription {
                outer.cancel()
                let subscriptions = inners.withLock { inners in
                    inners.isCancelled = true
                    defer { inners.subscriptions = [] }
                    return inners.subscriptions
                }
                for subscription in subscriptions { subscription.cancel() }
            }
        }

        private struct Inners: Sendable {
            var subscriptions: [Subscription] = []
            var isCancelled = false
        }
    }
}

extension Emitter {
    /// Observes the emitter that `transform` makes from each value (see ``Emitters/FlatMap``).
    public func flatMap<Inner: Emitter>(
        _ transform: @escaping @Sendable (Value) -> Inner
    ) -> Emitters.FlatMap<Self, Inner> {
        Emitters.FlatMap(upstream: self, transform: transform)
    }
}
