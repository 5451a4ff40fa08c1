import Synchronization

/// Runs callbacks at deadlines on a clock (the continuous clock unless a
/// test gives its own), with one sleeping task for all of them.
///
/// A timeout raced against every operation (a task group with a sleeping
/// child) costs a timer, a task and a cancellation each time, even though
/// the operation almost always wins. Here arming and disarming an alarm is a
/// dictionary insert and remove under a lock; the one sleeper wakes at the
/// earliest deadline still armed, so when every alarm is disarmed in time it
/// wakes about once per timeout period, not once per operation.
package final class AlarmClock<C: Clock>: Sendable {
    package typealias Instant = C.Instant
    /// The clock the deadlines are on.
    package let clock: C

    private struct Alarm {
        let deadline: Instant
        let fire: @Sendable () -> Void
    }

    private struct State {
        var alarms: [UInt64: Alarm] = [:]
        var nextAlarm: UInt64 = 0
        /// The task sleeping until `wake`; a newer generation replaces it.
        var sleeper: (wake: Instant, generation: UInt64, task: Task<Void, Never>)?
        var nextGeneration: UInt64 = 0
    }

    private let state = KarcMutex(State())

    package init(clock: C) {
        self.clock = clock
    }

    /// Calls `fire` at `deadline` unless ``disarm(_:)`` comes first; the alarm's id.
    package func arm(at deadline: Instant, fire: @escaping @Sendable () -> Void) -> UInt64 {
        state.withLock { s in
            s.nextAlarm += 1
            s.alarms[s.nextAlarm] = Alarm(deadline: deadline, fire: fire)
            if s.sleeper.map({ deadline < $0.wake }) ?? true {
                s.sleeper?.task.cancel()
                startSleeper(until: deadline, in: &s)
            }
            return s.nextAlarm
        }
    }

    /// Forgets the alarm; a no-op when it already fired.
    package func disarm(_ id: UInt64) {
        _ = state.withLock { $0.alarms.removeValue(forKey: id) }
    }

    private func startSleeper(until wake: Instant, in s: inout State) {
        s.nextGeneration += 1
        let generation = s.nextGeneration
        s.sleeper = (wake, generation, Task { await self.sleep(until: wake, generation: generation) })
    }

    private func sleep(until wake: Instant, generation: UInt64) async {
        // Cancelled: an earlier alarm replaced this sleeper, which must not fire anything.
        guard (try? await clock.sleep(until: wake, tolerance: nil)) != nil else { return }
        let now = clock.now
        let due = state.withLock { s -> [@Sendable () -> Void] in
            guard s.sleeper?.generation == generation else { return [] }
            var due: [(id: UInt64, alarm: Alarm)] = []
            var earliest: Instant?
            for (id, alarm) in s.alarms {
                if alarm.deadline <= now {
                    due.append((id, alarm))
                } else if earliest.map({ alarm.deadline < $0 }) ?? true {
                    earliest = alarm.deadline
                }
            }
            for entry in due { s.alarms[entry.id] = nil }
            if let earliest { startSleeper(until: earliest, in: &s) } else { s.sleeper = nil }
            // A late wake-up finds several due: they fire in deadline order, then arming order.
            return due.sorted { ($0.alarm.deadline, $0.id) < ($1.alarm.deadline, $1.id) }.map(\.alarm.fire)
        }
        for fire in due { fire() }
    }
}

extension AlarmClock where C == ContinuousClock {
    /// The alarms most callers share, on the continuous clock.
    package static var shared: AlarmClock<ContinuousClock> { continuousAlarms }

    package convenience init() {
        self.init(clock: ContinuousClock())
    }
}

private let continuousAlarms = AlarmClock<ContinuousClock>()

/// Alarms set a duration from now, on whichever clock keeps them: what a
/// component that only waits (an observation hub's wake delay) is given.
package protocol Alarms: Sendable {
    /// Calls `fire` after `delay` unless ``disarm(_:)`` comes first; the alarm's id.
    func arm(after delay: Duration, fire: @escaping @Sendable () -> Void) -> UInt64
    func disarm(_ id: UInt64)
}

extension AlarmClock: Alarms where C.Duration == Duration {
    package func arm(after delay: Duration, fire: @escaping @Sendable () -> Void) -> UInt64 {
        arm(at: clock.now.advanced(by: delay), fire: fire)
    }
}
