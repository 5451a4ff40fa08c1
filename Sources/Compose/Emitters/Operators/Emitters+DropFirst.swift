import KarcSynchronization

extension Emitter {
    /// Skips the first `count` values of each observation, then emits the
    /// rest (a count of zero or less skips nothing).
    public func dropFirst(count: Int = 1) -> Emitters.Chained<Self, Value> {
        Emitters.Chained(self) { downstream in
            let seen = Locked(0)
            return { value in
                let passes = seen.withLock { seen in
                    guard seen < count else { return true }
                    seen += 1
                    return false
                }
                if passes { downstream(value) }
            }
        }
    }
}
