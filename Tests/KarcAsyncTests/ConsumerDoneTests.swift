import Testing

@testable import KarcAsync

/// A consumer that is done with a value it was counted for (a simplex
/// pipe's command, answered when it was taken) waits again before its gauge
/// empties: whoever waits for the gauge (a shell settling after a command)
/// and then sends finds it ready, not busy.
@Suite(.timeLimit(.minutes(1))) struct ConsumerDoneTests {
    /// A simplex consumer counted in a gauge that has taken its first value, 1.
    static func busyWithOne() async throws -> (IntGate, SourceConsumer<Int, String>, ActivityGauge) {
        let gate = IntGate(mode: .transient, scheme: .anycast, label: "pipe")
        let consumer = gate.makeConsumer(consumerId: 1, spec: .all, instantOutput: "taken")
        let gauge = ActivityGauge()
        #expect(consumer.countDeliveries(into: gauge))
        let first = Task { try await gate.send(producerId: 1, 1) }
        #expect(try await consumer.next()?.input == 1)
        #expect(try await first.value == "taken")
        #expect(gauge.count == 1)
        return (gate, consumer, gauge)
    }

    @Test func theGaugeEmptiesOnlyOnceTheConsumerWaitsAgain() async throws {
        let (gate, consumer, gauge) = try await Self.busyWithOne()
        let next = Task { try await consumer.next(leaving: gauge) }
        #expect(await gauge.untilIdle())
        // The moment it is empty, the consumer is ready again.
        #expect(gate.state.withLock { $0.readyQueue.count } == 1)
        let second = Task { try await gate.send(producerId: 1, 2) }
        #expect(try await next.value?.input == 2)
        #expect(try await second.value == "taken")
        consumer.detach()
    }

    @Test func aSourceThatEndsWhileItIsDoneStillEmptiesTheGauge() async throws {
        let (_, consumer, gauge) = try await Self.busyWithOne()
        consumer.detach()
        await #expect(throws: GateError.self) { try await consumer.next(leaving: gauge) }
        #expect(gauge.count == 0)
    }
}
