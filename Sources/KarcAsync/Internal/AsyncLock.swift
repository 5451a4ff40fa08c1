import DequeModule
import KarcSynchronization
import Synchronization

/// A first-come, first-served lock for asynchronous critical sections.
///
/// Waiting is not cancellable: a section that must run (acquiring or
/// releasing a resource) runs even when its caller was cancelled.
public final class AsyncLock: Sendable {
    private struct State {
        var isLocked = false
        var waiters: Deque<UnsafeContinuation<Void, Never>> = []
    }

    private let state = KarcMutex(State())

    /// An unlocked lock.
    public init() {}

    /// Runs `body` while holding the lock.
    public func withLock<T: Sendable>(_ body: @Sendable () async throws -> T) async rethrows -> T {
        await lock()
        defer { unlock() }
        return try await body()
    }

    private func lock() async {
        let acquired = state.withLock { s -> Bool in
            if s.isLocked { return false }
            s.isLocked = true
            return true
        }
        if acquired { return }
        await withUnsafeContinuation { continuation in
            state.withLock { s in
                if s.isLocked {
                    s.waiters.append(continuation)
                } else {
                    s.isLocked = true
                    continuation.resume()
                }
            }
        }
    }

    private func unlock() {
        state.withLock { s in
            // Ownership passes straight to the next waiter, so nobody can barge in.
            if let next = s.waiters.popFirst() {
                next.resume()
            } else {
                s.isLocked = false
            }
        }
    }
}
