import TestSupport
import Testing
import Trellis

/// A store's handler may send any action, to its own store included, and a
/// transformed error may fail again: every send ends (issue: no hang in the
/// documented patterns). Each test runs under a deadline, so a hang fails
/// with a message instead of holding the run.
@Suite(.timeLimit(.minutes(1)))
struct ReentrantSendTests {
    struct Count: Equatable, Sendable { var n = 0 }
    actor CountActor: StatefulModel {
        var n = 0
        var state: Int { n }
        func add(_ k: Int) { n += k }
    }
    struct First: Action {}
    struct Second: Action {}
    struct Nudge: Action {}
    struct Again: Action {}
    struct BoomError: Error, Equatable {}
    struct SecondFailed: Error, Equatable {}

    /// Redirects each `Nudge` to a `Second`.
    struct NudgeToSecond: Middleware {
        func pre(action: Nudge) -> Rewrite<Second> { .redirect(to: .single(action: Second())) }
    }

    /// The issue's first shape: a value store whose `First` handler sends `Second` to itself.
    func selfSending() async throws -> Cluster {
        try await Bootstrap {
            Store(model: Count.self)
                .mutate(on: First.self) { c, _, send in
                    c.n += 1
                    try await send(Second())
                }
                .mutate(on: Second.self) { c, _, _ in c.n += 10 }
                .with(model: Count())
                .named("count")
        }
    }

    @Test func aValueHandlerThatSendsToItsOwnStoreEndsAndTheFollowUpIsApplied() async throws {
        let cluster = try await selfSending()
        try await withDeadline("send(First()) to a value store that sends Second to itself") {
            try await cluster.send(action: First())
        }
        #expect(await cluster.target(named: "count")?.state?() as? Count == Count(n: 11))
        // The store is alive: later sends go through.
        try await withDeadline("a later send") { try await cluster.send(action: First()) }
        #expect(await cluster.target(named: "count")?.state?() as? Count == Count(n: 22))
    }

    @Test func observersSeeTheHandlersChangeThenTheFollowUps() async throws {
        let cluster = try await selfSending()
        let observation = cluster.observe()
        try await withDeadline("send(First()) observed") { try await cluster.send(action: First()) }
        var changes: [String] = []
        for await record in observation {
            if case .stateChanged(_, let old, let new) = record.kind { changes.append("\(old) → \(new)") }
            if changes.count == 2 { break }
        }
        #expect(changes == ["Count(n: 0) → Count(n: 1)", "Count(n: 1) → Count(n: 11)"])
    }

    @Test func theFollowUpRunsAfterTheHandlersChangeIsCommitted() async throws {
        let seen = Recorder<Int>()
        let cluster = try await Bootstrap {
            Store(model: Count.self)
                .mutate(on: First.self) { c, _, send in
                    c.n = 1
                    try await send(Second())
                    c.n = 2  // Still this handler's change: Second has not run yet.
                }
                .mutate(on: Second.self) { c, _, _ in
                    seen.append(c.n)
                    c.n += 10
                }
                .with(model: Count())
                .named("count")
        }
        try await withDeadline("send(First())") { try await cluster.send(action: First()) }
        #expect(seen.all == [2])
        #expect(await cluster.target(named: "count")?.state?() as? Count == Count(n: 12))
    }

    @Test func anActorHandlerThatSendsToItsOwnStoreEnds() async throws {
        let model = CountActor()
        let cluster = try await Bootstrap {
            Store(model: CountActor.self)
                .mutate(on: First.self) { c, _, send in
                    c.add(1)
                    try await send(Second())
                }
                .mutate(on: Second.self) { c, _, _ in c.add(10) }
                .with(model: model)
        }
        try await withDeadline("send(First()) to an actor store") { try await cluster.send(action: First()) }
        #expect(await model.n == 11)
    }

    @Test func aSendToItsOwnStoreThroughAMiddlewareRedirectEnds() async throws {
        let model = CountActor()
        let cluster = try await Bootstrap {
            Group {
                Store(model: Count.self)
                    .mutate(on: First.self) { c, _, send in
                        c.n += 1
                        try await send(Nudge())
                    }
                    .mutate(on: Second.self) { c, _, _ in c.n += 10 }
                    .with(model: Count())
                    .named("value")
                Store(model: CountActor.self)
                    .mutate(on: First.self) { c, _, send in
                        c.add(1)
                        try await send(Nudge())
                    }
                    .mutate(on: Second.self) { c, _, _ in c.add(10) }
                    .with(model: model)
            }
            .middleware(NudgeToSecond())
        }
        try await withDeadline("send(First()) redirected back to its stores") { try await cluster.send(action: First()) }
        // Each First sends one Nudge per store, and each Nudge reaches both stores as Second.
        #expect(await cluster.target(named: "value")?.state?() as? Count == Count(n: 21))
        #expect(await model.n == 21)
    }

    @Test func twoValueStoresThatSendToEachOtherEnd() async throws {
        let cluster = try await Bootstrap {
            Group {
                Store(model: Count.self)
                    .mutate(on: First.self) { c, _, send in
                        c.n += 1
                        try await send(Nudge())
                    }
                    .mutate(on: Second.self) { c, _, _ in c.n += 100 }
                    .with(model: Count())
                    .named("a")
                Store(model: Count.self)
                    .mutate(on: Nudge.self) { c, _, send in
                        c.n += 1
                        try await send(Second())
                    }
                    .with(model: Count())
                    .named("b")
            }
        }
        try await withDeadline("a → b → a") { try await cluster.send(action: First()) }
        #expect(await cluster.target(named: "a")?.state?() as? Count == Count(n: 101))
        #expect(await cluster.target(named: "b")?.state?() as? Count == Count(n: 1))
    }

    @Test func aFollowUpThatFailsFailsTheOriginalSend() async throws {
        let cluster = try await Bootstrap {
            Store(model: Count.self)
                .mutate(on: First.self) { c, _, send in
                    c.n += 1
                    try await send(Second())
                }
                .mutate(on: Second.self) { _, _, _ in throw SecondFailed() }
                .with(model: Count())
                .named("count")
        }
        await #expect(throws: SecondFailed.self) {
            try await withDeadline("send(First()) with a failing follow-up") { try await cluster.send(action: First()) }
        }
        // The handler's own change was committed before the follow-up ran.
        #expect(await cluster.target(named: "count")?.state?() as? Count == Count(n: 1))
    }

    @Test func concurrentSendersAndSelfSendsAllLand() async throws {
        let cluster = try await selfSending()
        try await withDeadline("100 concurrent senders") {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<100 { group.addTask { try await cluster.send(action: First()) } }
                try await group.waitForAll()
            }
        }
        #expect(await cluster.target(named: "count")?.state?() as? Count == Count(n: 1_100))
    }

    // MARK: Error transforms that send again

    /// The issue's shape: the recovery of an error sends the failing action again.
    func recoveryLoop(boom: some Service, recover: some Service) -> some Service {
        Group {
            boom.transformError { _ in Again() }
            recover
        }
        .transformError { _ in First() }
    }

    @Test func aRecoveryThatSendsTheFailingActionAgainEndsWithTheError() async throws {
        let booms = Recorder<Int>()
        let cluster = try await Bootstrap {
            recoveryLoop(
                boom: Store(model: Count.self)
                    .mutate(on: First.self) { c, _, _ in
                        c.n += 1
                        booms.append(c.n)
                        throw BoomError()
                    }
                    .with(model: Count()),
                recover: Store(model: Count.self)
                    .mutate(on: Again.self) { _, _, send in try await send(First()) }
                    .with(model: Count())
            )
        }
        await #expect(throws: BoomError.self) {
            try await withDeadline("a recovery that sends the failing action again (value stores)") {
                try await cluster.send(action: First())
            }
        }
        #expect(!booms.all.isEmpty)
        // The cluster is alive afterwards.
        await #expect(throws: BoomError.self) {
            try await withDeadline("a second send") { try await cluster.send(action: First()) }
        }
    }

    @Test func aRecoveryThatSendsAgainEndsWithActorModelsToo() async throws {
        let cluster = try await Bootstrap {
            recoveryLoop(
                boom: Store(model: CountActor.self)
                    .mutate(on: First.self) { c, _, _ in
                        c.add(1)
                        throw BoomError()
                    }
                    .with(model: CountActor()),
                recover: Store(model: CountActor.self)
                    .mutate(on: Again.self) { _, _, send in try await send(First()) }
                    .with(model: CountActor())
            )
        }
        await #expect(throws: BoomError.self) {
            try await withDeadline("a recovery that sends the failing action again (actor stores)") {
                try await cluster.send(action: First())
            }
        }
    }

    @Test func nestedTransformsThatAllFailEndWithTheError() async throws {
        let cluster = try await Bootstrap {
            Group {
                Group {
                    Group {
                        Store(model: Count.self)
                            .mutate(on: First.self) { _, _, _ in throw BoomError() }
                            .mutate(on: Again.self) { _, _, send in try await send(First()) }
                            .mutate(on: Nudge.self) { _, _, send in try await send(Again()) }
                            .with(model: Count())
                    }
                    .transformError { _ in Again() }
                }
                .transformError { _ in Nudge() }
            }
            .transformError { _ in First() }
        }
        await #expect(throws: BoomError.self) {
            try await withDeadline("three nested transforms, each recovery failing") {
                try await cluster.send(action: First())
            }
        }
    }
}

extension ReentrantSendTests {
    struct Boom: Action {}
    struct Recover: Action {}
    struct Tally: Equatable, Sendable { var n = 0 }

    /// The issue's own shape, word for word, with an observer attached (as the shell has).
    @Test func theIssuesRecoveryLoopEndsWithTheErrorWhileObserved() async throws {
        let cluster = try await Bootstrap {
            Group {
                Store(model: Count.self).mutate(on: Boom.self) { _, _, _ in throw BoomError() }
                    .with(model: Count()).transformError { _ in Recover() }
                Store(model: Tally.self).mutate(on: Recover.self) { _, _, send in try await send(Boom()) }
                    .with(model: Tally())
            }
            .transformError { _ in Boom() }
        }
        let observation = cluster.observe()
        await #expect(throws: BoomError.self) {
            try await withDeadline("the issue's recovery loop") { try await cluster.send(action: Boom()) }
        }
        _ = observation
    }
}
