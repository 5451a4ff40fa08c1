import Karc
import KarcAsync
import Testing
import Trellis

/// An actor model that knows how to start over.
actor Visits: StatefulModel, ResettableModel {
    var state = 0
    func visit() { state += 1 }
    func reset() { state = 0 }
}

/// An actor model that does not: a reset leaves it alone.
actor Ledger: StatefulModel {
    var state = 0
    func add() { state += 1 }
}

struct Visit: Action {}
struct ResetFromHandler: Action {}

/// A receiving service (Trellis classic) that starts over on a reset.
actor Turnstile: ReceivingService, StatefulModel, ResettableModel {
    var state = 0
    func receive(_ action: Visit) async throws -> ActionFlow<Visit> {
        state += 1
        return .noop
    }
    func reset() { state = 0 }
}

/// `cluster.reset()` puts every service back as Bootstrap left it.
@Suite(.timeLimit(.minutes(1))) struct ClusterResetTests {
    func resettableCluster() async throws -> Cluster {
        try await Bootstrap {
            Store(model: Tally.self)
                .mutate(on: CounterAction.self) { tally, action, _ in
                    if case .add(let n) = action { tally.total += n }
                }
                .mutate(on: ResetFromHandler.self) { tally, _, send in
                    tally.total += 1000
                    try await send(ResetCluster())  // this store resets once the handler has returned
                }
                .with(model: Tally(total: 5))
                .named("tally")
            Store(model: Visits.self).mutate(on: Visit.self) { visits, _, _ in visits.visit() }.with(model: Visits()).named("visits")
            Store(model: Ledger.self).mutate(on: Visit.self) { ledger, _, _ in ledger.add() }.with(model: Ledger()).named("ledger")
            KarcCounter.service(.init(environ: Environ())).named("counter")
        }
    }

    func state(_ cluster: Cluster, _ target: String) async -> (any Sendable)? {
        await cluster.target(named: target)?.state?()
    }

    @Test func everyServiceStartsOverAndObserversSeeTheChanges() async throws {
        let cluster = try await resettableCluster()
        try await cluster.send(action: CounterAction.add(3))
        try await cluster.send(action: Visit())
        try await cluster.send(action: Increment(by: 4))
        #expect(await state(cluster, "tally") as? Tally == Tally(total: 8))

        let observation = cluster.observe()
        try await cluster.reset()
        #expect(await state(cluster, "tally") as? Tally == Tally(total: 5))  // the value .with(model:) gave
        #expect(await state(cluster, "visits") as? Int == 0)
        #expect(await state(cluster, "ledger") as? Int == 1)  // not a ResettableModel: left as it was
        #expect(await state(cluster, "counter") as? Counter == Counter())  // torn down and set up again
        #expect(cluster.history.isEmpty)

        var changed: [String] = []
        for await record in observation {
            if case .stateChanged(let source, _, _) = record.kind { changed.append(source) }
            if changed.count == 3 { break }
        }
        #expect(changed == ["tally", "visits", "counter"])  // declaration order
        // The reset model takes commands again.
        #expect(try await cluster.send(action: Increment(by: 2)) as? Int == 2)
        await cluster.shutDown()
    }

    @Test func aResetSentFromAStoresOwnHandlerWaitsForTheHandler() async throws {
        let cluster = try await resettableCluster()
        try await cluster.send(action: ResetFromHandler())
        #expect(await state(cluster, "tally") as? Tally == Tally(total: 5))
        await cluster.shutDown()
    }

    @Test func theTargetsAResetLeavesAsTheyAreAreNamedBeforehand() async throws {
        let cluster = try await resettableCluster()
        #expect(cluster.resettableTargets == ["tally", "visits", "counter"])
        #expect(cluster.unresettableTargets == ["ledger"])  // an actor model that is no ResettableModel
        await cluster.shutDown()
    }

    @Test func aReceivingServiceThatIsAResettableModelResets() async throws {
        let cluster = try await Bootstrap { Turnstile().named("turnstile") }
        try await cluster.send(action: Visit())
        #expect(await state(cluster, "turnstile") as? Int == 1)
        #expect(cluster.unresettableTargets.isEmpty)
        try await cluster.reset()
        #expect(await state(cluster, "turnstile") as? Int == 0)
        await cluster.shutDown()
    }

    @Test func aShutDownClusterCannotBeReset() async throws {
        let cluster = try await resettableCluster()
        await cluster.shutDown()
        await #expect(throws: TrellisError.shutDown) { try await cluster.reset() }
    }
}
