import KarcSynchronization
import Synchronization
import TestSupport
import Testing

@testable import KarcAsync

@Suite(.serialized, .timeLimit(.minutes(1))) struct StreamHelperTests {
    @Test func collectEmitsOneBatchPerTickEmptyOrNot() async throws {
        let clock = HandClock()
        let (source, input) = AsyncStream<Int>.makeStream()
        let counted = PullCounting(base: source)
        let batches = counted.collect(interval: .seconds(10), clock: clock)
        let seen = Locked<[[Int]]>([])
        let reader = Task {
            for try await batch in batches { seen.withLock { $0.append(batch) } }
        }
        input.yield(1)
        input.yield(2)
        // The third pull starts only after 1 and 2 were added to the batch.
        // Polls: a plain AsyncStream's pulls, counted by the test's wrapper, have no hook.
        #expect(await eventually { counted.pulls >= 3 })
        clock.advance(by: .seconds(10))
        // Polls: the batch is delivered by a task on the shared pool once the hand clock moves.
        #expect(await eventually { seen.value.count == 1 })
        #expect(seen.value == [[1, 2]])
        // A quiet interval still ticks, with an empty batch.
        clock.advance(by: .seconds(10))
        // Polls: as above, the empty batch comes from a task on the shared pool.
        #expect(await eventually { seen.value.count == 2 })
        #expect(seen.value == [[1, 2], []])
        // Ending the source flushes what is left and ends the stream.
        input.yield(3)
        input.finish()
        try await reader.value
        #expect(seen.value == [[1, 2], [], [3]])
    }

    @Test func collectTicksOnAClockKnownOnlyAsAnExistential() async throws {
        let clock = HandClock()
        let existential: any Clock<Duration> = clock  // as a model's `environ.clock` is
        let (source, input) = AsyncStream<Int>.makeStream()
        let counted = PullCounting(base: source)
        let batches = counted.collect(interval: .seconds(10), clock: existential)
        let seen = Locked<[[Int]]>([])
        let reader = Task {
            for try await batch in batches { seen.withLock { $0.append(batch) } }
        }
        input.yield(7)
        // Polls: a plain AsyncStream's pulls, counted by the test's wrapper, have no hook.
        #expect(await eventually { counted.pulls >= 2 })
        clock.advance(by: .seconds(10))
        // Polls: the batch is delivered by a task on the shared pool once the hand clock moves.
        #expect(await eventually { seen.value.count == 1 })
        #expect(seen.value == [[7]])
        input.finish()
        try await reader.value
    }

    @Test func collectRethrowsTheSourceErrorAfterFlushing() async throws {
        let (source, input) = AsyncThrowingStream<Int, any Error>.makeStream()
        let batches = source.collect(interval: .seconds(3600), clock: HandClock())
        input.yield(1)
        input.finish(throwing: Boom())
        var seen: [[Int]] = []
        await #expect(throws: Boom.self) {
            for try await batch in batches { seen.append(batch) }
        }
        #expect(seen == [[1]])
    }

    @Test func iterateAndEraseFlattenBatches() async throws {
        let batches = [[1, 2], [], [3]].async
        let flat = batches.flatMap { iterate(elements: $0) }*!
        var seen: [Int] = []
        for try await x in flat { seen.append(x) }
        #expect(seen == [1, 2, 3])
        var runs = 0
        for await _ in iterate(count: 3) { runs += 1 }
        #expect(runs == 3)
    }

    @Test func senderSendsEachValueAndYieldsEachAnswer() async throws {
        let gate = Gate<Int, Int>(mode: .retainable, scheme: .anycast)
        let squares = gate.processor { $0 * $0 }
        let loop = Task { for try await _ in squares {} }
        let answers = gate.sender(provider: [1, 2, 3].async*!)
        var seen: [Int] = []
        for try await a in answers { seen.append(a) }
        #expect(seen == [1, 4, 9])
        loop.cancel()
    }

    @Test func asyncLockRunsSectionsOneAtATimeInArrivalOrder() async throws {
        let lock = AsyncLock()
        let log = Locked<[String]>([])
        await withTaskGroup(of: Void.self) { group in
            for i in 0..<20 {
                group.addTask {
                    await lock.withLock {
                        log.withLock { $0.append("in \(i)") }
                        await Task.yield()
                        log.withLock { $0.append("out \(i)") }
                    }
                }
            }
        }
        let entries = log.withLock { $0 }
        #expect(entries.count == 40)
        for pair in stride(from: 0, to: 40, by: 2) {
            #expect(entries[pair].dropFirst(3) == entries[pair + 1].dropFirst(4))
        }
    }
}
