import KarcAsync
import KarcSynchronization

/// What a test waits on instead of polling: the thing it watches calls
/// ``changed()`` at each change (a value recorded, a message received,
/// output read), and ``until(_:)`` returns as soon as its condition holds.
/// It never times out: a hang is the test's time limit, which names it.
public final class Changes: Sendable {
    private struct Waiters {
        var next = 0
        var waiting: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    private let waiters = KarcMutex(Waiters())

    public init() {}

    /// Something changed: every waiter checks its condition again.
    public func changed() {
        let woken = waiters.withLock { state in
            defer { state.waiting = [:] }
            return state.waiting.values
        }
        for waiter in woken { waiter.resume() }
    }

    /// Waits until `condition` holds (checked now and after each change); false only when the task is cancelled.
    public func until(_ condition: () -> Bool) async -> Bool {
        while !Task.isCancelled {
            if condition() { return true }
            await next(unless: condition)
        }
        return condition()
    }

    /// Returns at the next change, or at once when `satisfied` holds already or the task is cancelled.
    private func next(unless satisfied: () -> Bool) async {
        let id = waiters.withLock { state in
            state.next += 1
            return state.next
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // Checked under the lock ``changed()`` takes: no change slips between the check and the wait.
                let now = waiters.withLock { state -> Bool in
                    if satisfied() || Task.isCancelled { return true }
                    state.waiting[id] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            waiters.withLock { $0.waiting.removeValue(forKey: id) }?.resume()
        }
    }
}
