import TestSupport
import Testing

@testable import KarcAsync

/// Capacity, sealing, cancellation and detaching: nothing is lost silently and nothing hangs.
@Suite(.timeLimit(.minutes(1))) struct GateLifecycleTests {
    @Test func aFullQueueDiscardsTheOldestWaitingProducer() async throws {
        let gate = IntGate(mode: .cumulative(capacity: 2), scheme: .anycast, label: "small queue")
        let first = Task { try await gate.send(1) }
        await gate.until { $0.supplies.count == 1 }
        let second = Task { try await gate.send(2) }
        await gate.until { $0.supplies.count == 2 }
        let third = Task { try await gate.send(3) }
        let error = await #expect(throws: GateError.self) { try await first.value }
        #expect(error?.description == "small queue (cumulative, capacity 2, anycast) is full; the oldest waiting Int was discarded")
        let consumer = ManualConsumer(gate)
        #expect(try await consumer.take() == 2)
        consumer.answer("two")
        #expect(try await consumer.take() == 3)
        consumer.answer("three")
        #expect(try await second.value == "two")
        #expect(try await third.value == "three")
    }

    @Test func sealingFailsEveryoneWaitingAndEverythingLater() async throws {
        let gate = IntGate(mode: .cumulative, scheme: .anycast)
        let waitingProducer = Task { try await gate.send(1) }
        await gate.until { $0.supplies.count == 1 }
        let other = IntGate(mode: .cumulative, scheme: .anycast)
        let consumer = ManualConsumer(other)
        let waitingConsumer = Task { try await consumer.take() }
        gate.seal()
        other.seal(Boom())
        #expect(gate.isSealed)
        await #expect(throws: GateError.self) { try await waitingProducer.value }
        await #expect(throws: Boom.self) { try await waitingConsumer.value }
        await #expect(throws: GateError.self) { try await gate.send(2) }
    }

    @Test func cancellingAWaitingProducerRemovesItsValue() async throws {
        let gate = IntGate(mode: .cumulative, scheme: .anycast)
        let send = Task { try await gate.send(1) }
        await gate.until { $0.supplies.count == 1 }
        send.cancel()
        let error = await #expect(throws: GateError.self) { try await send.value }
        guard case .canceledProducer = error else { return #expect(Bool(false)) }
        #expect(gate.queuedCount == 0)
    }

    @Test func cancellingAWaitingConsumerEndsItsWait() async throws {
        let gate = IntGate(mode: .cumulative, scheme: .anycast)
        let consumer = ManualConsumer(gate)
        let wait = Task { try await consumer.take() }
        await gate.until { $0.consumers.values.first?.waiter != nil }
        wait.cancel()
        let error = await #expect(throws: GateError.self) { try await wait.value }
        guard case .canceledConsumer = error else { return #expect(Bool(false)) }
    }

    @Test func aConsumerThatDetachesBeforeTakingItsValueFailsTheProducer() async throws {
        let gate = IntGate(mode: .transient, scheme: .anycast)
        var consumer: ManualConsumer? = ManualConsumer(gate)
        // Delivered to the ready consumer's inbox, never taken.
        let send = Task { try await gate.send(1) }
        await gate.until { $0.consumers.values.first?.inbox.count == 1 }
        consumer = nil
        let error = await #expect(throws: GateError.self) { try await send.value }
        guard case .discardedConsumer = error else { return #expect(Bool(false)) }
        #expect(gate.consumerCount == 0)
        _ = consumer
    }

    @Test func aRetainableGateFailsQueuedValuesWhenTheLastConsumerLeaves() async throws {
        let gate = IntGate(mode: .retainable, scheme: .anycast)
        var consumer: ManualConsumer? = ManualConsumer(gate)
        let first = Task { try await gate.send(1) }
        #expect(try await consumer?.take() == 1)
        let queued = Task { try await gate.send(2) }
        await gate.until { $0.supplies.count == 1 }
        consumer?.answer("one")
        #expect(try await first.value == "one")
        // The answer made the consumer ready again and handed it the queued value; leaving fails it.
        consumer = nil
        await #expect(throws: GateError.self) { try await queued.value }
    }

    @Test func sequentialDuplexSendsNeverFindALoneConsumerBusy() async throws {
        let gate = IntGate(mode: .transient, scheme: .anycast)
        let doubled = gate.processor { "\($0 * 2)" }
        let loop = Task { for try await _ in doubled {} }
        for i in 0..<2_000 {
            #expect(try await gate.send(i) == "\(i * 2)")
        }
        loop.cancel()
    }

    @Test func aReleasedStreamDetachesItsConsumer() async throws {
        let gate = IntGate(mode: .retainable, scheme: .anycast)
        do {
            let stream = gate.receiver(instantOutput: "ok")
            #expect(gate.consumerCount == 1)
            let task = Task {
                for try await value in stream { return value }
                return -1
            }
            #expect(try await gate.send(4) == "ok")
            #expect(try await task.value == 4)
        }
        await gate.until { $0.consumers.count == 0 }
        await #expect(throws: GateError.self) { try await gate.send(5) }
    }

    @Test func aFailingConsumerSendsItsErrorToTheProducer() async throws {
        let gate = IntGate(mode: .transient, scheme: .anycast)
        let consumer = ManualConsumer(gate)
        let send = Task { try await gate.send(1) }
        try await consumer.take()
        consumer.fail(Boom())
        await #expect(throws: Boom.self) { try await send.value }
    }

    @Test func oneShotProcessAndReceive() async throws {
        let gate = IntGate(mode: .cumulative, scheme: .anycast)
        let producer = Task { try await gate.send(6) }
        #expect(try await gate.process { "\($0)!" } == "6!")
        #expect(try await producer.value == "6!")
        let second = Task { try await gate.send(7) }
        #expect(try await gate.receive(instantOutput: "taken") == 7)
        #expect(try await second.value == "taken")
        #expect(gate.consumerCount == 0)
    }
}

/// `until`, the hook the gate tests wait on instead of polling.
@Suite(.timeLimit(.minutes(1))) struct GateWatchTests {
    @Test func aWaitForWhatHoldsReturnsAtOnceAndOneForWhatWillHoldReturnsWhenAChangeMakesItHold() async throws {
        let gate = IntGate(mode: .cumulative, scheme: .anycast)
        await gate.until { $0.supplies.isEmpty }
        let send = Task { try await gate.send(1) }
        await gate.until { $0.supplies.count == 1 }
        #expect(gate.queuedCount == 1)
        // Two waits on the same change are both let go by it.
        async let first: Void = gate.until { $0.consumers.count == 1 }
        async let second: Void = gate.until { $0.consumers.count == 1 && $0.supplies.isEmpty }
        let consumer = ManualConsumer(gate)
        #expect(try await consumer.take() == 1)
        _ = await (first, second)
        consumer.answer("one")
        #expect(try await send.value == "one")
        #expect(gate.state.withLock { $0.watchers.isEmpty }, "a wait that returned is not kept")
    }
}
