import DequeModule
import Trellis

/// The store model of `cluster.send.store`: an actor whose state observers see.
actor BenchCounter: StatefulModel {
    var count = 0
    var state: Int { count }
    func add(_ n: Int) { count += n }
}

struct BenchAdd: Action { let n: Int }

/// `cluster.send(action:)` to a store that mutates an actor model, with one observer draining the records.
func clusterSendStore(_ n: Int) async throws -> Double {
    let bench = try await ObservedStore(traced: false)
    let result = try await rate(operations: n) { try await bench.send(n) }
    await bench.end()
    return result
}

/// The traced figure over the plain one: both clusters set up once, then
/// `samples` rounds of `n` sends each, plain and traced in turn; the median
/// of the rounds' ratios, and the traced rate's median. Measured in turn so
/// both see the same moment of the machine: separate medians moved by a
/// third between runs on a busy host.
func clusterSendStoreTracedRatio(_ n: Int) async throws -> (ratio: Double, traced: Double) {
    let measured = try await inTurn(n, try await ObservedStore(traced: false), try await ObservedStore(traced: true))
    return (measured.ratio, measured.rate)
}

/// `other`'s figure over `plain`'s, as ``clusterSendStoreTracedRatio(_:)``
/// measures it (a warm-up, then rounds in turn): the median of the rounds'
/// ratios and `other`'s median rate. Ends both.
func inTurn(_ n: Int, _ plain: ObservedStore, _ other: ObservedStore) async throws -> (ratio: Double, rate: Double) {
    try await plain.send(n)  // warm-up
    try await other.send(n)
    var ratios: [Double] = []
    var rates: [Double] = []
    for _ in 0..<samples {
        let clock = ContinuousClock()
        let plainTime = try await clock.measure { try await plain.send(n) }
        let otherTime = try await clock.measure { try await other.send(n) }
        ratios.append(seconds(plainTime) / seconds(otherTime))
        rates.append(Double(n) / seconds(otherTime))
    }
    await plain.end()
    await other.end()
    return (median(ratios), median(rates))
}

/// A store in a cluster and an observer draining its records. Traced: the
/// observer traces and keeps each trace's records, as a tool that draws
/// trees does (the last 1,000 traces).
struct ObservedStore {
    let cluster: Cluster
    let observer: Task<Int, Never>

    init(traced: Bool) async throws {
        try await self.init(keepingTraces: traced) { $0.observe(tracing: traced) }
    }

    /// A store observed as `observe` asks; `keepingTraces`: the observer keeps each trace's records.
    init(keepingTraces traced: Bool, _ observe: (Cluster) -> ClusterObservation) async throws {
        let model = BenchCounter()
        cluster = try await Bootstrap {
            Store(model: BenchCounter.self)
                .mutate(on: BenchAdd.self) { model, action, _ in model.add(action.n) }
                .with(model: model)
        }
        let observation = observe(cluster)
        observer = Task {
            var seen = 0
            var traces: [UInt64: [ClusterRecord]] = [:]
            var order = Deque<UInt64>()
            for await record in observation {
                seen += 1
                guard traced, let trace = record.link?.trace else { continue }
                if traces[trace] == nil {
                    order.append(trace)
                    if order.count > 1_000, let oldest = order.popFirst() { traces[oldest] = nil }
                }
                traces[trace, default: []].append(record)
            }
            return seen
        }
    }

    func send(_ n: Int) async throws {
        for _ in 0..<n { try await cluster.send(action: BenchAdd(n: 1)) }
    }

    func end() async {
        await cluster.shutDown()
        _ = await observer.value
    }
}

/// The floor: a synchronous reduce loop over a small struct, no cluster (ReSwift's shape:
/// a reducer called through a function value, then one subscriber notified).
func syncReduce(_ n: Int) async throws -> Double {
    struct State { var count = 0 }
    final class Loop {
        var state = State()
        var seen = 0
        // Function values, as a store calls its reducer and subscriber: not folded away by the optimizer.
        var reducer: (inout State, BenchAdd) -> Void = { $0.count += $1.n }
        var subscriber: (State) -> Void = { _ in }
        @inline(never) func dispatch(_ action: BenchAdd) {
            reducer(&state, action)
            subscriber(state)
        }
    }
    let loop = Loop()
    loop.subscriber = { [unowned loop] in loop.seen = $0.count }
    let r = try await rate(operations: n) {
        for _ in 0..<n { loop.dispatch(BenchAdd(n: 1)) }
    }
    precondition(loop.seen > 0)
    return r
}

/// The same without an observer: what observation costs.
func clusterSendStoreUnobserved(_ n: Int) async throws -> Double {
    let model = BenchCounter()
    let cluster = try await Bootstrap {
        Store(model: BenchCounter.self)
            .mutate(on: BenchAdd.self) { model, action, _ in model.add(action.n) }
            .with(model: model)
    }
    let result = try await rate(operations: n) {
        for _ in 0..<n { try await cluster.send(action: BenchAdd(n: 1)) }
    }
    await cluster.shutDown()
    return result
}

/// `cluster.send.store.rooted`: an observer that wants each record's root (what
/// a shell asks, to say who made a change), over a plain observer, both
/// keeping no old states as a shell does: measured in turn (``inTurn(_:_:_:)``).
func clusterSendStoreRootedRatio(_ n: Int) async throws -> Double {
    func store(roots: Bool) async throws -> ObservedStore {
        try await ObservedStore(keepingTraces: false) { $0.observe(bufferSize: 100_000, keepingOldStates: false, roots: roots) }
    }
    return try await inTurn(n, try await store(roots: false), try await store(roots: true)).ratio * 100
}
