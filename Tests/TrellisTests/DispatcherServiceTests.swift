import AsyncDispatcher
import Testing
import Trellis

/// The seed's CounterStore as a cluster target; its state is `count`.
actor CountingStore: Dispatcher, StatefulModel {
    let pipeline = Pipeline()
    var middlewares: [any AsyncDispatcher.Middleware] = []
    var count = 0
    var state: Int { count }

    struct Increment: AsyncDispatcher.Action {
        var value = 1
        func execute(with store: isolated CountingStore) async { store.count += value }
    }

    struct IncrementByThree: AsyncDispatcher.Action {
        func execute(with store: isolated CountingStore) async throws {
            for _ in 0..<3 { try await store.execute(Increment()) }
        }
    }

    struct Overflow: AsyncDispatcher.Action, Error {
        func execute(with store: isolated CountingStore) async throws { throw self }
    }
}

@Suite(.timeLimit(.minutes(1)))
struct DispatcherServiceTests {
    @Test func clusterSendDispatchesToAMountedDispatcherAndWaitsForIt() async throws {
        let store = CountingStore()
        let cluster = try await Bootstrap {
            store.service(actions: [CountingStore.Increment.self, CountingStore.IncrementByThree.self]).named("counter")
        }
        try await cluster.send(action: CountingStore.Increment(value: 2))
        try await cluster.send(action: CountingStore.IncrementByThree())
        #expect(await store.count == 5)
    }

    @Test func anActionsErrorReachesTheSender() async throws {
        let cluster = try await Bootstrap { CountingStore().service(actions: [CountingStore.Overflow.self]) }
        await #expect(throws: CountingStore.Overflow.self) { try await cluster.send(action: CountingStore.Overflow()) }
    }

    @Test func actionsOfAnotherDispatcherAreNotTaken() async throws {
        let cluster = try await Bootstrap { CountingStore().service(actions: []) }
        await #expect(throws: TrellisError.unhandledAction(type: "Increment")) {
            try await cluster.send(action: CounterStoreOfAnotherKind.Increment())
        }
    }

    @Test func observersSeeTheDispatchersStateChangeOncePerSend() async throws {
        let cluster = try await Bootstrap { CountingStore().service(actions: [CountingStore.IncrementByThree.self]).named("counter") }
        let observation = cluster.observe()
        try await cluster.send(action: CountingStore.IncrementByThree())
        var changes: [String] = []
        for await record in observation {
            if case .stateChanged(let source, let old, let new) = record.kind { changes.append("\(source): \(old) → \(new)") }
            if case .sent = record.kind, !changes.isEmpty { break }
            if changes.count == 1 { break }
        }
        #expect(changes == ["counter: 0 → 3"])
    }

    @Test func theDispatcherIsATargetWithItsActionTypesAndState() async throws {
        let cluster = try await Bootstrap {
            CountingStore().service(actions: [CountingStore.Increment.self, CountingStore.IncrementByThree.self]).named("counter")
        }
        try await cluster.send(action: CountingStore.Increment(value: 7))
        let target = try #require(cluster.target(named: "counter"))
        #expect(target.kind == .dispatcher)
        #expect(target.accepts.map { "\($0)" } == ["Increment", "IncrementByThree"])
        #expect(await target.state?() as? Int == 7)
    }
}

/// Another dispatcher with an action of the same name.
actor CounterStoreOfAnotherKind: Dispatcher {
    let pipeline = Pipeline()
    var middlewares: [any AsyncDispatcher.Middleware] = []

    struct Increment: AsyncDispatcher.Action {
        func execute(with store: isolated CounterStoreOfAnotherKind) async {}
    }
}
