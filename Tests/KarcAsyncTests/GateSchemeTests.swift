import Testing

@testable import KarcAsync

/// Which consumers a value goes to, for each scheme.
@Suite(.timeLimit(.minutes(1))) struct GateSchemeTests {
    @Test func anycastGoesToTheFirstReadyConsumerOnly() async throws {
        let gate = IntGate(mode: .transient, scheme: .anycast)
        let a = ManualConsumer(gate)
        let b = ManualConsumer(gate)
        let send = Task { try await gate.send(1) }
        #expect(try await a.take() == 1)
        a.answer("from a")
        #expect(try await send.value == "from a")
        // b never got it: its next value is the next send.
        let next = Task { try await gate.send(2) }
        #expect(try await b.take() == 2)
        b.answer("from b")
        #expect(try await next.value == "from b")
    }

    @Test func multicastGoesToEveryReadyConsumerAndCombinesTheirOutputs() async throws {
        let gate = IntGate(mode: .transient, scheme: .multicast(combiner: { $0.joined(separator: "+") }))
        let a = ManualConsumer(gate)
        let b = ManualConsumer(gate)
        let busy = ManualConsumer(gate)
        let warmUp = Task { try await gate.send(0) }
        // Make `busy` busy: it is the only one that takes value 0 right now... all three were ready,
        // so all three get 0; answer a and b, keep `busy` holding it.
        #expect(try await a.take() == 0)
        #expect(try await b.take() == 0)
        #expect(try await busy.take() == 0)
        a.answer("a0")
        b.answer("b0")
        let send = Task { try await gate.send(1) }
        #expect(try await a.take() == 1)
        #expect(try await b.take() == 1)
        b.answer("b1")
        a.answer("a1")
        // Combined in attach order, whatever the reply order; `busy` missed value 1.
        #expect(try await send.value == "a1+b1")
        busy.answer("busy0")
        #expect(try await warmUp.value == "a0+b0+busy0")
    }

    @Test func broadcastWaitsForEveryAttachedConsumer() async throws {
        let gate = IntGate(mode: .retainable, scheme: .broadcast(combiner: { $0.joined(separator: ",") }))
        let a = ManualConsumer(gate)
        let b = ManualConsumer(gate)
        let send = Task { try await gate.send(5) }
        #expect(try await a.take() == 5)
        a.answer("a")
        #expect(try await b.take() == 5)
        b.answer("b")
        #expect(try await send.value == "a,b")
    }

    @Test func withoutCombinerTheEarliestAttachedConsumerAnswers() async throws {
        let gate = IntGate(mode: .transient, scheme: .multicast)
        let a = ManualConsumer(gate)
        let b = ManualConsumer(gate)
        let send = Task { try await gate.send(1) }
        #expect(try await b.take() == 1)
        b.answer("b")
        #expect(try await a.take() == 1)
        a.answer("a")
        #expect(try await send.value == "a")
    }

    @Test func unicastPairsProducerAndConsumerIds() async throws {
        let gate = IntGate(mode: .retainable, scheme: .unicast)
        let seven = ManualConsumer(gate, id: 7)
        let eight = ManualConsumer(gate, id: 8)
        let send = Task { try await gate.send(producerId: 8, 42) }
        #expect(try await eight.take() == 42)
        eight.answer("eight")
        #expect(try await send.value == "eight")
        // Nobody has id 9: a retainable gate refuses at once.
        await #expect(throws: GateError.self) { try await gate.send(producerId: 9, 1) }
        _ = seven
    }

    @Test func aConsumerTakesOnlyTheSubInputsItAsksFor() async throws {
        let gate = Gate<any Sendable, String>(mode: .transient, scheme: .anycast)
        let strings = gate.processor { (text: String) in "string \(text)" }
        let ints = gate.processor { (number: Int) in "int \(number)" }
        let drainStrings = Task { for try await _ in strings {} }
        let drainInts = Task { for try await _ in ints {} }
        #expect(try await gate.send(3) == "int 3")
        #expect(try await gate.send("x") == "string x")
        // A type nobody takes is refused, naming the type.
        let error = await #expect(throws: GateError.self) { try await gate.send(2.5) }
        #expect(error?.description == "nothing on Gate<Any, String> (transient, anycast) accepts Double")
        drainStrings.cancel()
        drainInts.cancel()
    }
}
