import Foundation
import KarcSynchronization
import Testing

@testable import KarcAsync

/// `Drain.send` runs on its caller's executor: a producer on the main actor
/// is answered by every kind of consumer, and a drain written with a plain
/// `async` send still conforms.
@Suite(.timeLimit(.minutes(1))) struct DrainIsolationTests {
    /// A drain of its own, as a user writes one: its `send` is a plain `async` function.
    struct Doubling: Drain {
        var isSealed: Bool { false }
        func send(producerId: UInt64, _ input: Int) async throws -> Int {
            await Task.yield()
            return input * 2
        }
    }

    @MainActor @Test func aProducerOnTheMainActorIsAnsweredByAConsumerInItsOwnTask() async throws {
        let gate = Gate<Int, String>(mode: .retainable, scheme: .anycast)
        let squares = gate.processor { "\($0 * $0)" }
        let loop = Task { for try await _ in squares {} }
        #expect(try await gate.send(3) == "9")
        #expect(try await gate.send(4) == "16")
        loop.cancel()
    }

    @MainActor @Test func aProducerOnTheMainActorIsAnsweredByAConsumerThatAnswersInlineOffTheMainThread() async throws {
        let gate = Gate<Int, String>(mode: .transient, scheme: .anycast)
        let consumer = gate.makeConsumer(consumerId: GateIdentifier.next(), spec: .all, instantOutput: nil)
        let onMain = Locked<[Bool]>([])
        #expect(
            consumer.answerInline { delivery in
                onMain.withLock { $0.append(Thread.isMainThread) }
                return (result: .success("\(delivery.input + 1)"), stop: nil)
            })
        let loop = Task { _ = try await consumer.next() }
        await gate.until { $0.consumers.values.first?.waiter != nil }
        #expect(try await gate.send(1) == "2")
        #expect(try await gate.send(2) == "3")
        // The consumer's work ran off the main thread, though its producer is on the main actor.
        #expect(onMain.withLock { $0 } == [false, false])
        loop.cancel()
    }

    @MainActor @Test func aDrainWithAPlainAsyncSendIsSentToThroughTheProtocol() async throws {
        func viaProtocol(_ drain: some Drain<Int, Int>) async throws -> Int { try await drain.send(21) }
        #expect(try await viaProtocol(Doubling()) == 42)
        let anyDrain: any Drain<Int, Int> = Doubling()
        #expect(try await anyDrain.send(5) == 10)
    }
}
