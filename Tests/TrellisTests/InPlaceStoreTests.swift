import TestSupport
import Testing
import Trellis

/// A value store's handler that cannot suspend changes the model where it
/// lies: a change costs what it changes, not a copy of the whole model.
@Suite(.timeLimit(.minutes(1)))
struct InPlaceStoreTests {
    struct Big: Equatable, Sendable { var items: [Int] }
    struct Bump: Sendable { let index: Int }
    struct Hold: Sendable {}

    /// Where the store's items are stored now (the state read is let go before it returns).
    func storage(of cluster: Cluster) async -> UInt? {
        let big = await cluster.target(named: "big")?.state?() as? Big
        return big?.items.withUnsafeBufferPointer { $0.baseAddress.map { UInt(bitPattern: $0) } }
    }

    @Test func aHandlerWithNoAwaitChangesTheModelWithoutCopyingIt() async throws {
        let cluster = try await Bootstrap {
            Store(model: Big.self)
                .mutate(on: Bump.self) { big, bump, _ in big.items[bump.index] += 1 }
                .with(model: Big(items: Array(repeating: 0, count: 10_000)))
                .named("big")
        }
        // The first change copies once: the value `.with(model:)` gave is kept too (for `cluster.reset()`).
        try await cluster.send(action: Bump(index: 0))
        let before = await storage(of: cluster)
        for index in 1..<100 { try await cluster.send(action: Bump(index: index)) }
        #expect(await storage(of: cluster) == before, "the same storage: no copy was made")
        let big = await cluster.target(named: "big")?.state?() as? Big
        #expect(big?.items.prefix(101) == ArraySlice(Array(repeating: 1, count: 100) + [0]))
    }

    @Test func anObserverStillSeesTheOldStateAndTheNew() async throws {
        let cluster = try await Bootstrap {
            Store(model: Big.self)
                .mutate(on: Bump.self) { big, bump, _ in big.items[bump.index] += 1 }
                .with(model: Big(items: [0, 0, 0]))
                .named("big")
        }
        let observation = cluster.observe()
        try await cluster.send(action: Bump(index: 1))
        var records = observation.makeAsyncIterator()
        var change: (source: String, old: any Sendable, new: any Sendable)?
        while change == nil, let record = await records.next() {
            if case .stateChanged(let source, let old, let new) = record.kind { change = (source, old, new) }
        }
        guard let (source, old, new) = change else {
            Issue.record("no change reported")
            return
        }
        #expect(source == "big")
        #expect(old as? Big == Big(items: [0, 0, 0]))
        #expect(new as? Big == Big(items: [0, 1, 0]))
    }

    @Test func itWaitsItsTurnBehindAHandlerThatSuspended() async throws {
        let latch = Latch()
        let cluster = try await Bootstrap {
            Store(model: Big.self)
                .mutate(on: Hold.self) { big, _, _ in
                    await latch.wait()
                    big.items.append(1)
                }
                .mutate(on: Bump.self) { big, bump, _ in big.items.append(bump.index * 10) }
                .with(model: Big(items: []))
                .named("big")
        }
        let held = Task { try await cluster.send(action: Hold()) }
        // Polls: the latch's waiters, counted, have no hook of their own.
        #expect(await eventually { await latch.waiterCount == 1 })
        let bumped = Task { try await cluster.send(action: Bump(index: 2)) }
        await latch.open()
        try await held.value
        try await bumped.value
        #expect(await cluster.target(named: "big")?.state?() as? Big == Big(items: [1, 20]))
    }
}
