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
    let plain = try await ObservedStore(traced: false)
    let traced = try await ObservedStore(traced: true)
    try await plain.send(n)  // warm-up
    try await traced.send(n)
    var ratios: [Double] = []
    var rates: [Double] = []
    for _ in 0..<samples {
        let clock = ContinuousClock()
        let plainTime = try await clock.measure { try await plain.send(n) }
        let tracedTime = try await clock.measure { try await traced.send(n) }
        ratios.append(seconds(plainTime) / seconds(tracedTime))
        rates.append(Double(n) / seconds(tracedTime))
    }
    await plain.end()
    await traced.end()
    return (median(ratios), median(rates))
}

/// A store in a cluster and an observer draining its records. Traced: the
/// observer traces and keeps each trace's records, as a tool that draws
/// trees does (the last 1,000 traces).
struct ObservedStore {
    let cluster: Cluster
    let observer: Task<Int, Never>

    init(traced: Bool) async throws {
        let model = BenchCounter()
        cluster = try await Bootstrap {
            Store(model: BenchCounter.self)
                .mutate(on: BenchAdd.self) { model, action, _ in model.add(action.n) }
                .with(model: model)
        }
        let observation = cluster.observe(tracing: traced)
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
/// a shell asks, to say who made a change), over a plain observer: the
/// median of `samples` rounds of `n` sends through each in turn.
func clusterSendStoreRootedRatio(_ n: Int) async throws -> Double {
    func make(_ roots: Bool) async throws -> (Cluster, Task<Int, Never>) {
        let cluster = try await Bootstrap {
            Store(model: BenchCounter.self)
                .mutate(on: BenchAdd.self) { model, action, _ in model.add(action.n) }
                .with(model: BenchCounter())
        }
        let observation = cluster.observe(bufferSize: 100_000, keepingOldStates: false, roots: roots)
        let task = Task {
            var seen = 0
            for await _ in observation { seen += 1 }
            return seen
        }
        return (cluster, task)
    }
    let (plain, p) = try await make(false)
    let (rooted, r) = try await make(true)
    for cluster in [plain, rooted] { for _ in 0..<n { try await cluster.send(action: BenchAdd(n: 1)) } }  // warm-up
    var ratios: [Double] = []
    for _ in 0..<samples {
        let clock = ContinuousClock()
        let a = try await clock.measure { for _ in 0..<n { try await plain.send(action: BenchAdd(n: 1)) } }
        let b = try await clock.measure { for _ in 0..<n { try await rooted.send(action: BenchAdd(n: 1)) } }
        ratios.append(seconds(a) / seconds(b))
    }
    await plain.shutDown()
    await rooted.shutDown()
    _ = await p.value
    _ = await r.value
    return median(ratios) * 100
}
