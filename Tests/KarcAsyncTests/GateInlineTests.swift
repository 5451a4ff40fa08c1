import KarcSynchronization
import Synchronization
import TestSupport
import Testing

@testable import KarcAsync

/// A consumer that answers in its producers' tasks while it waits (as a duplex
/// pipe does), and records what came out of its own `next()` instead.
private final class InlineConsumer: Sendable {
    let consumer: SourceConsumer<Int, String>
    let taken = Recorder<Int>()
    private let loop = KarcMutex<Task<Void, Never>?>(nil)
    let ended = Locked<(any Error)?>(nil)

    init(_ gate: IntGate, handler: @escaping InlineHandler<Int, String>) {
        consumer = gate.makeConsumer(consumerId: GateIdentifier.next(), spec: .all, instantOutput: nil)
        #expect(consumer.answerInline(with: handler))
        let task = Task { [consumer, taken, ended] in
            do {
                var delivery = try await consumer.next()
                while let current = delivery {
                    taken.record(current.input)
                    let answer = await handler(current)
                    delivery = try await consumer.replyAndNext(to: current, with: answer.result)
                }
            } catch {
                ended.withLock { $0 = error }
            }
        }
        loop.withLock { $0 = task }
    }

    func stop() async {
        let task = loop.withLock { $0 }
        task?.cancel()
        await task?.value
    }

    func finished() async {
        await loop.withLock { $0 }?.value
    }
}

@TaskLocal private var producerName = "none"

/// A door a handler waits at until the test opens it (or the wait is cancelled).
private struct Door {
    let gate = Gate<Int, Void>(mode: .cumulative, scheme: .anycast)
    func pass() async throws { try await gate.receive(instantOutput: ()) }
    func open() { Task { try await gate.send(0) } }
}

@Suite(.timeLimit(.minutes(1))) struct GateInlineTests {
    /// Returns once the gate's consumer waits for its next value.
    private func waiting(_ gate: IntGate) async {
        await gate.until { $0.consumers.values.first?.waiter != nil }
    }

    /// Returns once the gate's consumer runs a value inline.
    private func running(_ gate: IntGate) async {
        await gate.until { $0.consumers.values.first?.inlineRun != nil }
    }

    /// A consumer whose every run waits at `door`: "passed" once it opens;
    /// when the wait fails (cancelled), the failure `failing` makes of its error.
    private func behind(_ door: Door, on gate: IntGate, failing: @escaping @Sendable (any Error) -> any Error = { $0 }) -> InlineConsumer {
        InlineConsumer(gate) { _ in
            do {
                try await door.pass()
                return (result: .success("passed"), stop: nil)
            } catch {
                return (result: .failure(failing(error)), stop: nil)
            }
        }
    }

    @Test func anIdleConsumerAnswersInTheProducersOwnTask() async throws {
        let gate = IntGate(mode: .transient, scheme: .anycast)
        let consumer = InlineConsumer(gate) { delivery in (result: .success("\(delivery.input) by \(producerName)"), stop: nil) }
        await waiting(gate)
        let answer = try await $producerName.withValue("the producer") { try await gate.send(7) }
        #expect(answer == "7 by the producer")
        #expect(consumer.taken.values.isEmpty)
        await consumer.stop()
    }

    @Test func aConsumerBusyWithAnInlineRunIsNotOfferedAnotherValue() async throws {
        let gate = IntGate(mode: .transient, scheme: .anycast)
        let door = Door()
        let consumer = InlineConsumer(gate) { delivery in
            do { try await door.pass() } catch { return (result: .failure(error), stop: nil) }
            return (result: .success("\(delivery.input)"), stop: nil)
        }
        await waiting(gate)
        let first = Task { try await gate.send(1) }
        await running(gate)
        let error = await #expect(throws: GateError.self) { try await gate.send(2) }
        guard case .noReadyConsumer = error else { return #expect(Bool(false), "got \(String(describing: error))") }
        door.open()
        #expect(try await first.value == "1")
        await waiting(gate)
        await consumer.stop()
    }

    @Test func aValueQueuedDuringAnInlineRunComesOutOfNextAfterIt() async throws {
        let gate = IntGate(mode: .cumulative, scheme: .anycast)
        let door = Door()
        let consumer = InlineConsumer(gate) { delivery in
            if delivery.input == 1 {
                do { try await door.pass() } catch { return (result: .failure(error), stop: nil) }
            }
            return (result: .success("\(delivery.input)"), stop: nil)
        }
        await waiting(gate)
        let first = Task { try await gate.send(1) }
        await running(gate)
        let second = Task { try await gate.send(2) }
        await gate.until { $0.supplies.count == 1 }
        #expect(consumer.taken.values.isEmpty)
        door.open()
        #expect(try await first.value == "1")
        #expect(try await second.value == "2")
        // The queued value went the usual way: through the consumer's own `next()`.
        #expect(consumer.taken.values == [2])
        await consumer.stop()
    }

    @Test func stoppingTheConsumerCancelsItsInlineRunAndEndsItsWaitAfterTheRun() async throws {
        let gate = IntGate(mode: .transient, scheme: .anycast)
        let door = Door()
        let cancelled = Locked(false)
        let consumer = behind(door, on: gate) { _ in
            cancelled.withLock { $0 = Task.isCancelled }
            return Boom()
        }
        await waiting(gate)
        let send = Task { try await gate.send(1) }
        await running(gate)
        await consumer.stop()
        // The producer has the run's own answer, given once its wait was cancelled.
        await #expect(throws: Boom()) { try await send.value }
        #expect(cancelled.value)
        guard case .canceledConsumer = consumer.ended.value as? GateError else {
            return #expect(Bool(false), "the consumer ended with \(String(describing: consumer.ended.value))")
        }
    }

    @Test func cancellingTheProducerCancelsItsInlineRun() async throws {
        let gate = IntGate(mode: .transient, scheme: .anycast)
        let door = Door()
        let consumer = behind(door, on: gate) { _ in Boom() }
        await waiting(gate)
        let send = Task { try await gate.send(1) }
        await running(gate)
        send.cancel()
        await #expect(throws: Boom()) { try await send.value }
        // The consumer goes on: idle again, it answers the next producer.
        await waiting(gate)
        door.open()
        #expect(try await gate.send(2) == "passed")
        await consumer.stop()
    }

    @Test func sealingLetsTheInlineRunFinishThenEndsTheConsumer() async throws {
        let gate = IntGate(mode: .transient, scheme: .anycast)
        let door = Door()
        let consumer = behind(door, on: gate)
        await waiting(gate)
        let send = Task { try await gate.send(1) }
        await running(gate)
        gate.seal(Boom())
        #expect(consumer.ended.value == nil)
        door.open()
        #expect(try await send.value == "passed")
        await consumer.finished()
        #expect(consumer.ended.value as? Boom == Boom())
    }

    @Test func anAnswerThatStopsTheConsumerEndsItsWaitWithThatError() async throws {
        let gate = IntGate(mode: .transient, scheme: .anycast)
        let consumer = InlineConsumer(gate) { _ in (result: .failure(Boom()), stop: Boom()) }
        await waiting(gate)
        await #expect(throws: Boom()) { try await gate.send(1) }
        await consumer.finished()
        #expect(consumer.ended.value as? Boom == Boom())
    }

    @Test func aConsumerBetweenValuesTakesTheNextOneTheUsualWay() async throws {
        let gate = IntGate(mode: .cumulative, scheme: .anycast)
        // Values sent before the consumer first waits wait in its inbox, and its loop answers them.
        let early = Task { try await gate.send(5) }
        await gate.until { $0.supplies.count == 1 }
        let consumer = InlineConsumer(gate) { delivery in (result: .success("\(delivery.input)"), stop: nil) }
        #expect(try await early.value == "5")
        #expect(consumer.taken.values == [5])
        await consumer.stop()
    }

    @Test func anInlineAnswerOfNilOnAGateOfOptionalsIsTheProducersAnswer() async throws {
        let gate = Gate<Int, String?>(mode: .transient, scheme: .anycast)
        let consumer = gate.makeConsumer(consumerId: GateIdentifier.next(), spec: .all, instantOutput: nil)
        #expect(consumer.answerInline { _ in (result: .success(nil), stop: nil) })
        // A value that reached the loop would never be answered: the send must be answered inline.
        let loop = Task { _ = try? await consumer.next() }
        await gate.until { $0.consumers.values.first?.waiter != nil }
        #expect(try await gate.send(1) == nil)
        loop.cancel()
        await loop.value
    }

    @Test func multicastNeverAnswersInline() async throws {
        let gate = IntGate(mode: .transient, scheme: .multicast(combiner: { $0.joined(separator: "+") }))
        let consumer = InlineConsumer(gate) { delivery in (result: .success("\(delivery.input)"), stop: nil) }
        await waiting(gate)
        #expect(try await gate.send(4) == "4")
        #expect(consumer.taken.values == [4])
        await consumer.stop()
    }
}
