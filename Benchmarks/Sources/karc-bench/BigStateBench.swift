import Trellis

/// A value model of 10,000 numbers: what a store of a user's list looks like.
struct BigState: Equatable, Sendable {
    var items = Array(repeating: 0, count: 10_000)
}

/// Adds one to one number.
struct BigBump: Sendable {
    let index: Int
}

/// `cluster.send.store.big*`: sends to a value store of a ``BigState``, each
/// changing one of its 10,000 numbers, `observed` (one observer draining)
/// or not. `suspending`: the handler is `async` (it may suspend), so the
/// store changes a copy taken out of its cell, as it does for such a
/// handler; else it is one with no `await`, changed in place.
func clusterSendBigStore(_ n: Int, observed: Bool, suspending: Bool) async throws -> Double {
    let store =
        suspending
        ? Store(model: BigState.self).mutate(on: BigBump.self) { (state: inout BigState, bump: BigBump, _: Send) async in
            state.items[bump.index % 10_000] += 1
        }
        : Store(model: BigState.self).mutate(on: BigBump.self) { state, bump, _ in state.items[bump.index % 10_000] += 1 }
    let cluster = try await Bootstrap { store.with(model: BigState()) }
    let observation = observed ? cluster.observe() : nil
    let observer = Task { if let observation { for await _ in observation {} } }
    let result = try await rate(operations: n) {
        for index in 0..<n { try await cluster.send(action: BigBump(index: index)) }
    }
    await cluster.shutDown()
    observation?.cancel()
    await observer.value
    return result
}

/// The state of `cluster.send.store.value`: ReSwift's shape, a small `Equatable` struct.
struct CountState: Equatable, Sendable {
    var count = 0
}

/// `cluster.send.store.value`: `cluster.send.store` with the state a value
/// (``CountState``, changed in place by a handler with no `await`) where
/// `cluster.send.store`'s is an actor model: the shape ReSwift's store has
/// (a struct state and a reducer), one observer draining the records.
func clusterSendValueStore(_ n: Int) async throws -> Double {
    let cluster = try await Bootstrap {
        Store(model: CountState.self).mutate(on: BenchAdd.self) { state, add, _ in state.count += add.n }.with(model: CountState())
    }
    let observation = cluster.observe()
    let observer = Task { for await _ in observation {} }
    let result = try await rate(operations: n) {
        for _ in 0..<n { try await cluster.send(action: BenchAdd(n: 1)) }
    }
    await cluster.shutDown()
    await observer.value
    return result
}
