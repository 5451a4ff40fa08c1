import TestSupport
import Testing

@testable import KarcAsync

/// Timeouts as alarms: one sleeper for all of them, each firing once, a
/// disarmed one never; and a gauge's wait that gives up at its deadline.
/// On a hand clock: time passes when the test moves it, not before.
@Suite(.timeLimit(.minutes(1)))
struct AlarmClockTests {
    @Test func alarmsFireInDeadlineOrderAndADisarmedOneNever() async {
        let time = HandClock()
        let clock = AlarmClock(clock: time)
        let fired = Recorder<String>()
        let now = time.now
        _ = clock.arm(at: now.advanced(by: .milliseconds(60))) { fired.record("late") }
        let cancelled = clock.arm(at: now.advanced(by: .milliseconds(20))) { fired.record("disarmed") }
        // Armed after a later one, it must still wake the clock sooner.
        _ = clock.arm(at: now.advanced(by: .milliseconds(30))) { fired.record("early") }
        clock.disarm(cancelled)
        time.advance(by: .milliseconds(29))
        // Asleep again after waking at 20 ms for the disarmed alarm (the only
        // sleeper: the one it replaced, until 60 ms, was cancelled).
        await time.untilSleeping(count: 1)
        #expect(fired.values == [], "nothing is due before 30 ms")
        time.advance(by: .milliseconds(1))
        #expect(await fired.until { $0.count == 1 })
        await time.untilSleeping(count: 1)
        time.advance(by: .milliseconds(29))
        #expect(time.sleepers == 1, "the sleeper waits on for the alarm at 60 ms")
        #expect(fired.values == ["early"])
        time.advance(by: .milliseconds(1))
        #expect(await fired.until { $0.count == 2 })
        #expect(fired.values == ["early", "late"])
        clock.disarm(cancelled)  // a second disarm, and one of a fired alarm, are no-ops
    }

    @Test func anAlarmArmedAfterTheSleeperEmptiedStillFires() async {
        let time = HandClock()
        let clock = AlarmClock(clock: time)
        let fired = Recorder<Int>()
        _ = clock.arm(at: time.now.advanced(by: .milliseconds(5))) { fired.record(1) }
        time.advance(by: .milliseconds(5))
        #expect(await fired.until { $0.count == 1 })
        _ = clock.arm(at: time.now.advanced(by: .milliseconds(5))) { fired.record(2) }
        time.advance(by: .milliseconds(5))
        #expect(await fired.until { $0.count == 2 })
    }

    @Test func aGaugeWaitGivesUpAtItsDeadlineAndOtherwiseSeesIdle() async {
        let time = HandClock()
        let alarms = AlarmClock(clock: time)
        let gauge = ActivityGauge()
        gauge.enter()
        let deadline = time.now.advanced(by: .milliseconds(20))
        let givingUp = Task { await gauge.untilIdle(deadline: deadline, alarms: alarms) }
        // Polls: an activity gauge's count of waiters has no hook of its own (it is the gauge's test).
        #expect(await eventually { gauge.waiting == 1 })
        time.advance(by: .milliseconds(20))
        // Polls: the alarm resumes the waiter on the shared pool.
        #expect(await eventually { gauge.waiting == 0 })
        #expect(await givingUp.value == false, "still busy at the deadline")
        let waiting = Task { await gauge.untilIdle(deadline: time.now.advanced(by: .seconds(30)), alarms: alarms) }
        // Polls: an activity gauge's count of waiters has no hook of its own.
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
