import KarcSynchronization

extension Emitter where Value: Equatable {
    /// Emits a value only when it differs from the previous one this observation emitted.
    public func undup() -> Emitters.Chained<Self, Value> {
        Emitters.Chained(self) { downstream in
            let last = Locked<Value?>(nil)
            return { value in
                let isNew = last.withLock { last in
                    guard last != value else { return false }
                    last = value
                    return true
                }
                if isNew { downstream(value) }
            }
        }
    }
}
