import Karc
import TestSupport
import Testing
import Trellis
import TrellisTesting

@Suite(.timeLimit(.minutes(1)))
struct ClusterTests {
    /// Reads records until `count` arrived (or the cluster settled and nothing more comes).
    func records(_ observation: ClusterObservation, count: Int) async -> [ClusterRecord] {
        var seen: [ClusterRecord] = []
        for await record in observation {
            seen.append(record)
            if seen.count == count { break }
        }
        return seen
    }

    @Test func aModelServiceAnswersWithTheDomainsReply() async throws {
        let store = try await ClusterTestStore { _ in
            try await Bootstrap {
                KarcCounter.service(.init(environ: Environ()), commands: [Increment.self, Relay.self]).named("counter")
            }
        }
        #expect(try await store.send(Increment(by: 2)) as? Int == 2)
        await store.receive(CounterEvent.added(2))
        #expect(try await store.send(Increment(by: 3)) as? Int == 5)
        await store.receive(CounterEvent.added(5))
        store.assert("counter", as: Counter.self) { $0.count = 5 }
        // The model is in the cluster's own pool, not the process's.
        #expect(await CounterDomain.getOrNil == nil)
        await store.finish()
        // Shut down, the cluster has torn its model down: its state reads as a new one's.
        #expect(await store.cluster.target(named: "counter")?.state?() as? Counter == Counter())
    }

    @Test func observersSeeTheSendTheEventsTheStateChangeAndTheReplyInOrder() async throws {
        let cluster = try await Bootstrap {
            KarcCounter.service(.init(environ: Environ())).named("counter")
        }
        let observation = cluster.observe()
        try await cluster.send(action: Increment(by: 4))
        let seen = await records(observation, count: 4)
        guard seen.count == 4,
            case .sent(let sequence, let action, _) = seen[0].kind,
            case .emitted(let source, let event) = seen[1].kind,
            case .stateChanged(let changed, let old, let new) = seen[2].kind,
            case .replied(let replySequence, let reply) = seen[3].kind
        else {
            Issue.record("unexpected records: \(seen)")
            await cluster.shutDown()
            return
        }
        #expect(sequence == 1 && replySequence == 1)
        #expect(action is Increment)
        #expect(source == "counter" && changed == "counter")
        #expect(event as? CounterEvent == .added(4))
        #expect(old as? Counter == Counter(count: 0) && new as? Counter == Counter(count: 4))
        #expect(reply as? Int == 4)
        await cluster.shutDown()
    }

    @Test func aFailedSendIsRecordedWithItsError() async throws {
        let cluster = try await Bootstrap {
            Store(model: Tally.self).mutate(on: CounterAction.self) { _, _, _ in throw Boom() }.with(model: Tally())
        }
        let observation = cluster.observe()
        await #expect(throws: Boom()) { try await cluster.send(action: CounterAction.fail) }
        let seen = await records(observation, count: 2)
        guard case .failed(1, let error) = seen.last?.kind else {
            Issue.record("no failure in \(seen)")
            return
        }
        #expect(error as? Boom == Boom())
    }

    @Test func aSlowObserverLosesTheOldestRecordsAndIsToldHowMany() async throws {
        let cluster = try await Bootstrap {
            Store(model: Tally.self)
                .mutate(on: CounterAction.self) { tally, _, _ in tally.total += 1 }
                .with(model: Tally())
        }
        let observation = cluster.observe(bufferSize: 4)
        for _ in 0..<10 { try await cluster.send(action: CounterAction.add(1)) }
        // Each send makes two records (sent, state changed; no observer traces): 20 made, the newest 4 kept.
        let seen = await records(observation, count: 5)
        guard case .lost(let count) = seen.first?.kind else {
            Issue.record("no loss reported: \(seen)")
            return
        }
        #expect(count == 16)
        guard case .sent(let sequence, _, _) = seen[1].kind else {
            Issue.record("\(seen)")
            return
        }
        #expect(sequence == 9)
    }

    @Test func settledWaitsForAChainOfPipesStartedByOneSend() async throws {
        // A generous bound: `make tsan` runs every suite at once on two cores, and a passing run never waits for it.
        let store = try await ClusterTestStore(timeout: .seconds(60)) { _ in
            try await Bootstrap { KarcCounter.service(.init(environ: Environ())).named("counter") }
        }
        // Relay: the simplex send returns at once; pipe → effect → event → pipe → effect follows,
        // and the store's send returns once the cluster has settled.
        try await store.send(Relay())
        #expect(store.cluster.workInFlight == 0)
        await store.receive(CounterEvent.relayStarted)
        await store.receive(CounterEvent.relayFinished)
        store.assert("counter", as: Counter.self) { $0.relayed = 2 }
        await store.finish()
    }

    @Test func settledGivesUpAtATimeoutCountedFromItsCall() async throws {
        let (entered, release) = (Latch(), Latch())
        let cluster = try await Bootstrap {
            Store(model: Tally.self)
                .mutate(on: CounterAction.self) { _, _, _ in
                    await entered.open()
                    await release.wait()
                }
                .with(model: Tally())
        }
        let sending = Task { try await cluster.send(action: CounterAction.add(1)) }
        await entered.wait()
        let (looked, lookedAt) = AsyncStream.makeStream(of: Void.self)
        let clock = HandClock { lookedAt.yield() }
        async let settled = cluster.settled(timeout: .seconds(1), clock: clock)
        // Once the settle has read the time, the timeout passes, maybe before its timer's
        // task has started: it must not start counting only when that task runs.
        for await _ in looked { break }
        clock.advance(by: .seconds(1))
        #expect(await settled == false)
        await release.open()
        try await sending.value
        #expect(await cluster.settled(timeout: .seconds(60)))
        await cluster.shutDown()
    }

    @Test func settledWaitsForStartUpWorkInAFinitePipeButNotForAnInfiniteOne() async throws {
        let cluster = try await Bootstrap {
            Restorer.service(.init(environ: Environ())).named("restorer")
        }
        // A generous bound (make tsan runs every suite at once); a passing run returns as soon as it settles.
        #expect(await cluster.settled(timeout: .seconds(60)))
        #expect(await cluster.target(named: "restorer")?.state?() as? Restored == Restored(value: 42))
        await cluster.shutDown()
    }

    @Test func settledReturnsPromptlyWhenNothingIsInFlight() async throws {
        let cluster = try await Bootstrap {
            KarcCounter.service(.init(environ: Environ()))
        }
        try await cluster.send(action: Increment())
        let clock = ContinuousClock()
        let elapsed = try await clock.measure {
            let settled = await cluster.settled(timeout: .seconds(5))
            try #require(settled)
        }
        #expect(elapsed < .seconds(1))
        await cluster.shutDown()
    }

    @Test func theClusterDescribesItsTargets() async throws {
        let cluster = try await Bootstrap {
            KarcCounter.service(.init(environ: Environ()), commands: [Increment.self, Relay.self]).named("counter")
            Store(model: Tally.self)
                .mutate(on: CounterAction.self) { _, _, _ in }
                .with(model: Tally())
                .named("tally")
        }
        let targets = cluster.targets
        #expect(targets.map(\.name) == ["counter", "tally"])
        #expect(targets.map(\.kind) == [.model, .store])
        #expect(targets[0].accepts.map { "\($0)" } == ["Increment", "Relay"])
        #expect(targets[1].accepts.map { "\($0)" } == ["CounterAction"])
        #expect(await targets[1].state?() as? Tally == Tally())
        await cluster.shutDown()
    }

    @Test func aShutDownClusterRefusesSendsAndEndsObservers() async throws {
        let cluster = try await Bootstrap {
            KarcCounter.service(.init(environ: Environ()))
        }
        let observation = cluster.observe()
        await cluster.shutDown()
        await #expect(throws: TrellisError.shutDown) { try await cluster.send(action: Increment()) }
        var iterator = observation.makeAsyncIterator()
        // The failed send is still recorded; then the observation ends.
        while let record = await iterator.next() {
            guard case .sent = record.kind else { continue }
        }
        #expect(await iterator.next() == nil)
    }
}
