import Foundation
import Karc

// Prints one line per figure: `bench: NAME VALUE UNIT` (median of several runs).
// Run with `make bench` (release build). Figures depend on the machine: they
// are measurements, never pass/fail thresholds.

let samples = Int(ProcessInfo.processInfo.environment["KARC_BENCH_SAMPLES"] ?? "") ?? 5

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}

/// Runs `body` (which performs `operations` operations) `samples` times after one warm-up; median rate per second.
func rate(operations: Int, _ body: () async throws -> Void) async throws -> Double {
    try await body()
    var rates: [Double] = []
    for _ in 0..<samples {
        let clock = ContinuousClock()
        let elapsed = try await clock.measure { try await body() }
        rates.append(Double(operations) / seconds(elapsed))
    }
    return median(rates)
}

func report(_ name: String, _ value: Double, _ unit: String) {
    // Small figures (a few commands a second, a ratio) keep a decimal.
    let shown = value < 10 ? String(format: "%.2f", value) : value < 100 ? String(format: "%.1f", value) : "\(Int(value.rounded()))"
    print("bench: \(name) \(shown) \(unit)")
}

func baselineHop(_ n: Int) async throws -> Double {
    try await rate(operations: n) {
        let mailbox = Mailbox()
        let server = Task {
            for _ in 0..<n {
                let (value, reply) = await mailbox.next()
                reply.resume(returning: value + 1)
            }
        }
        var x = 0
        for _ in 0..<n { x = await mailbox.call(x) }
        await server.value
        precondition(x == n)
    }
}

func withTally<T>(_ body: (TallyDomain) async throws -> T) async throws -> T {
    let id = "bench-\(UUID().uuidString)"
    try await TallyModel.setUp(.init(environ: Environ(), id: id))
    let domain = try await TallyDomain.get(id: id)
    let result = try await body(domain)
    await TallyModel.tearDown(id: id)
    return result
}

func duplexSequential(_ n: Int) async throws -> Double {
    try await withTally { domain in
        try await rate(operations: n) {
            for _ in 0..<n { _ = try await domain.send(Bump()) }
        }
    }
}

func duplexConcurrent(_ n: Int, senders: Int) async throws -> Double {
    try await withTally { domain in
        try await rate(operations: n) {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<senders {
                    group.addTask {
                        for _ in 0..<(n / senders) { _ = try await domain.send(Bump()) }
                    }
                }
                try await group.waitForAll()
            }
        }
    }
}

/// Effects reduced by a pipe, each emitting an event, counted by one receiver in another task.
///
/// Timed from the send to the last event counted: the receiver and its task
/// are set up before the clock starts (at N = 1k their start-up took as long
/// as the events themselves, and it is not event delivery).
func events(_ n: Int) async throws -> Double {
    try await withTally { domain in
        var rates: [Double] = []
        for sample in 0...samples {
            let receiver = domain.receiver()
            let (started, ready) = AsyncStream.makeStream(of: Void.self)
            let counter = Task {
                var seen = 0
                ready.yield()
                for try await _ in receiver {
                    seen += 1
                    if seen == n { break }
                }
                return seen
            }
            for await _ in started { break }
            let clock = ContinuousClock()
            let elapsed = try await clock.measure {
                _ = try await domain.send(Burst(count: n))
                let seen = try await counter.value
                precondition(seen == n)
            }
            // The first run warms up.
            if sample > 0 { rates.append(Double(n) / seconds(elapsed)) }
        }
        return median(rates)
    }
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

func gateDuplex(_ n: Int) async throws -> Double {
    let gate = Gate<Int, Int>(mode: .transient, scheme: .anycast)
    let consumer = gate.makeConsumer(consumerId: 1, spec: .all, instantOutput: nil)
    let loop = Task {
        var delivery = try await consumer.next()
        while let d = delivery { delivery = try await consumer.replyAndNext(to: d, with: .success(d.input + 1)) }
    }
    let r = try await rate(operations: n) {
        for i in 0..<n { _ = try await gate.send(i) }
    }
    loop.cancel()
    return r
}

/// A gate round trip answered in the producer's task by a consumer that waits
/// (what a duplex pipe does): the cost of the inline run without a model.
func gateInline(_ n: Int) async throws -> Double {
    let gate = Gate<Int, Int>(mode: .transient, scheme: .anycast)
    let consumer = gate.makeConsumer(consumerId: 1, spec: .all, instantOutput: nil)
    _ = consumer.answerInline { delivery in (result: .success(delivery.input + 1), stop: nil) }
    let loop = Task {
        var delivery = try await consumer.next()
        while let d = delivery { delivery = try await consumer.replyAndNext(to: d, with: .success(d.input + 1)) }
    }
    // Until the consumer waits: the first sends would otherwise take the usual path.
    try await Task.sleep(for: .milliseconds(10))
    let r = try await rate(operations: n) { for i in 0..<n { _ = try await gate.send(i) } }
    loop.cancel()
    return r
}
func reduceOnly(_ n: Int) async throws -> Double {
    try await withTally { domain in
        try await rate(operations: n) { _ = try await domain.send(Burst(count: n)) }
    }
}
// KARC_BENCH_ONLY=name,name runs only the figures whose names start with one of
// them; a name ending in `$` runs that figure alone (for a profile of one figure).
let only = (ProcessInfo.processInfo.environment["KARC_BENCH_ONLY"] ?? "").split(separator: ",").map(String.init)
func wanted(_ name: String) -> Bool {
    only.isEmpty || only.contains { $0.hasSuffix("$") ? name == $0.dropLast() : name.hasPrefix($0) }
}

var hop: Double?
if wanted("baseline.hop") || wanted("karc.send.duplex") {
    hop = try await baselineHop(300_000)
    report("baseline.hop", hop ?? 0, "roundtrips/s")
}
if wanted("karc.gate.duplex") {
    report("karc.gate.duplex", try await gateDuplex(300_000), "sends/s")
}
if wanted("karc.gate.inline") {
    report("karc.gate.inline", try await gateInline(1_000_000), "sends/s")
}
if wanted("karc.send.duplex") {
    let duplex = try await duplexSequential(300_000)
    report("karc.send.duplex", duplex, "sends/s")
    if let hop { report("karc.send.duplex.cost-vs-hop", hop / duplex * 100, "percent") }
}
if wanted("karc.send.duplex.concurrent8") {
    report("karc.send.duplex.concurrent8", try await duplexConcurrent(400_000, senders: 8), "sends/s")
}
if wanted("karc.effects.inline") {
    report("karc.effects.inline", try await reduceOnly(300_000), "effects/s")
}
if wanted("karc.events") {
    report("karc.events.1k", try await events(1_000), "events/s")
    report("karc.events.1m", try await events(1_000_000), "events/s")
}
// `cluster.send.store$` runs the plain figures alone (to compare with a build older than traces).
if wanted("cluster.send.store") {
    let observed = try await clusterSendStore(300_000)
    report("cluster.send.store", observed, "sends/s")
    report("cluster.send.store.unobserved", try await clusterSendStoreUnobserved(300_000), "sends/s")
}
if wanted("cluster.send.store.value") {
    report(
        "cluster.send.store.value", try await clusterSendValueStore(300_000),
        "sends/s (a struct state changed in place, one observer: ReSwift's shape)")
}
if wanted("cluster.send.store.traced") {
    let (ratio, traced) = try await clusterSendStoreTracedRatio(200_000)
    report("cluster.send.store.traced.sends", traced, "sends/s (an observer that traces and keeps trees)")
    report("cluster.send.store.traced", ratio * 100, "percent (of a plain observer's figure, rounds in turn)")
}
if wanted("cluster.send.store.rooted") {
    report(
        "cluster.send.store.rooted", try await clusterSendStoreRootedRatio(300_000),
        "percent (an observer that wants each record's root, as a shell does, of a plain observer's figure, rounds in turn)")
}
if ProcessInfo.processInfo.environment["KARC_BENCH_ONLY"] == "observers.breakdown" {
    for (name, figure) in try await observerBreakdown(300_000) {
        report("observers.breakdown", figure, "percent with \(name) beside the baseline")
    }
}
if wanted("cluster.send.store.big") {
    for (observed, name) in [(false, "cluster.send.store.big.unobserved"), (true, "cluster.send.store.big")] {
        let inPlace = try await clusterSendBigStore(100_000, observed: observed, suspending: false)
        let copying = try await clusterSendBigStore(100_000, observed: observed, suspending: true)
        report(name, inPlace, "sends/s (a 10,000-number state, one number changed a send, handler with no await: in place)")
        report(name + ".copying", copying, "sends/s (the same with an async handler: a copy out of the cell)")
    }
}
if wanted("baseline.sync-reduce") {
    report("baseline.sync-reduce", try await syncReduce(10_000_000), "ops/s")
}
if wanted("dispatcher.dispatch") {
    report("dispatcher.dispatch", try await dispatcherQueued(1_000_000), "actions/s")
}
if wanted("dispatcher.execute") {
    report("dispatcher.execute", try await dispatcherAwaited(1_000_000), "actions/s")
}
if wanted("compose.emitter") {
    report("compose.emitter", try await emitterSend(10_000_000), "values/s")
    report("compose.emitter.chain3", try await emitterChain(3_000_000), "values/s")
}
if wanted("explore.commands") {
    report("explore.commands", try exploreCommands(runs: 400, steps: 50), "commands/s (karc explore on the demo, child process included)")
}
if wanted("explore.shrink") {
    let shrink = try exploreShrink()
    report("explore.shrink", shrink.seconds, "s (a failing sequence of \(shrink.original) commands shrunk to \(shrink.shrunk))")
}
if wanted("inspect.script") {
    report(
        "inspect.script", try await inspectScriptRatio(100_000),
        "percent (a piped --json script with a page following, of its rate without --inspect, pairs in turn)")
}
if wanted("inspect.send.store") {
    report(
        "inspect.send.store", try await inspectSendStoreRatio(200_000),
        "percent (cluster.send.store with an app's inspector and a page following, of the same without, in turn)")
}
if wanted("inspect.latency") {
    let (idle, loaded) = try await inspectLatency(300, load: 300_000)
    report("inspect.latency.idle.p50", idle.0, "ms (a command from a page to its answer, after its output reached the page)")
    report("inspect.latency.idle.p99", idle.1, "ms")
    report("inspect.latency.loaded.p50", loaded.0, "ms (the same while a piped script runs at full speed)")
    report("inspect.latency.loaded.p99", loaded.1, "ms")
}
if wanted("inspect.bigstate") {
    report(
        "inspect.bigstate", try await inspectBigState(50),
        "ms (a command selected on a 10,000-element state: its top level and its list's first 200, answered)")
}
if wanted("inspect.bigstate.drawn") {
    if let drawn = try await inspectBigStateDrawn(rounds: 10) {
        report(
            "inspect.bigstate.drawn", drawn.total,
            "ms (in chromium: a command selected on a 10,000-element state to its list's first 200 drawn, median)")
        report("inspect.bigstate.drawn.selected", drawn.selected, "ms (the click on the command to its changed target's top level drawn)")
        report("inspect.bigstate.drawn.opened", drawn.opened, "ms (the click on the list to its first 200 elements drawn)")
    } else {
        print("bench: inspect.bigstate.drawn skipped: no /usr/bin/chromedriver (scripts/setup.sh --test installs it)")
    }
}
if wanted("inspect.stalled.rss") {
    let memory = try await inspectStalledMemory(1_000_000)
    report("inspect.stalled.rss", memory.with - memory.without, "MB (peak memory a page that never reads adds over a million piped commands)")
    report("inspect.stalled.rss.base", memory.without, "MB (the same script without --inspect)")
}
if wanted("shell.script.json") {
    // A piped command's cost in bare observed sends: both measured in this run, so the machine's speed cancels.
    let json = try await shellScriptJSON(100_000)
    let bare = try await clusterSendStore(300_000)
    let traced = try await shellScriptJSON(100_000, trace: true)
    report("shell.script.json", json, "commands/s")
    report("shell.script.json.trace", traced, "commands/s (--trace: a tree after each command)")
    report("shell.script.json.cost", bare / json, "observed sends (a piped --json command's time, in cluster.send.store sends of this run)")
    report("shell.script.json.trace.cost", bare / traced, "observed sends (the same with --trace)")
}
if wanted("shell.script.rss"), FileManager.default.isExecutableFile(atPath: "/usr/bin/time") {
    let million = try shellScriptRSS(1_000_000)
    report("shell.script.rss", million, "MB (peak, a piped script of 1M commands)")
    report("shell.script.rss.ratio", million / (try shellScriptRSS(100_000)), "x (peak at 1M commands / at 100k)")
}
for shape in shapes {
    var cow: Double?
    if wanted("baseline.cow.shapes.\(shape.name)") || wanted("shell.bigstate.shapes.\(shape.name)") {
        cow = shape.copyOnWrite(10_000, 2_000)
        report(
            "baseline.cow.shapes.\(shape.name)", cow ?? 0,
            "appends/s (10,000 \(shape.name) items, the list before each append kept: Swift's copy and free alone)")
    }
    for json in [false, true] {
        let form = json ? "json" : "readable"
        if wanted("shell.bigstate.shapes.\(shape.name).\(form)") {
            let session = try await shape.session(10_000, 2_000, json)
            report(
                "shell.bigstate.shapes.\(shape.name).\(form)", session,
                "commands/s (a 10,000-element list of \(shape.name) items, one appended a command)")
            if let cow {
                report("shell.bigstate.shapes.\(shape.name).\(form).ratio", session / cow, "x (of baseline.cow.shapes.\(shape.name), this run)")
            }
        }
        if wanted("shell.render.shapes.\(shape.name).\(form)") {
            report(
                "shell.render.shapes.\(shape.name).\(form)", shape.render(10_000, 2_000, json, false),
                "renders/s (the shell's output alone for one append to 10,000 \(shape.name) items)")
        }
        if json, wanted("shell.render.shapes.\(shape.name).tree") {
            report(
                "shell.render.shapes.\(shape.name).tree", shape.wholeTree(10_000, 20),
                "trees/s (the JSON tree of 10,000 \(shape.name) items made from nothing: a --json session's first printed change)")
        }
        if wanted("shell.render.shapes.\(shape.name).prepend.\(form)") {
            report(
                "shell.render.shapes.\(shape.name).prepend.\(form)", shape.render(10_000, 500, json, true),
                "renders/s (the same for one element inserted at the start of 10,000)")
        }
    }
}
if wanted("shell.bigstate") {
    let readable = try shellBigState(size: 10_000, n: 5_000, json: false)
    report("shell.bigstate.readable", readable, "commands/s")
    report("shell.bigstate.json", try shellBigState(size: 10_000, n: 5_000, json: true), "commands/s")
    // An add and a remove in turn, so each list keeps its size while it is measured.
    let atTen = try shellBigState(size: 10, n: 5_000, json: false, keepingSize: true)
    let atTenThousand = try shellBigState(size: 10_000, n: 5_000, json: false, keepingSize: true)
    report("shell.bigstate.ratio", atTen / atTenThousand, "x (time a command at 10,000 elements / at 10)")
}
if wanted("shell.bigstate.json.watches") {
    // Three watches of parts an append does not change: a watch costs only when its path changes.
    let watches = ["articles.items[0].likes", "articles.owner", "identity.user"]
    var (plain, watched) = (0.0, 0.0)
    for _ in 0..<2 {
        plain = max(plain, try shellBigState(size: 10_000, n: 5_000, json: true))
        watched = max(watched, try shellBigState(size: 10_000, n: 5_000, json: true, watches: watches))
    }
    report("shell.bigstate.json.watched", watched, "commands/s (three watches)")
    report("shell.bigstate.json.watches", 100 * watched / plain, "percent (with three watches / without, same run)")
}
if wanted("shell.history.rss"), FileManager.default.isExecutableFile(atPath: "/usr/bin/time") {
    report("shell.history.rss", try shellHistoryRSS(size: 10_000, commands: 100_000), "MB (peak, 100k likes over 10,000 articles, --json)")
}
if wanted("shell.blame") {
    report("shell.blame", try await shellBlame(size: 10_000, commands: 100_000, blames: 20), "ms (a :blame after 100k changes, median of 20)")
}
if wanted("remote.send.uds") {
    report("remote.send.uds", try await remoteSendUDS(5_000), "roundtrips/s")
}
if wanted("remote.script") {
    let (rate, ratio) = try await remoteScriptJSON(100_000)
    report("remote.script.json", rate, "commands/s")
    report("remote.script.ratio", ratio, "x (time through attach / local, same script)")
}
if wanted("cluster.send.store.attached") {
    report("cluster.send.store.attached", try await clusterSendStoreAttached(300_000), "percent (with a shell attached / without)")
    report(
        "cluster.send.store.stalled", try await clusterSendStoreAttached(300_000, stalled: true), "percent (with a stalled shell attached / without)")
}
if wanted("remote.flood.rss") {
    report("remote.flood.rss", try await remoteFloodRSS(1_000_000), "MB (karc serve's peak over idle: a shell piping 1M lines, one not reading)")
}
if wanted("remote.flood.send") {
    report("remote.flood.send", try await remoteFloodSend(1_000_000), "percent (cluster.send with a shell piping 2M lines, reading none / without)")
}
if wanted("remote.flood.send.running") {
    report(
        "remote.flood.send.running", try await remoteFloodSend(1_000_000, running: true),
        "percent (the same with its commands running: they share the cores)")
}
if wanted("shell.startup") {
    report("shell.startup", try await shellStartup(), "ms")
}
