extension Emitters {
    /// Emits the emitter's current value when an observation starts, then every value sent after it.
    public struct WithCurrent<Value: Sendable>: Emitter {
        let emitter: ValueEmitter<Value>

        public func subscribe(_ handler: @escaping @Sendable (Value) -> Void) -> Subscription {
            emitter.register(withCurrent: true) { value, _ in handler(value) }
        }
    }
}

extension ValueEmitter {
    /// Starts each observation with the value current **when the observation
    /// starts** (not when `withCurrent()` is called; the seed read it then).
    public func withCurrent() -> Emitters.WithCurrent<Value> {
        Emitters.WithCurrent(emitter: self)
    }
}
