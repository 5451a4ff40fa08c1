import TestSupport
import Testing

@testable import KarcAsync

@Suite(.timeLimit(.minutes(1))) struct EventGateTests {
    @Test func everyReceiverGetsEveryEventInPublishOrder() async throws {
        let gate = EventGate<Int>()
        let first = gate.receiver()
        let second = gate.receiver()
        for i in 0..<1_000 { gate.publish(i) }
        gate.seal()
        var a: [Int] = []
        var b: [Int] = []
        for try await e in first { a.append(e) }
        for try await e in second { b.append(e) }
        #expect(a == Array(0..<1_000))
        #expect(b == a)
    }

    @Test func aReceiverThatStopsIsDetachedAndBlocksNoOne() async throws {
        let gate = EventGate<Int>()
        let steady = gate.receiver()
        do {
            let quitter = gate.receiver()
            gate.publish(1)
            for try await _ in quitter { break }
        }
        await gate.untilReceivers(1)
        for i in 2...5 { gate.publish(i) }
        gate.seal()
        var seen: [Int] = []
        for try await e in steady { seen.append(e) }
        #expect(seen == [1, 2, 3, 4, 5])
    }

    @Test func publishingNeverWaitsForASlowReceiver() async throws {
        let gate = EventGate<Int>()
        let idle = gate.receiver()
        // Nobody iterates `idle`: publishing still returns at once, and nothing is lost.
        for i in 0..<100_000 { gate.publish(i) }
        gate.seal()
        var count = 0
        for try await _ in idle { count += 1 }
        #expect(count == 100_000)
    }

    @Test func receiversCanTakeOneEventType() async throws {
        let gate = EventGate<any Sendable>()
        let strings: AsyncThrowingStream<String, any Error> = gate.receiver()
        gate.publish(1)
        gate.publish("a")
        gate.publish(2.0)
        gate.publish("b")
        gate.seal()
        var seen: [String] = []
        for try await s in strings { seen.append(s) }
        #expect(seen == ["a", "b"])
    }

    @Test func eventsPublishedWithNoReceiverAreDropped() async throws {
        let gate = EventGate<Int>()
        gate.publish(1)
        let late = gate.receiver()
        gate.publish(2)
        gate.seal()
        var seen: [Int] = []
        for try await e in late { seen.append(e) }
        #expect(seen == [2])
    }

    @Test func aWaitingReceiverWakesOnPublishAndOnCancel() async throws {
        let gate = EventGate<Int>()
        let waiting = Task { try await gate.receive() }
        await gate.untilReceivers(1)
        gate.publish(9)
        #expect(try await waiting.value == 9)
        let cancelled = Task { try await gate.receive() }
        await gate.untilReceivers(1)
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
    }
}
