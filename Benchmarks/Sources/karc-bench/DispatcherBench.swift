import AsyncDispatcher

/// The seed's CounterStore, as the dispatcher benchmarks drive it.
actor BenchCounterStore: Dispatcher {
    let pipeline = Pipeline()
    var middlewares: [any Middleware] = []
    var count = 0
}

struct BenchIncrement: Action {
    func execute(with store: isolated BenchCounterStore) async { store.count += 1 }
}

/// `enqueue` n actions from one task without waiting, then await a last `dispatch`: the queue's throughput.
func dispatcherQueued(_ n: Int) async throws -> Double {
    try await rate(operations: n) {
        let store = BenchCounterStore()
        for _ in 0..<(n - 1) { store.enqueue(BenchIncrement()) }
        try await store.dispatch(BenchIncrement())
        let count = await store.count
        precondition(count == n)
    }
}

/// `dispatch` awaited one by one: each returns once its action has run.
func dispatcherAwaited(_ n: Int) async throws -> Double {
    try await rate(operations: n) {
        let store = BenchCounterStore()
        for _ in 0..<n { try await store.dispatch(BenchIncrement()) }
        let count = await store.count
        precondition(count == n)
    }
}
