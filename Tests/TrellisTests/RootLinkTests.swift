import Karc
import KarcAsync
import TestSupport
import Testing
import Trellis

/// What an observer that wants only roots (a shell) makes the app pay, and
/// what it gets: every record of an app's send, and of everything that send
/// caused, says which root it came from; nothing is timed, no tree is made.
@Suite(.timeLimit(.minutes(1)))
struct RootLinkTests {
    struct Order: Sendable {}
    struct Reserve: Sendable {}
    struct Later: Sendable {}

    /// A store whose handler sends to another, one that is redirected, and a model service (not a store).
    static func shop(_ queued: Recorder<TraceCarrier>? = nil) async throws -> Cluster {
        try await Bootstrap {
            Store(model: Tally.self)
                .mutate(on: Order.self) { tally, _, send in
                    queued?.append(TraceCarrier.current)
                    try await send(Reserve())
                    tally.total += 1
                }
                .with(model: Tally()).named("orders")
            Store(model: Tally.self)
                .mutate(on: Reserve.self) { tally, _, _ in tally.total += 1 }
                .mutate(on: Later.self) { tally, _, _ in tally.total += 10 }
                .with(model: Tally()).named("stock")
            UserService().named("users")
        }
    }

    @Test func everythingAnAppsSendCausedCarriesItsRootAndNoTime() async throws {
        let cluster = try await Self.shop()
        let observation = cluster.observe(bufferSize: 1_000, keepingOldStates: false, roots: true)
        try await cluster.send(action: Order())
        #expect(await cluster.settled(timeout: .seconds(30)))
        let records = observation.takeAvailable()
        let links = records.compactMap(\.link)
        #expect(links.count == records.count, "every record says its root")
        #expect(links.allSatisfy { $0.isRootOnly && $0.parent == nil && $0.span == $0.trace })
        #expect(Set(links.map(\.trace)).count == 1, "the order and the reservation its handler sent: one trace")
        #expect(records.allSatisfy { $0.time == nil })
        #expect(!records.contains { if case .handled = $0.kind { true } else { false } }, "no end record for a send nobody times")
    }

    @Test func aModelsPipesCarryTheRootThroughEveryGate() async throws {
        let cluster = try await Bootstrap { KarcCounter.service(.init(environ: Environ())).named("counter") }
        let observation = cluster.observe(bufferSize: 1_000, keepingOldStates: false, roots: true)
        try await cluster.send(action: Relay())
        #expect(await cluster.settled(timeout: .seconds(30)))
        let records = observation.takeAvailable()
        #expect(records.count >= 5, "the send, two events, two changes")
        #expect(Set(records.compactMap { $0.link?.trace }).count == 1)
        #expect(records.allSatisfy { $0.link?.isRootOnly == true }, "\(records.map(\.kind))")
    }

    /// A receiving service's flows: not a store, so the root is bound for it.
    @Test func aServiceThatIsNoStoreGetsTheRootBound() async throws {
        let cluster = try await Self.shop()
        let observation = cluster.observe(bufferSize: 1_000, keepingOldStates: false, roots: true)
        try await cluster.send(action: UserAction.fetchFavs)
        #expect(await cluster.settled(timeout: .seconds(30)))
        let records = observation.takeAvailable()
        #expect(!records.isEmpty)
        #expect(Set(records.compactMap { $0.link?.trace }).count == 1)
        #expect(records.allSatisfy { $0.link?.isRootOnly == true }, "\(records.map(\.kind))")
    }

    @Test func aCommandsSendIsTracedInFullWithWhatItCaused() async throws {
        let cluster = try await Self.shop()
        let observation = cluster.observe(bufferSize: 1_000, keepingOldStates: false, roots: true)
        let span = TraceLink.newSpanID()
        try await cluster.send(action: Order(), to: "orders", span: span)
        #expect(await cluster.settled(timeout: .seconds(30)))
        let records = observation.takeAvailable()
        #expect(TraceOutline(records).traces == [["Order() → orders", "  Reserve() → stock", "    state stock", "  state orders"]])
        #expect(records.allSatisfy { $0.link?.trace == span && $0.link?.isRootOnly == false && $0.time != nil })
    }

    @Test func workAnAppQueuedItselfStaysInItsSendersTraceThroughATraceCarrier() async throws {
        let queued = Recorder<TraceCarrier>()
        let cluster = try await Self.shop(queued)
        let observation = cluster.observe(tracing: true)
        try await cluster.send(action: Order())
        // Later, from a task of the app's own that belongs to no trace.
        let carried = try #require(queued.all.first)
        try await Task.detached { try await carried.run { try await cluster.send(action: Later()) } }.value
        #expect(await cluster.settled(timeout: .seconds(30)))
        #expect(
            TraceOutline(observation.takeAvailable()).traces == [
                ["Order() → orders", "  Reserve() → stock", "    state stock", "  state orders", "  Later() → stock", "    state stock"]
            ])
    }

    @Test func withoutACarrierTheQueuedWorkIsARootOfItsOwn() async throws {
        let cluster = try await Self.shop()
        let observation = cluster.observe(tracing: true)
        try await cluster.send(action: Order())
        try await Task.detached { try await cluster.send(action: Later()) }.value
        #expect(await cluster.settled(timeout: .seconds(30)))
        #expect(TraceOutline(observation.takeAvailable()).traces.count == 2)
    }
}
