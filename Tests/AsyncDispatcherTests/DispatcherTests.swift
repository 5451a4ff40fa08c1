import AsyncDispatcher
import Testing

@Suite(.timeLimit(.minutes(1)))
struct DispatcherTests {
    @Test func theSeedExampleCountsEleven() async throws {
        let counterStore = CounterStore()

        async let one: Void = counterStore.dispatch(CounterStore.Increment())
        async let ten: Void = counterStore.dispatch(CounterStore.Increment(value: 10))
        _ = try await [one, ten]

        #expect(await counterStore.count == 11)
    }

    @Test func anActionComposesOthersWithExecute() async throws {
        let store = CounterStore()
        try await store.dispatch(CounterStore.IncrementByThree())
        #expect(await store.count == 3)
    }

    @Test func dispatchReturnsOnlyOnceTheActionHasRun() async throws {
        let store = CounterStore()
        try await store.dispatch(CounterStore.Slow(name: "a"))
        #expect(await store.log == ["a start", "a end"])
    }

    @Test func queuedActionsRunOneAtATimeInTheOrderTheyWereQueued() async throws {
        let store = CounterStore()
        for name in ["a", "b", "c", "d"] { store.enqueue(CounterStore.Slow(name: name)) }
        try await store.dispatch(CounterStore.Slow(name: "e"))

        #expect(await store.log == ["a", "b", "c", "d", "e"].flatMap { ["\($0) start", "\($0) end"] })
        #expect(await store.maxRunning == 1)
    }

    @Test func dispatchesFromManyTasksNeverOverlap() async throws {
        let store = CounterStore()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<200 {
                group.addTask { try await store.dispatch(CounterStore.Slow(name: "\(i)")) }
            }
            try await group.waitForAll()
        }
        #expect(await store.maxRunning == 1)
        #expect(await store.log.count == 400)
        #expect(!store.isDispatching)
    }

    @Test func dispatchRethrowsTheActionsErrorAndTheQueueGoesOn() async throws {
        let store = CounterStore()
        store.enqueue(CounterStore.Increment())
        await #expect(throws: CounterStore.Fail.Refused()) {
            try await store.dispatch(CounterStore.Fail())
        }
        try await store.dispatch(CounterStore.Increment())
        #expect(await store.count == 2)
    }

    @Test func dispatchingFromInsideAnActionToItsOwnDispatcherFailsInsteadOfHanging() async throws {
        let store = CounterStore()
        let error = await #expect(throws: DispatcherError.self) {
            try await store.dispatch(CounterStore.DispatchInside())
        }
        #expect(error?.description.contains("would wait for itself") == true)
        #expect(error?.description.contains("DispatchInside") == false)
        #expect(error?.description.contains("Increment") == true)
        // The dispatcher is not stuck.
        try await store.dispatch(CounterStore.Increment())
        #expect(await store.count == 1)
    }

    @Test func aDeactivatedDispatcherHoldsActionsUntilActivated() async throws {
        let store = CounterStore()
        store.deactivate()
        #expect(!store.isActive)
        store.enqueue(CounterStore.Slow(name: "a"))
        let waiting = Task { try await store.dispatch(CounterStore.Slow(name: "b")) }
        while store.pipeline.count < 2 { await Task.yield() }
        #expect(await store.log.isEmpty)

        store.activate()
        try await waiting.value
        #expect(await store.log == ["a start", "a end", "b start", "b end"])
    }

    @Test func deactivatingLetsTheRunningActionFinish() async throws {
        let store = CounterStore()
        let running = Task { try await store.dispatch(CounterStore.Slow(name: "a")) }
        while await store.log.isEmpty { await Task.yield() }
        store.deactivate()
        try await running.value
        #expect(await store.log == ["a start", "a end"])
        store.activate()
    }
}
