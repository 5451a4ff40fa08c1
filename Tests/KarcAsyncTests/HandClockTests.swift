import TestSupport
import Testing

/// The clock tests move by hand sleeps as the real clocks do, so no test
/// hangs on when its sleeper happens to start.
@Suite(.timeLimit(.minutes(1)))
struct HandClockTests {
    @Test func aMoveMadeBeforeTheSleepStartsStillEndsIt() async throws {
        let clock = HandClock()
        let deadline = clock.now.advanced(by: .seconds(2))
        clock.advance(by: .seconds(2))
        // Until exactly now: swift-clocks' TestClock would keep it for a move that never comes.
        try await clock.sleep(until: deadline)
        let later = clock.now.advanced(by: .seconds(1))
        clock.advance(by: .seconds(5))
        try await clock.sleep(until: later)
        #expect(clock.sleepers == 0)
    }

    @Test func aSleepUntilNowReturnsAtOnce() async throws {
        let clock = HandClock()
        try await clock.sleep(until: clock.now)
        try await clock.sleep(for: .zero)
        #expect(clock.sleepers == 0)
    }

    @Test func cancellingAWaitingSleepEndsItWithCancellationErrorAndLeavesTheOthers() async throws {
        let clock = HandClock()
        let cancelled = Task { try await clock.sleep(for: .seconds(60)) }
        let other = Task { try await clock.sleep(for: .seconds(60)) }
        await clock.untilSleeping(count: 2)
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        #expect(clock.sleepers == 1)
        clock.advance(by: .seconds(60))
        try await other.value
    }

    @Test func aSleepCancelledBeforeItStartsThrowsCancellationError() async {
        let clock = HandClock()
        let started = Latch()
        let sleep = Task {
            await started.wait()
            try await clock.sleep(for: .seconds(60))
        }
        sleep.cancel()
        await started.open()
        await #expect(throws: CancellationError.self) { try await sleep.value }
        #expect(clock.sleepers == 0)
    }

    @Test func aMoveEndsOnlyTheSleepsDueByThenEarliestFirst() async throws {
        let clock = HandClock()
        let start = clock.now
        let woken = Recorder<Int>()
        let sleeps = (1...3).map { second in
            Task {
                try await clock.sleep(until: start.advanced(by: .seconds(second)))
                woken.record(second)
            }
        }
        await clock.untilSleeping(count: 3)

        clock.advance(by: .seconds(1))
        try await sleeps[0].value
        #expect(clock.sleepers == 2)
        #expect(woken.values == [1])

        clock.advance(by: .milliseconds(1500))
        try await sleeps[1].value
        #expect(clock.sleepers == 1)
        #expect(woken.values == [1, 2])

        clock.advance(by: .seconds(10))
        try await sleeps[2].value
        #expect(woken.values == [1, 2, 3])
    }
}
