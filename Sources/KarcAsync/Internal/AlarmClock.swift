import KarcSynchronization
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
package final class AlarmClock<C: Clock>: Sendable where C.Duration == Duration {
    package typealias Instant = C.Instant
    /// The clock the deadlines are on.
    package let clock: C
    /// Deadlines are kept as offsets from here, so the table of alarms is one
    /// concrete type: its code is compiled once in this module, not
    /// instantiated for the clock's type at each arm and disarm (a send's
    /// timeout arms one).
    private let origin: C.Instant
    private let state = KarcMutex(AlarmTable())

    package init(clock: C) {
        self.clock = clock
        origin = clock.now
    }

    /// How long since this was made, on its clock: the offset ``arm(atOffset:fire:)`` takes.
    package var elapsed: Duration { origin.duration(to: clock.now) }

    /// Calls `fire` at `deadline` unless ``disarm(_:)`` comes first; the alarm's id.
    package func arm(at deadline: Instant, fire: @escaping @Sendable () -> Void) -> UInt64 {
        arm(atOffset: origin.duration(to: deadline), fire: fire)
    }

    /// Calls `fire` once ``elapsed`` reaches `offset` unless ``disarm(_:)`` comes first; the alarm's id.
    package func arm(atOffset offset: Duration, fire: @escaping @Sendable () -> Void) -> UInt64 {
        state.withLock { table in
            let (id, wakeSooner) = table.arm(at: offset, fire: fire)
            if wakeSooner {
                table.sleeper?.task.cancel()
                startSleeper(until: offset, in: &table)
            }
            return id
        }
    }

    /// Forgets the alarm; a no-op when it already fired.
    package func disarm(_ id: UInt64) {
        state.withLock { $0.disarm(id) }
    }

    private func startSleeper(until wake: Duration, in table: inout AlarmTable) {
        table.nextGeneration += 1
        let generation = table.nextGeneration
        table.sleeper = (wake, generation, Task { await self.sleep(until: wake, generation: generation) })
    }

    private func sleep(until wake: Duration, generation: UInt64) async {
        // Cancelled: an earlier alarm replaced this sleeper, which must not fire anything.
        guard (try? await clock.sleep(until: origin.advanced(by: wake), tolerance: nil)) != nil else { return }
        let now = elapsed
        let due = state.withLock { table -> [@Sendable () -> Void] in
            guard table.sleeper?.generation == generation else { return [] }
            let (due, earliest) = table.takeDue(at: now)
            if let earliest { startSleeper(until: earliest, in: &table) } else { table.sleeper = nil }
            return due
        }
        for fire in due { fire() }
    }
}

/// An ``AlarmClock``'s alarms, by id, with their deadlines as offsets from
/// the clock's origin, and the task sleeping until the earliest.
private struct AlarmTable {
    struct Alarm {
        let deadline: Duration
        let fire: @Sendable () -> Void
    }

    var alarms: [UInt64: Alarm] = [:]
    var nextAlarm: UInt64 = 0
    /// The task sleeping until `wake`; a newer generation replaces it.
    var sleeper: (wake: Duration, generation: UInt64, task: Task<Void, Never>)?
    var nextGeneration: UInt64 = 0

    /// Adds an alarm; its id, and whether the sleeper must wake sooner for it.
    mutating func arm(at deadline: Duration, fire: @escaping @Sendable () -> Void) -> (id: UInt64, wakeSooner: Bool) {
        nextAlarm += 1
        alarms[nextAlarm] = Alarm(deadline: deadline, fire: fire)
        return (nextAlarm, sleeper.map { deadline < $0.wake } ?? true)
    }

    mutating func disarm(_ id: UInt64) {
        alarms.removeValue(forKey: id)
    }

    /// Removes the alarms due at `now`: what they fire, in deadline order
    /// then arming order (a late wake-up finds several due), and the
    /// earliest deadline left.
    mutating func takeDue(at now: Duration) -> (due: [@Sendable () -> Void], earliest: Duration?) {
        var due: [(id: UInt64, alarm: Alarm)] = []
        var earliest: Duration?
        for (id, alarm) in alarms {
            if alarm.deadline <= now {
                due.append((id, alarm))
            } else if earliest.map({ alarm.deadline < $0 }) ?? true {
                earliest = alarm.deadline
            }
        }
        for entry in due { alarms[entry.id] = nil }
        return (due.sorted { ($0.alarm.deadline, $0.id) < ($1.alarm.deadline, $1.id) }.map(\.alarm.fire), earliest)
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

extension AlarmClock: Alarms {
    package func arm(after delay: Duration, fire: @escaping @Sendable () -> Void) -> UInt64 {
        arm(atOffset: elapsed + delay, fire: fire)
    }
}
