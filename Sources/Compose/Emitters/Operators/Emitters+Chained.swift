extension Emitters {
    /// An emitter made from `upstream` by a relay: for each observation, the
    /// relay turns the downstream handler into the handler that observes
    /// `upstream`. Stateful operators (`dropFirst`, `undup`) create their
    /// state inside the relay, so each observation counts on its own.
    ///
    /// Most operators return this type; code that stores an operator's result
    /// should use `some Emitter<Value>`.
    public struct Chained<Upstream: Emitter, Value: Sendable>: Emitter {
        /// Receives each upstream value and the downstream handler: what it calls the handler with is emitted.
        public typealias Relay =
            @Sendable (
                _ downstream: @escaping @Sendable (Value) -> Void
            ) -> @Sendable (Upstream.Value) -> Void

        let upstream: Upstream
        let relay: Relay

        /// An emitter that relays `upstream` through `relay`.
        public init(_ upstream: Upstream, relay: @escaping Relay) {
            self.upstream = upstream
            self.relay = relay
        }

        public func subscribe(_ handler: @escaping @Sendable (Value) -> Void) -> Subscription {
            upstream.subscribe(relay(handler))
        }
    }
}
