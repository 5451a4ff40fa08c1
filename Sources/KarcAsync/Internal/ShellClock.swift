/// The time a shell keeps: what a command's timing, a send's timeout,
/// `:sleep`, `:wait`, output pacing and flushing read and wait on.
///
/// The continuous clock unless a test (or a host) gives its own: a test
/// moves a hand clock past a timeout instead of waiting one out. A moment is
/// a ``Duration`` since an origin (the alarm clock's making), so the session
/// needs no generic parameter for the clock's own instant type.
package struct ShellClock: Sendable {
    /// A moment on this clock: how long after its origin.
    package typealias Instant = Duration

    private let read: @Sendable () -> Duration
    private let armAlarm: @Sendable (Duration, @escaping @Sendable () -> Void) -> UInt64
    private let disarmAlarm: @Sendable (UInt64) -> Void

    /// Time and alarms on `alarms`' clock.
    package init<C: Clock>(_ alarms: AlarmClock<C>) {
        // A moment is one of the alarm clock's own offsets: no instant of `C` is made or read to arm one.
        read = { alarms.elapsed }
        armAlarm = { moment, fire in alarms.arm(atOffset: moment, fire: fire) }
        disarmAlarm = { alarms.disarm($0) }
    }

    /// Time read from `now`, alarms armed and disarmed by `arm` and `disarm`
    /// (a test's clock that watches what the session arms).
    package init(
        now: @escaping @Sendable () -> Duration, arm: @escaping @Sendable (Duration, @escaping @Sendable () -> Void) -> UInt64,
        disarm: @escaping @Sendable (UInt64) -> Void
    ) {
        read = now
        armAlarm = arm
        disarmAlarm = disarm
    }

    /// The continuous clock, with the alarms the process shares: the default.
    package static let continuous = ShellClock(AlarmClock<ContinuousClock>.shared)

    /// Now.
    package var now: Instant { read() }

    /// Calls `fire` at `moment` unless ``disarm(_:)`` comes first; the alarm's id.
    package func arm(at moment: Instant, fire: @escaping @Sendable () -> Void) -> UInt64 {
        armAlarm(moment, fire)
    }

    /// Forgets the alarm; a no-op when it already fired.
    package func disarm(_ alarm: UInt64) {
        disarmAlarm(alarm)
    }
}
