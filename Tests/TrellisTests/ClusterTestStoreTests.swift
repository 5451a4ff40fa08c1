import Karc
import Testing
import Trellis
import TrellisTesting

/// `ClusterTestStore`: a send, the events it set off received in order, the
/// state asserted as a change of the last asserted one; whatever is left
/// unasserted fails the test.
@Suite(.timeLimit(.minutes(1)))
struct ClusterTestStoreTests {
    func counterStore() async throws -> ClusterTestStore {
        try await ClusterTestStore { _ in
            try await Bootstrap { KarcCounter.service(.init(environ: Environ())).named("counter") }
        }
    }

    @Test func aSendItsEventAndItsStateAssertedInTurn() async throws {
        let store = try await counterStore()
        let reply = try await store.send(Increment(by: 4), to: "counter")
        #expect(reply as? Int == 4)
        await store.receive(CounterEvent.added(4), from: "counter")
        store.assert("counter", as: Counter.self) { $0.count = 4 }
        try await store.send(Increment(by: 1))
        await store.receive(CounterEvent.added(5))
        store.assert("counter", as: Counter.self) { $0.count = 5 }
        await store.finish()
    }

    @Test func aSendStillWaitingAfterAStepOfTheClockRepliesAtALaterStep() async throws {
        let store = try await ClusterTestStore { clock in
            try await Bootstrap {
                Store(model: Tally.self)
                    .mutate(on: CounterAction.self) { tally, action, _ in
                        // Longer than a step: after the first, the send is still waiting.
                        try await clock.sleep(for: .milliseconds(1_500))
                        if case .add(let n) = action { tally.total += n }
                    }
                    .with(model: Tally())
                    .named("tally")
            }
        }
        let start = store.clock.now
        try await store.send(CounterAction.add(2), to: "tally", advancingBy: .seconds(1))
        #expect(start.duration(to: store.clock.now) >= .seconds(2), "the reply came with the second step or later")
        store.assert("tally", as: Tally.self) { $0.total = 2 }
        await store.finish()
    }

    /// What a test `explore --export-test` writes checks after its sends.
    @Test func anInvariantThatNoLongerHoldsFailsExpectInvariantsNamingItAndTheState() async throws {
        let store = try await ClusterTestStore { _ in
            try await Bootstrap {
                Store(model: Tally.self)
                    .mutate(on: CounterAction.self) { tally, action, _ in if case .add(let n) = action { tally.total += n } }
                    .with(model: Tally())
                    .invariant("total below ten") { (tally: Tally) in tally.total < 10 }
                    .named("tally")
            }
        }
        store.isExhaustive = false
        try await store.send(CounterAction.add(4), to: "tally")
        await store.expectInvariants()
        try await store.send(CounterAction.add(6), to: "tally")
        await withKnownIssue {
            await store.expectInvariants()
        } matching: { issue in
            "\(issue)".contains("invariant 'total below ten' of tally does not hold; its state:") && "\(issue)".contains("total: 10")
        }
        await store.finish()
    }

    @Test func anEventLeftUnassertedFailsTheNextSend() async throws {
        let store = try await counterStore()
        try await store.send(Increment(by: 4))
        try await withKnownIssue {
            try await store.send(Increment(by: 1))
        } matching: { issue in
            "\(issue)".contains("1 event received and not asserted before sending Increment(by: 1):\n  counter: CounterEvent.added(4)")
        }
        store.isExhaustive = false
        await store.finish()
    }

    @Test func aStateChangeLeftUnassertedFailsTheFinishWithItsDiff() async throws {
        let store = try await counterStore()
        try await store.send(Increment(by: 4))
        await store.receive(CounterEvent.added(4))
        await withKnownIssue {
            await store.finish()
        } matching: { issue in
            "\(issue)".contains("the state of 'counter' changed and was not asserted") && "\(issue)".contains("+   count: 4,")
        }
    }

    @Test func aWrongStateOrEventFailsWithADiff() async throws {
        let store = try await counterStore()
        try await store.send(Increment(by: 4))
        await withKnownIssue {
            await store.receive(CounterEvent.added(5))
        } matching: { issue in
            "\(issue)".contains("received another event from 'counter'") && "\(issue)".contains("− CounterEvent.added(5)")
        }
        withKnownIssue {
            store.assert("counter", as: Counter.self) { $0.count = 3 }
        } matching: { issue in
            "\(issue)".contains("the state of 'counter' is not what was expected") && "\(issue)".contains("−   count: 3,")
        }
        await store.finish()
    }

    @Test func anEventThatNeverComesFailsAfterTheTimeoutAndUnknownTargetsAreNamed() async throws {
        let store = try await counterStore()
        store.timeout = .milliseconds(100)
        await withKnownIssue {
            await store.receive(CounterEvent.self)
        } matching: {
            "\($0)".contains("expected an event, and none came within 0.1 seconds")
        }
        withKnownIssue {
            store.assert("countr", as: Counter.self)
        } matching: {
            "\($0)".contains("no target named 'countr' shows a state; targets: counter")
        }
        withKnownIssue {
            store.assert("counter", as: Int.self)
        } matching: {
            "\($0)".contains("the state of 'counter' is a Counter, not a Int")
        }
        await store.finish()
    }

    @Test func aStoreThatIsNotExhaustiveLetsGoWhatItWasNotAskedAbout() async throws {
        let store = try await counterStore()
        store.isExhaustive = false
        try await store.send(Increment(by: 4))
        try await store.send(Increment(by: 1))
        await store.receive(CounterEvent.added(5))
        await store.finish()
    }

    @Test func aDumpedEventAndTheStateAsOneValue() async throws {
        let store = try await counterStore()
        try await store.send(Increment(by: 2))
        await store.receive(dumped: "CounterEvent.added(2)", from: "counter")
        await store.expectState("counter", toBe: Counter(count: 2))
        await store.finish()
    }
}
