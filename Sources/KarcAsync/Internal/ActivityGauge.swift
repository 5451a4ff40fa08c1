import KarcSynchronization
import Synchronization

/// Counts work in flight so that someone can wait until there is none.
///
/// A cluster gives one gauge to everything it mounts: its own sends count, and
/// so does every value a gate hands to a counted consumer, from the moment it
/// is delivered until the consumer says it is done with it. Because work is
/// always counted before the work that caused it is released, the count
/// reaches zero only when nothing is left to run.
package final class ActivityGauge: Sendable {
    /// Someone in ``untilIdle(deadline:)``. The slot is taken before the
    /// continuation exists, so an outcome that comes first (idle, deadline,
    /// cancellation) is kept for it instead of lost.
    enum Waiter {
        case pending
        case waiting(UnsafeContinuation<Bool, Never>)
        case decided(Bool)
    }

    struct State {
        var count = 0
        var waiters: [UInt64: Waiter] = [:]
        /// The count each waiter waits for (at most): 0 for idle.
        var levels: [UInt64: Int] = [:]
        var nextWaiter: UInt64 = 0
    }

    private let state = KarcMutex(State())

    package init() {}

    /// Work in flight now.
    package var count: Int { state.withLock { $0.count } }

    /// Callers waiting in ``until(atMost:deadline:alarms:)`` now (for a test that must know a wait began).
    package var waiting: Int { state.withLock { $0.waiters.count } }

    package func enter(_ n: Int = 1) {
        guard n > 0 else { return }
        state.withLock { $0.count += n }
    }

    package func leave(_ n: Int = 1) {
        guard n > 0 else { return }
        let woken = state.withLock { s -> [UnsafeContinuation<Bool, Never>] in
            // A leave without its enter is a bug in the caller; never go below zero.
            s.count = max(0, s.count - n)
            guard !s.waiters.isEmpty else { return [] }
            var woken: [UnsafeContinuation<Bool, Never>] = []
            for (id, waiter) in s.waiters where s.count <= s.levels[id, default: 0] {
                switch waiter {
                case .waiting(let continuation):
                    woken.append(continuation)
                    s.waiters[id] = nil
                    s.levels[id] = nil
                case .pending: s.waiters[id] = .decided(true)
                case .decided: break
                }
            }
            return woken
        }
        for waiter in woken { waiter.resume(returning: true) }
    }

    /// Waits until no work is in flight; `false` when the task was cancelled
    /// or `deadline` passed first.
    package func untilIdle(deadline: ContinuousClock.Instant? = nil) async -> Bool {
        await until(atMost: 0, deadline: deadline, alarms: .shared)
    }

    /// ``untilIdle(deadline:)`` with the deadline on the clock of `alarms` (a test's).
    package func untilIdle<C: Clock>(deadline: C.Instant?, alarms: AlarmClock<C>) async -> Bool {
        await until(atMost: 0, deadline: deadline, alarms: alarms)
    }

    /// Waits until at most `level` units of work are in flight (work that was
    /// already running and is none of the caller's business); `false` when
    /// the task was cancelled or `deadline` passed first.
    package func until(atMost level: Int, deadline: ContinuousClock.Instant? = nil) async -> Bool {
        await until(atMost: level, deadline: deadline, alarms: .shared)
    }

    /// ``until(atMost:deadline:)`` with the deadline on the clock of `alarms`.
    package func until<C: Clock>(atMost level: Int, deadline: C.Instant?, alarms: AlarmClock<C>) async -> Bool {
        let id = state.withLock { s -> UInt64? in
            guard s.count > level else { return nil }
            s.nextWaiter += 1
            s.waiters[s.nextWaiter] = .pending
            s.levels[s.nextWaiter] = level
            return s.nextWaiter
        }
        guard let id else { return true }
        let alarm = deadline.map { alarms.arm(at: $0) { [self] in giveUp(id) } }
        defer { alarm.map(alarms.disarm) }
        return await withTaskCancellationHandler {
            await withUnsafeContinuation { continuation in
                let decided = state.withLock { s -> Bool? in
                    guard case .decided(let outcome) = s.waiters[id] else {
                        s.waiters[id] = .waiting(continuation)
                        return nil
                    }
                    s.waiters[id] = nil
                    s.levels[id] = nil
                    return outcome
                }
                if let decided { continuation.resume(returning: decided) }
            }
        } onCancel: {
            giveUp(id)
        }
    }

    private func giveUp(_ id: UInt64) {
        let continuation = state.withLock { s -> UnsafeContinuation<Bool, Never>? in
            switch s.waiters[id] {
            case .waiting(let continuation):
                s.waiters[id] = nil
                s.levels[id] = nil
                return continuation
            case .pending:
                s.waiters[id] = .decided(false)
                return nil
            case .decided, nil:
                return nil
            }
        }
        continuation?.resume(returning: false)
    }
}

/// One unit of work counted in a gauge until ``release()`` is called or the
/// hold is dropped, whichever comes first: work that is prepared but never
/// run (its pipeline stopped first) cannot keep the gauge above zero.
package final class ActivityHold: Sendable {
    private let gauge: KarcMutex<ActivityGauge?>

    package init(_ gauge: ActivityGauge) {
        gauge.enter()
        self.gauge = KarcMutex(gauge)
    }

    package func release() {
        gauge.withLock { held in
            defer { held = nil }
            return held
        }?.leave()
    }

    deinit { release() }
}
