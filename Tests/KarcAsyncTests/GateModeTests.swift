import TestSupport
import Testing

@testable import KarcAsync

/// What each mode does with a value no consumer is ready for, for every scheme.
@Suite(.timeLimit(.minutes(1))) struct GateModeTests {
    static let modes: [IntGate.Mode] = [.cumulative, .retainable, .transient]
    static let schemes: [IntGate.Scheme] = [.anycast, .multicast, .broadcast, .unicast]

    @Test(arguments: modes, schemes)
    func withNoConsumerAttached(mode: IntGate.Mode, scheme: IntGate.Scheme) async throws {
        let gate = IntGate(mode: mode, scheme: scheme, label: "test gate")
        let producerId: UInt64 = 7
        let send = Task { try await gate.send(producerId: producerId, 1) }
        switch mode.kind {
        case .cumulative:
            // Queued until a consumer attaches, then delivered to it.
            await gate.until { $0.supplies.count == 1 }
            let consumer = ManualConsumer(gate, id: producerId)
            #expect(try await consumer.take() == 1)
            consumer.answer("one")
            #expect(try await send.value == "one")
        case .retainable, .transient:
            let error = await #expect(throws: GateError.self) { try await send.value }
            guard case .noConsumer(let context) = error else { return #expect(Bool(false), "got \(String(describing: error))") }
            #expect(context.inputType == "Int")
            #expect(error?.description == "nothing on test gate (\(mode), \(scheme)) accepts Int")
        }
    }

    @Test(arguments: modes, [IntGate.Scheme.anycast, .multicast, .unicast])
    func withEveryConsumerBusy(mode: IntGate.Mode, scheme: IntGate.Scheme) async throws {
        let gate = IntGate(mode: mode, scheme: scheme, label: "busy gate")
        let consumer = ManualConsumer(gate, id: 1)
        let first = Task { try await gate.send(producerId: 1, 1) }
        #expect(try await consumer.take() == 1)
        // The consumer is busy with the first value now.
        let second = Task { try await gate.send(producerId: 1, 2) }
        switch mode.kind {
        case .cumulative, .retainable:
            await gate.until { $0.supplies.count == 1 }
            consumer.answer("one")
            #expect(try await first.value == "one")
            #expect(try await consumer.take() == 2)
            consumer.answer("two")
            #expect(try await second.value == "two")
        case .transient:
            let error = await #expect(throws: GateError.self) { try await second.value }
            #expect(error?.description == "every consumer of Int is busy (1 consumer attached) on busy gate (transient, \(scheme))")
            consumer.answer("one")
            #expect(try await first.value == "one")
        }
    }

    @Test(arguments: modes)
    func broadcastReachesBusyConsumers(mode: IntGate.Mode) async throws {
        let gate = IntGate(mode: mode, scheme: .broadcast)
        let consumer = ManualConsumer(gate)
        let first = Task { try await gate.send(1) }
        #expect(try await consumer.take() == 1)
        let second = Task { try await gate.send(2) }
        if mode.kind == .transient {
            await #expect(throws: GateError.self) { try await second.value }
            consumer.answer("one")
            #expect(try await first.value == "one")
            return
        }
        // Broadcast waits for the busy consumer instead of skipping it.
        consumer.answer("one")
        #expect(try await first.value == "one")
        #expect(try await consumer.take() == 2)
        consumer.answer("two")
        #expect(try await second.value == "two")
    }
}
