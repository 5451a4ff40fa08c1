/// Waits for a gate's state to come to hold something: how a test waits on
/// what happened (a value queued, a consumer waiting) instead of polling.
/// Checked under the gate's lock after each change made through
/// `Gate.locked(_:)` or `Gate.changing(_:)`; a gate nobody watches pays one
/// `isEmpty` a change.
struct GateWatchers<Input: Sendable, Output: Sendable> {
    typealias Condition = @Sendable (GateState<Input, Output>) -> Bool

    private var waiting: [(holds: Condition, continuation: UnsafeContinuation<Void, Never>)] = []

    var isEmpty: Bool { waiting.isEmpty }

    mutating func add(_ holds: @escaping Condition, _ continuation: UnsafeContinuation<Void, Never>) {
        waiting.append((holds, continuation))
    }

    /// The waits `state` now satisfies, taken out, to resume once the lock is let go.
    mutating func satisfied(by state: GateState<Input, Output>) -> [UnsafeContinuation<Void, Never>] {
        var met: [UnsafeContinuation<Void, Never>] = []
        waiting.removeAll { wait in
            guard wait.holds(state) else { return false }
            met.append(wait.continuation)
            return true
        }
        return met
    }
}

extension Gate {
    /// Returns once `condition` holds of the gate's state (at once when it
    /// does now). A test hook: tests await what they expect instead of
    /// polling, and a wait that never ends is their time limit's to report.
    func until(_ condition: @escaping @Sendable (GateState<Input, Output>) -> Bool) async {
        await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
            let holds = state.withLock { s in
                if condition(s) { return true }
                s.watchers.add(condition, continuation)
                return false
            }
            if holds { continuation.resume() }
        }
    }

    /// Runs `body` under the lock, and then resumes the watchers its change satisfied.
    func changing<T>(_ body: (inout GateState<Input, Output>) throws -> T) rethrows -> T {
        var met: [UnsafeContinuation<Void, Never>] = []
        let result = try state.withLock { s in
            let result = try body(&s)
            if !s.watchers.isEmpty {
                var watchers = s.watchers
                s.watchers = GateWatchers()
                met = watchers.satisfied(by: s)
                s.watchers = watchers
            }
            return result
        }
        for continuation in met { continuation.resume() }
        return result
    }
}
