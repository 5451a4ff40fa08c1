extension Gate {
    /// Returns once `condition` holds of the gate's state (at once when it
    /// does now): checked after each change made through `locked(_:)` or
    /// `changing(_:)`. A test hook (``StateWatchers``).
    func until(_ condition: @escaping @Sendable (GateState<Input, Output>) -> Bool) async {
        await StateWatchers.until(condition, in: state, at: \.watchers)
    }

    /// Runs `body` under the lock, and then resumes the watchers its change satisfied.
    func changing<T>(_ body: (inout GateState<Input, Output>) throws -> T) rethrows -> T {
        var met: [UnsafeContinuation<Void, Never>] = []
        let result = try state.withLock { s in
            let result = try body(&s)
            if !s.watchers.isEmpty { met = StateWatchers.satisfied(in: &s, \.watchers) }
            return result
        }
        for continuation in met { continuation.resume() }
        return result
    }
}
