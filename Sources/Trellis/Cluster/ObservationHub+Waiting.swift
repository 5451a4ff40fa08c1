extension ObservationHub {
    /// Returns once the subscriber `id` waits for its next batch (at once if
    /// it does now). A test hook: a test awaits the observer's wait instead
    /// of polling ``isWaiting(_:)``.
    func untilWaiting(_ id: UInt64) async {
        await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
            let now = state.withLock { s in
                if s.subscriber(id)?.waiter != nil { return true }
                s.waitWatchers.append((id, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }
}

extension ObservationHub.State {
    /// The tests waiting for `id` to wait, taken out to be resumed once the lock is let go.
    mutating func takeWaitWatchers(of id: UInt64) -> [UnsafeContinuation<Void, Never>] {
        let (met, rest) = (waitWatchers.filter { $0.id == id }, waitWatchers.filter { $0.id != id })
        waitWatchers = rest
        return met.map(\.continuation)
    }
}
