import AsyncDispatcher
import Karc
import KarcAsync
import ServiceContextModule
import TestSupport
import Testing
import Trellis

/// Every record carries the span that made it: a send made while another is
/// handled is its child, whichever hand-off it crossed (a handler's send, a
/// redirect, a flow, a gate, an event, a dispatcher's queue, a callback);
/// work nobody sent starts a trace of its own, named by its source.
@Suite(.timeLimit(.minutes(1)))
struct TraceLinkTests {
    @Test func aSendFromAHandlerIsAChildOfTheSendThatCausedIt() async throws {
        let cluster = try await Bootstrap {
            Store(model: Tally.self)
                .mutate(on: Ping.self) { tally, _, send in
                    tally.total += 1
                    try await send(Pong())
                }
                .with(model: Tally()).named("a")
            Store(model: Tally.self)
                .mutate(on: Pong.self) { tally, _, _ in tally.total += 10 }
                .with(model: Tally()).named("b")
        }
        let records = try await recorded(cluster) { try await cluster.send(action: Ping()) }
        #expect(
            TraceOutline(records).traces == [
                [
                    "Ping() → a",
                    "  Pong() → b",
                    "    state b",
                    "  state a",
                ]
            ])
    }

    @Test func aRedirectsActionsAreChildrenOfTheActionItReplaced() async throws {
        let cluster = try await Bootstrap {
            UserService()
                .middleware(LoggingMiddleware(tag: "m", log: Recorder(), redirects: [.fetchArticles: .single(action: .login)]))
                .named("users")
        }
        let records = try await recorded(cluster) { try await cluster.send(action: UserAction.fetchArticles) }
        #expect(
            TraceOutline(records).traces == [
                [
                    "fetchArticles → users",
                    "  redirected by LoggingMiddleware",
                    "  login → users",
                    "    state users",
                ]
            ])
    }

    @Test func aFlowsFollowUpsAreChildrenOfTheActionThatReturnedIt() async throws {
        let cluster = try await Bootstrap { UserService().named("users") }
        let records = try await recorded(cluster) { try await cluster.send(action: UserAction.fetchFavs) }
        #expect(
            TraceOutline(records).traces == [
                [
                    "fetchFavs → users",
                    "  state users",
                    "  fetchArticles → users",
                    "    state users",
                    "  noop → users",
                    "    state users",
                ]
            ])
    }

    @Test func aModelsPipesEventsAndChangesBelongToTheCommandThroughEveryGate() async throws {
        // `Relay` goes to a simplex pipe (handed to the pipe's own task), whose effect's event
        // wakes a second pipe (another task): all of it is the send's.
        let cluster = try await Bootstrap { KarcCounter.service(.init(environ: Environ())).named("counter") }
        let records = try await recorded(cluster) { try await cluster.send(action: Relay()) }
        #expect(
            TraceOutline(records).traces == [
                [
                    "Relay() → counter",
                    "  event counter relayStarted",
                    "  state counter",
                    "  event counter relayFinished",
                    "  state counter",
                ]
            ])
    }

    @Test func aTimersRunStartsATraceNamedAfterItsModelAndPipe() async throws {
        let reads = Recorder<Int>()
        let clock = HandClock { reads.append(1) }
        let cluster = try await Bootstrap { Ticker.service(.init(environ: Environ().setClock(clock))).named("ticker") }
        let observation = cluster.observe(tracing: true)
        var links: [TraceLink] = []
        for run in 1...2 {
            // Moved once the timer has read the time to sleep from.
            // Polls: the timer reads the test's clock from a task on the shared pool.
            #expect(await eventually { reads.all.count >= run })
            clock.advance(by: .seconds(1))
            links += await nextRecords(observation).compactMap(\.link)
        }
        #expect(links.map(\.origin) == ["timer ticker.tick", "timer ticker.tick"])
        #expect(links.allSatisfy { $0.isRoot })
        // Two runs, two traces.
        #expect(Set(links.map(\.trace)).count == 2)
        // The timer's next sleep ignores cancellation (a hand-moved clock): moved until it is down.
        let isDown = Recorder<Bool>()
        let down = Task {
            await cluster.shutDown()
            isDown.append(true)
        }
        // Polls: each move of the clock may come before the timer sleeps again; moving until it ran is the wait.
        #expect(
            await eventually {
                clock.advance(by: .seconds(1))
                return !isDown.all.isEmpty
            })
        await down.value
    }

    @Test func anEmittersActionsAreRootsNamedAfterTheEmitter() async throws {
        let (actions, feed) = AsyncStream<CounterAction>.makeStream()
        let cluster = try await Bootstrap {
            Store(model: Tally.self)
                .mutate(on: CounterAction.self) { tally, action, _ in if case .add(let n) = action { tally.total += n } }
                .with(model: Tally()).named("tally")
                .emit(using: actions)
        }
        let observation = cluster.observe(tracing: true)
        feed.yield(.add(1))
        var records: [ClusterRecord] = []
        while !records.contains(where: { if case .stateChanged = $0.kind { true } else { false } }) {
            records += await nextRecords(observation)
        }
        let sent = try #require(records.first)
        #expect(sent.link?.origin == "emitter tally")
        #expect(sent.link?.isRoot == true)
        #expect(TraceOutline(records).traces == [["add(1) → tally", "  state tally"]])
        feed.finish()
        await cluster.shutDown()
    }

    @Test func aDispatcherActionQueuedBehindAnotherStaysInItsSendersTrace() async throws {
        let store = CountingStore()
        let cluster = try await Bootstrap {
            store.service(actions: [CountingStore.Increment.self]).named("counter")
        }
        // Hold the dispatcher so the send's action waits in its queue and a drainer task runs it.
        store.deactivate()
        let observation = cluster.observe(tracing: true)
        let send = Task { try await cluster.send(action: CountingStore.Increment(value: 2)) }
        // Polls: a store's pipeline count has no change hook.
        #expect(await eventually { store.pipeline.count == 1 })
        store.activate()
        try await send.value
        #expect(await cluster.settled(timeout: .seconds(30)))
        #expect(TraceOutline(observation.takeAvailable()).traces == [["Increment(value: 2) → counter", "  state counter"]])
    }

    @Test func aCallbackSendKeepsItsCallersTrace() async throws {
        let built = TrellisTests.Recorder<Cluster>()
        let cluster = try await Bootstrap {
            Store(model: Tally.self)
                .mutate(on: Ping.self) { _, _, _ in
                    // Legacy code in a handler: the send runs later, on the cluster's queue.
                    built.all.first?.send(action: Pong()) { _ in }
                }
                .with(model: Tally()).named("a")
            Store(model: Tally.self)
                .mutate(on: Pong.self) { tally, _, _ in tally.total += 1 }
                .with(model: Tally()).named("b")
        }
        built.append(cluster)
        let records = try await recorded(cluster) { try await cluster.send(action: Ping()) }
        #expect(TraceOutline(records).traces == [["Ping() → a", "  Pong() → b", "    state b"]])
    }

    @Test func nothingIsAddedToTheContextWhileNoObserverTraces() async throws {
        let seen = Recorder<TraceLink?>()
        let cluster = try await Bootstrap {
            Store(model: Tally.self)
                .mutate(on: Ping.self) { _, _, _ in seen.append(TraceLink.current) }
                .with(model: Tally()).named("a")
        }
        try await cluster.send(action: Ping())
        let plain = cluster.observe()
        try await cluster.send(action: Ping())
        let tracing = cluster.observe(tracing: true)
        try await cluster.send(action: Ping())
        #expect(seen.all.map { $0 == nil } == [true, true, false])
        // The plain observer's record of the second send carries no link; the third's do
        // (a send and its end), as the tracing observer made the cluster tell them.
        #expect(plain.takeAvailable().map { $0.link == nil } == [true, false, false])
        tracing.cancel()
        try await cluster.send(action: Ping())
        #expect(seen.all.last! == nil, "the last tracing observer left")
    }

    // MARK: Helpers

    /// What `body` made the cluster record, once the cluster settled.
    private func recorded(_ cluster: Cluster, _ body: () async throws -> Void) async throws -> [ClusterRecord] {
        let observation = cluster.observe(tracing: true)
        try await body()
        #expect(await cluster.settled(timeout: .seconds(30)))
        return observation.takeAvailable()
    }

    private func nextRecords(_ observation: ClusterObservation) async -> [ClusterRecord] {
        await observation.nextAvailable() ?? []
    }
}

struct Ping: Sendable {}
struct Pong: Sendable {}

/// The records of each trace, in order, indented by how deep their span is
/// in it: a send's record at its span's depth, what a span did one deeper.
struct TraceOutline {
    let traces: [[String]]

    init(_ records: [ClusterRecord]) {
        var parents: [UInt64: UInt64] = [:]
        for link in records.compactMap(\.link) { parents[link.span] = link.parent ?? 0 }
        func depth(_ span: UInt64) -> Int {
            guard let parent = parents[span], parent != 0 else { return 0 }
            return depth(parent) + 1
        }
        var order: [UInt64] = []
        var lines: [UInt64: [String]] = [:]
        for record in records {
            guard let link = record.link else { continue }
            let line: String
            var level = depth(link.span) + 1
            switch record.kind {
            case .sent(_, let action, let target):
                level -= 1
                line = "\(action) → \(target ?? "")"
            case .replied(_, let reply): line = "reply \(reply)"
            case .redirected(_, _, let by, _): line = "redirected by \(by)"
            case .failed(_, let error): line = "failed \(error)"
            case .emitted(let source, let event): line = "event \(source) \(event)"
            case .stateChanged(let source, _, _): line = "state \(source)"
            case .lost, .handled: continue
            }
            if lines[link.trace] == nil { order.append(link.trace) }
            lines[link.trace, default: []].append(String(repeating: "  ", count: level) + line)
        }
        traces = order.map { lines[$0] ?? [] }
    }
}

// A model whose only pipe is a timer: every second (on the environ's clock) it counts a tick.
struct Ticks: Equatable, Initable, Sendable { var count = 0 }
protocol TickerCommand: Sendable {}
enum TickerEffect: Sendable { case tick }
@CheckedSendable
final class TickerDomain: Domain<DefaultId, Ticks, TickerCommand, Never> {}

@CheckedSendable
final class Ticker: Model<TickerDomain, DefaultId, Ticks, TickerCommand, TickerEffect, Never> {
    override func reducer(state: Ticks, effect: TickerEffect) -> (Ticks, [Never]) {
        (Ticks(count: state.count + 1), [])
    }

    @ScopesBuilder
    override func scopes(_ s: Ticks, _ i: Interactor) -> [Scope] {
        i.ticking
    }
}

extension Ticker.Interactor {
    func ticking() -> Karc.Pipeline {
        let clock = environ.clock
        return Karc.Pipeline {
            Pipe(id: "tick", policy: .infinite) { _, _ in
                try await clock.sleep(for: .seconds(1))
                try await sendEffects(.tick)
            }
        }
    }
}
