import KarcSynchronization

extension Emitters {
    /// Emits the first value of each observation, then stops observing its upstream.
    public struct Once<Upstream: Emitter>: Emitter {
        let upstream: Upstream

        public func subscribe(_ handler: @escaping @Sendable (Upstream.Value) -> Void) -> Subscription {
            let state = Locked(State())
            let subscription = upstream.subscribe { value in
                let isFirst = state.withLock { state in
                    defer { state.hasFired = true }
                    return !state.hasFired
                }
                guard isFirst else { return }
                state.withLock { $0.upstream }?.cancel()
                handler(value)
            }
            // A value may arrive before `subscribe` returns (`withCurrent`);
            // then the handler could not cancel, so cancel here.
            let hasFired = state.withLock { state in
                state.upstream = subscription
                return state.hasFired
            }
            if hasFired { subscription.cancel() }
            return subscription
        }

        private struct State: Sendable {
            var hasFired = false
            var upstream: Subscription?
        }
    }
}

extension Emitter {
    /// Emits only the first value of each observation (`emitter.once() += …` is `emitter !+= …`).
    public func once() -> Emitters.Once<Self> {
        Emitters.Once(upstream: self)
    }
}
