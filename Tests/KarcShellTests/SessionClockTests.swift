import Foundation
@_spi(KarcInternal) import KarcAsync
import KarcSynchronization
import TestSupport
import Testing

@testable import KarcLanguage
@testable import KarcOutput
@testable import KarcSession

/// The session keeps the time it is given: `:sleep`, `:wait`, a send's
/// timeout and the wait for late replies all end when a hand clock is moved
/// past them, with no real time passing, and say the time they waited.
@Suite("Session time: the clock it is given", .timeLimit(.minutes(1)))
struct SessionClockTests {
    struct Poke: Codable, Sendable {}

    /// A cluster whose one command answers only when the test lets it, and which emits nothing.
    final class Sluggish: ShellCluster {
        let answer = Pending<Bool>()
        var name: String { "sluggish" }
        var catalog: Catalog { Catalog(targets: [TargetSchema(name: "slow", kind: "store", commands: [CommandSchema(Poke.self)])]) }
        func send(_ command: any Sendable, to target: String) async throws -> (any Sendable)? {
            _ = await answer.value()
            return nil
        }
        func takeRecords() -> [ShellRecord] { [] }
        func nextRecords() async -> [ShellRecord]? {
            let cancelled = Pending<Bool>()
            await withTaskCancellationHandler {
                _ = await cancelled.value()
            } onCancel: {
                cancelled.finish(true)
            }
            return []
        }
        func settled(timeout: Duration) async -> Bool { true }
        func state(of target: String) async -> (any Sendable)? { nil }
    }

    /// A hand clock, and the moments the session arms alarms at, as they are armed.
    struct Hand {
        let clock = HandClock()
        let shellClock: ShellClock
        let armed: AsyncStream<Duration>

        init() {
            let base = ShellClock(AlarmClock(clock: clock))
            let (armed, moments) = AsyncStream<Duration>.makeStream()
            self.armed = armed
            shellClock = ShellClock(
                now: { base.now },
                arm: { moment, fire in
                    moments.yield(moment)
                    return base.arm(at: moment, fire: fire)
                }, disarm: { base.disarm($0) })
        }

        /// Once an alarm is armed at `moment` or later, moves the clock on to that alarm.
        func advance(toAlarmAt moment: Duration) async {
            for await armedAt in armed where armedAt >= moment {
                clock.advance(by: armedAt - shellClock.now)
                return
            }
        }
    }

    func run(
        _ commands: [String], on cluster: any ShellCluster, with hand: Hand, timeout: Duration = .seconds(5),
        statusLine: (@Sendable (String) -> Void)? = nil
    ) -> Task<(Int32, String), Never> {
        var options = ShellOptions()
        options.printing.color = false
        options.timeout = timeout
        var runtime = ShellRuntime(clock: hand.shellClock, executor: ShellExecutor(name: "karc-clock-test"))
        runtime.statusLine = statusLine
        let sink = OutputSink(capturing: (), clock: runtime.clock)
        return Task {
            let status = await Shell.runSession(
                cluster, options: options, commands: commands, input: .none, sink: sink, host: LocalHost(), runtime: runtime)
            return (status, String(decoding: sink.takeCaptured(), as: UTF8.self))
        }
    }

    @Test func sleepEndsWhenTheClockPassesIt() async {
        let hand = Hand()
        let cluster = Sluggish()
        let ran = run([":sleep 5m", ":history"], on: cluster, with: hand)
        await hand.advance(toAlarmAt: .seconds(300))
        let (status, output) = await ran.value
        #expect(status == 0, "\(output)")
        #expect(hand.shellClock.now == .seconds(300))
    }

    /// What happens during `:sleep` is printed as it comes: a change and
    /// the one that undid it a moment later are two diffs, not one folded
    /// diff of nothing at the end of the sleep.
    @Test func sleepPrintsEachChangeAsItComes() async {
        let hand = Hand()
        let cluster = PushedRecords()
        var waits = cluster.waits.makeAsyncIterator()
        let ran = run([":sleep 5m"], on: cluster, with: hand)
        await waits.next()
        cluster.change(0, to: 1)
        // The session waits again: it took the first change.
        await waits.next()
        cluster.change(1, to: 0)
        await waits.next()
        await hand.advance(toAlarmAt: .seconds(300))
        let (status, output) = await ran.value
        #expect(status == 0, "\(output)")
        #expect(
            output == """
                state  counter (by the app):
                  - PushedRecords.Counter(count: 0)
                  + PushedRecords.Counter(count: 1)
                state  counter (by the app):
                  - PushedRecords.Counter(count: 1)
                  + PushedRecords.Counter(count: 0)

                """)
    }

    /// A `:sleep` whose output has no room (an attached shell that stopped
    /// reading) keeps what comes instead of printing it, and prints it, the
    /// changes added up, once the shell reads again.
    @Test func aSleepWithNoRoomInItsOutputKeepsWhatComesUntilThereIsRoom() async {
        let hand = Hand()
        let cluster = PushedRecords()
        var waits = cluster.waits.makeAsyncIterator()
        let room = OutputRoomTests.HandRoom()
        room.give()
        let printed = KarcMutex("")
        let sink = OutputSink(forwarding: { bytes, _ in printed.withLock { $0 += String(decoding: bytes, as: UTF8.self) } }, room: room)
        var options = ShellOptions()
        options.printing.color = false
        let runtime = ShellRuntime(clock: hand.shellClock, executor: ShellExecutor(name: "karc-clock-test"))
        let ran = Task {
            await Shell.runSession(cluster, options: options, commands: [":sleep 5m"], input: .none, sink: sink, host: LocalHost(), runtime: runtime)
        }
        await waits.next()
        room.take()
        cluster.change(0, to: 1)
        await waits.next()
        cluster.change(1, to: 2)
        await waits.next()
        #expect(printed.withLock { $0 } == "")
        room.give()
        await waits.next()
        #expect(
            printed.withLock { $0 } == """
                state  counter (by the app):
                  - PushedRecords.Counter(count: 0)
                  + PushedRecords.Counter(count: 2)

                """)
        await hand.advance(toAlarmAt: .seconds(300))
        #expect(await ran.value == 0)
    }

    /// Between commands, one batch of several traces' work prints in its
    /// order: the change of the first trace before the redirect of the next,
    /// not every event and redirect first and the diffs after.
    @Test func workOfSeveralTracesInOneBatchPrintsInItsOrder() async {
        let hand = Hand()
        let cluster = PushedRecords()
        var waits = cluster.waits.makeAsyncIterator()
        let ran = run([":sleep 5m"], on: cluster, with: hand)
        await waits.next()
        cluster.push([
            ShellRecord(
                .stateChanged(target: "counter", old: PushedRecords.Counter(count: 0), new: PushedRecords.Counter(count: 3)),
                link: TraceLink(trace: 1, span: 1, parent: nil)),
            ShellRecord(.redirected(by: "Gatekeeper", action: Poke(), to: []), link: TraceLink(trace: 2, span: 2, parent: nil)),
        ])
        await waits.next()
        await hand.advance(toAlarmAt: .seconds(300))
        let (status, output) = await ran.value
        #expect(status == 0, "\(output)")
        let lines = output.split(separator: "\n").map(String.init)
        let state = lines.firstIndex { $0.hasPrefix("state  counter") }
        let redirect = lines.firstIndex { $0.hasPrefix("redirected") }
        guard let state, let redirect else {
            Issue.record("no state or no redirect printed: \(output)")
            return
        }
        #expect(state < redirect, "\(output)")
    }

    @Test func waitTimesOutOnTheClockAndSaysHowLong() async {
        let hand = Hand()
        let ran = run([":wait Delivered 90s"], on: Sluggish(), with: hand)
        await hand.advance(toAlarmAt: .seconds(90))
        let (status, output) = await ran.value
        #expect(status == 1)
        #expect(output.contains("-e:1:7: error: timed out after 90s waiting for Delivered"), "\(output)")
        #expect(hand.shellClock.now == .seconds(90))
    }

    @Test func aSendThatDoesNotAnswerIsGivenUpOnAtTheTimeoutAndAwaitedAfterTheScript() async {
        let hand = Hand()
        let cluster = Sluggish()
        let ran = run(["slow.poke"], on: cluster, with: hand, timeout: .seconds(2))
        // The send's timeout, then ten times it for its late reply once the script has ended.
        await hand.advance(toAlarmAt: .seconds(2))
        await hand.advance(toAlarmAt: .seconds(22))
        let (status, output) = await ran.value
        cluster.answer.finish(true)
        #expect(status == 1)
        #expect(output.contains("slow.poke has not answered after 2s; its reply will be printed when it comes"), "\(output)")
        #expect(output.contains("slow.poke did not answer (waited 20s after the script ended)"), "\(output)")
    }

    @Test func theWaitAfterTheScriptSaysWhatItWaitsForOnceASecondOnATerminal() async {
        let hand = Hand()
        let cluster = Sluggish()
        let shown = KarcMutex<[String]>([])
        let ran = run(["slow.poke"], on: cluster, with: hand, timeout: .seconds(2), statusLine: { line in shown.withLock { $0.append(line) } })
        await hand.advance(toAlarmAt: .seconds(2))
        // The script has ended: the line comes at once, then once a second.
        await hand.advance(toAlarmAt: .seconds(3))
        await hand.advance(toAlarmAt: .seconds(4))
        // The line for 2s is shown once the wait for the next second is armed; then the reply comes.
        for await moment in hand.armed where moment >= .seconds(5) { break }
        cluster.answer.finish(true)
        let (status, output) = await ran.value
        #expect(status == 0, "\(output)")
        let waiting = "waiting for #1 slow.poke to answer: "
        let after = " of at most 20s after the script ended (Ctrl-C stops)"
        // Cleared before the late reply printed, and at the end.
        #expect(shown.withLock { $0 } == [waiting + "0s" + after, waiting + "1s" + after, waiting + "2s" + after, ""])
        #expect(output.contains("slow.poke"), "\(output)")
    }
}
