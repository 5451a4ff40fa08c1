@testable import KarcAsync
import TestSupport
import Testing

/// Timeouts as alarms: one sleeper for all of them, each firing once, a
/// disarmed one never; and a gauge's wait that gives up at its deadline.
@Suite(.timeLimit(.minutes(1)))
struct AlarmClockTests {
    @Test func alarmsFireInDeadlineOrderAndADisarmedOneNever() async {
        let clock = AlarmClock()
        let fired = Recorder<String>()
        let now = ContinuousClock.now
        _ = clock.arm(at: now + .milliseconds(60)) { fired.record("late") }
        let cancelled = clock.arm(at: now + .milliseconds(20)) { fired.record("disarmed") }
        // Armed after a later one, it must still wake the clock sooner.
        _ = clock.arm(at: now + .milliseconds(30)) { fired.record("early") }
        clock.disarm(cancelled)
        #expect(await eventually { fired.count == 2 })
        #expect(fired.values == ["early", "late"])
        clock.disarm(cancelled)  // a second disarm, and one of a fired alarm, are no-ops
    }

    @Test func anAlarmArmedAfterTheSleeperEmptiedStillFires() async {
        let clock = AlarmClock()
        let fired = Recorder<Int>()
        _ = clock.arm(at: .now + .milliseconds(5)) { fired.record(1) }
        #expect(await eventually { fired.count == 1 })
        _ = clock.arm(at: .now + .milliseconds(5)) { fired.record(2) }
        #expect(await eventually { fired.count == 2 })
    }

    @Test func aGaugeWaitGivesUpAtItsDeadlineAndOtherwiseSeesIdle() async {
        let gauge = ActivityGauge()
        gauge.enter()
        #expect(await gauge.untilIdle(deadline: .now + .milliseconds(20)) == false, "still busy at the deadline")
        let waiting = Task { await gauge.untilIdle(deadline: .now + .seconds(30)) }
        try? await Task.sleep(for: .milliseconds(10))
        gauge.leave()
        #expect(await waiting.value == true, "idle before the deadline")
        #expect(await gauge.untilIdle(deadline: .now) == true, "idle already: no wait at all")
    }

    @Test func aCancelledGaugeWaitReturnsFalse() async {
        let gauge = ActivityGauge()
        gauge.enter()
        let waiting = Task { await gauge.untilIdle(deadline: .now + .seconds(30)) }
        waiting.cancel()
        #expect(await waiting.value == false)
        gauge.leave()
    }
}
