import Synchronization

/// Counts work in flight so that someone can wait until there is none.
///
/// A cluster gives one gauge to everything it mounts: its own sends count, and
/// so does every value a gate hands to a counted consumer, from the moment it
/// is delivered until the consumer says it is done with it. Because work is
/// always counted before the work that caused it is released, the count
/// reaches zero only when nothing is left to run.
package final class ActivityGauge: Sendable {
    struct State {
        var count = 0
        var waiters: [UInt64: UnsafeContinuation<Bool, Never>] = [:]
        var nextWaiter: UInt64 = 0
    }

    private let state = Mutex(State())

    package init() {}

    /// Work in flight now.
    package var count: Int { state.withLock { $0.count } }

    package func enter(_ n: Int = 1) {
        guard n > 0 else { return }
        state.withLock { $0.count += n }
    }

    package func leave(_ n: Int = 1) {
        guard n > 0 else { return }
        let woken = state.withLock { s -> [UnsafeContinuation<Bool, Never>] in
            // A leave without its enter is a bug in the caller; never go below zero.
            s.count = max(0, s.count - n)
            guard s.count == 0, !s.waiters.isEmpty else { return [] }
            defer { s.waiters.removeAll() }
            return Array(s.waiters.values)
        }
        for waiter in woken { waiter.resume(returning: true) }
    }

    /// Waits until no work is in flight; `false` when the task was cancelled first.
    package func untilIdle() async -> Bool {
        let id = state.withLock { s -> UInt64? in
            guard s.count > 0 else { return nil }
            s.nextWaiter += 1
            return s.nextWaiter
        }
        guard let id else { return true }
        return await withTaskCancellationHandler {
            await withUnsafeContinuation { continuation in
                state.withLock { s in
                    if s.count == 0 { return continuation.resume(returning: true) }
                    if Task.isCancelled { return continuation.resume(returning: false) }
                    s.waiters[id] = continuation
                }
            }
        } onCancel: {
            state.withLock { s in s.waiters.removeValue(forKey: id) }?.resume(returning: false)
        }
    }
}

/// One unit of work counted in a gauge until ``release()`` is called or the
/// hold is dropped, whichever comes first: work that is prepared but never
/// run (its pipeline stopped first) cannot keep the gauge above zero.
package final class ActivityHold: Sendable {
    private let gauge: Mutex<ActivityGauge?>

    package init(_ gauge: ActivityGauge) {
        gauge.enter()
        self.gauge = Mutex(gauge)
    }

    package func release() {
        gauge.withLock { held in
            defer { held = nil }
            return held
        }?.leave()
    }

    deinit { release() }
}
