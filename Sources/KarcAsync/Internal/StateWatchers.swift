import KarcSynchronization

/// Waits for a locked state to come to hold something: how a test waits on
/// what happened (a value queued, a receiver attached, an observer waiting)
/// instead of polling. The waits live in the state they watch; the code
/// that changes it asks ``satisfied(in:_:)`` under the same lock, where a
/// state nobody watches costs one `isEmpty`, and resumes what it returns
/// once the lock is let go.
///
/// Not generic over the state: a state holding watchers generic over itself
/// would have its layout worked out at run time, and a gate's every change
/// measured a quarter slower so. A condition reads the state as `Any`, boxed
/// only while someone watches.
package struct StateWatchers: Sendable {
    private var waiting: [(holds: @Sendable (Any) -> Bool, continuation: UnsafeContinuation<Void, Never>)] = []

    package init() {}

    package var isEmpty: Bool { waiting.isEmpty }

    /// The waits `state`, changed under its lock, now satisfies, taken out
    /// of it (at `path`) to be resumed once the lock is let go.
    package static func satisfied<State>(in state: inout State, _ path: WritableKeyPath<State, StateWatchers>) -> [UnsafeContinuation<Void, Never>] {
        guard !state[keyPath: path].isEmpty else { return [] }
        var watchers = state[keyPath: path]
        // Out of the state while its conditions read it.
        state[keyPath: path] = StateWatchers()
        var met: [UnsafeContinuation<Void, Never>] = []
        watchers.waiting.removeAll { wait in
            guard wait.holds(state) else { return false }
            met.append(wait.continuation)
            return true
        }
        state[keyPath: path] = watchers
        return met
    }

    /// Returns once `condition` holds of the state `mutex` guards (at once
    /// when it does now), its wait kept at `path` meanwhile. A wait that
    /// never ends is the test's time limit's to report.
    package static func until<State>(
        _ condition: @escaping @Sendable (State) -> Bool, in mutex: borrowing KarcMutex<State>,
        at path: WritableKeyPath<State, StateWatchers> & Sendable
    ) async {
        await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
            let holds = mutex.withLock { state in
                if condition(state) { return true }
                state[keyPath: path].waiting.append(({ ($0 as? State).map(condition) ?? false }, continuation))
                return false
            }
            if holds { continuation.resume() }
        }
    }
}
