import Clocks
import TestSupport
import Testing

@testable import KarcAsync

/// Timeouts as alarms: one sleeper for all of them, each firing once, a
/// disarmed one never; and a gauge's wait that gives up at its deadline.
/// On a test clock: time passes when the test moves it, not before.
@Suite(.timeLimit(.minutes(1)))
struct AlarmClockTests {
    /// Moves `time` on a millisecond at a time until `condition` holds (at
    /// most a minute of it): an alarm's sleeper registers its sleep a moment
    /// after it is armed, so one jump to the deadline may come before it.
    func advance(_ time: TestClock<Duration>, until condition: () -> Bool) async -> Bool {
        for _ in 0..<60_000 where !condition() {
            await time.advance(by: .milliseconds(1))
        }
        return condition()
    }

    @Test func alarmsFireInDeadlineOrderAndADisarmedOneNever() async {
        let time = TestClock()
        let clock = AlarmClock(clock: time)
        let fired = Recorder<String>()
        let now = time.now
        _ = clock.arm(at: now.advanced(by: .milliseconds(60))) { fired.record("late") }
        let cancelled = clock.arm(at: now.advanced(by: .milliseconds(20))) { fired.record("disarmed") }
        // Armed after a later one, it must still wake the clock sooner.
        _ = clock.arm(at: now.advanced(by: .milliseconds(30))) { fired.record("early") }
        clock.disarm(cancelled)
        await time.advance(by: .milliseconds(29))
        #expect(fired.values == [], "nothing is due before 30 ms")
        #expect(await advance(time) { fired.count == 1 })
        #expect(await advance(time) { fired.count == 2 })
        #expect(fired.values == ["early", "late"])
        clock.disarm(cancelled)  // a second disarm, and one of a fired alarm, are no-ops
    }

    @Test func anAlarmArmedAfterTheSleeperEmptiedStillFires() async {
        let time = TestClock()
        let clock = AlarmClock(clock: time)
        let fired = Recorder<Int>()
        _ = clock.arm(at: time.now.advanced(by: .milliseconds(5))) { fired.record(1) }
        #expect(await advance(time) { fired.count == 1 })
        _ = clock.arm(at: time.now.advanced(by: .milliseconds(5))) { fired.record(2) }
        #expect(await advance(time) { fired.count == 2 })
    }

    @Test func aGaugeWaitGivesUpAtItsDeadlineAndOtherwiseSeesIdle() async {
        let time = TestClock()
        let alarms = AlarmClock(clock: time)
        let gauge = ActivityGauge()
        gauge.enter()
        let deadline = time.now.advanced(by: .milliseconds(20))
        let givingUp = Task { await gauge.untilIdle(deadline: deadline, alarms: alarms) }
        #expect(await eventually { gauge.waiting == 1 })
        #expect(await advance(time) { gauge.waiting == 0 })
        #expect(await givingUp.value == false, "still busy at the deadline")
        let waiting = Task { await gauge.untilIdle(deadline: time.now.advanced(by: .seconds(30)), alarms: alarms) }
        #expect(await eventually { gauge.waiting == 1 })
        gauge.leave()
        #expect(await waiting.value == true, "idle before the deadline")
        #expect(await gauge.untilIdle(deadline: time.now, alarms: alarms) == true, "idle already: no wait at all")
    }

    @Test func aCancelledGaugeWaitReturnsFalse() async {
        let gauge = ActivityGauge()
        gauge.enter()
        let waiting = Task { await gauge.untilIdle(deadline: .now.advanced(by: .seconds(30))) }
        waiting.cancel()
        #expect(await waiting.value == false)
        gauge.leave()
    }
}
