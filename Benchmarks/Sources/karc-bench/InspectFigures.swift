import Foundation
import KarcEndpoint
import KarcInspector
import KarcSession
import KarcSessionTrellis
import Trellis

/// `karc --json --fresh` (the release binary) on a piped script of `n`
/// commands; with `inspect`, `--inspect` and a page that opens before the
/// script starts and follows it (or, not `following`, never reads). The
/// script's time, and the process's peak resident memory (`/usr/bin/time`).
func inspectedScript(_ n: Int, inspect: Bool, following: Bool = true) async throws -> (seconds: Double, megabytes: Double) {
    let report = NSTemporaryDirectory() + "karc-bench-inspect-rss-\(getpid())"
    defer { try? FileManager.default.removeItem(atPath: report) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
    process.arguments =
        ["-f", "%M", "-o", report, karcBinary().path, "--json", "--fresh", "--state-dir", NSTemporaryDirectory() + "karc-bench-state"]
        + (inspect ? ["--inspect"] : [])
    let stdin = Pipe()
    let stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = FileHandle.nullDevice
    process.standardError = stderr
    let ended = AsyncStream.makeStream(of: Void.self)
    process.terminationHandler = { _ in ended.continuation.finish() }
    try process.run()
    var page: BenchPage?
    if inspect {
        page = try await BenchPage(url: inspectorURL(printedOn: stderr), following: following)
        // The page is in (its greeting came) before the script starts.
        while following, page?.messages == 0 { try await Task.sleep(for: .milliseconds(1)) }
    }
    let script = Data(String(repeating: "counter.increment value=1\n", count: n).utf8)
    let clock = ContinuousClock()
    let start = clock.now
    let writer = stdin.fileHandleForWriting
    Thread {
        writer.write(script)
        try? writer.close()
    }.start()
    for await _ in ended.stream {}
    let elapsed = clock.now - start
    precondition(process.terminationStatus == 0, "karc exited with \(process.terminationStatus)")
    await page?.close()
    let kilobytes = try String(contentsOfFile: report, encoding: .utf8).split(separator: "\n").last.flatMap { Double($0) } ?? 0
    return (seconds(elapsed), kilobytes / 1024)
}

/// The inspector's URL, from the first line `karc --inspect` prints on standard error (`stderr`).
func inspectorURL(printedOn stderr: Pipe) -> String {
    var said = ""
    while !said.contains("\n") { said += String(decoding: stderr.fileHandleForReading.availableData, as: UTF8.self) }
    guard let url = said.firstMatch(of: /http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]+/).map({ String($0.output) }) else {
        fatalError("karc --inspect printed no URL: \(said)")
    }
    return url
}

/// `inspect.script`: a piped `--json` script with a page open and following,
/// as a percentage of the same script's rate without `--inspect`, pairs in turn.
func inspectScriptRatio(_ n: Int) async throws -> Double {
    _ = try await inspectedScript(n / 10, inspect: true)  // warm-up
    var ratios: [Double] = []
    for _ in 0..<3 {
        let without = try await inspectedScript(n, inspect: false)
        let with = try await inspectedScript(n, inspect: true)
        ratios.append(without.seconds / with.seconds * 100)
    }
    return median(ratios)
}

/// `inspect.stalled.rss`: the peak memory a page that never reads adds to a
/// piped script of `n` commands, in MB (with less without, pairs in turn: the smaller difference).
func inspectStalledMemory(_ n: Int) async throws -> (with: Double, without: Double) {
    let without = try await inspectedScript(n, inspect: false)
    let with = try await inspectedScript(n, inspect: true, following: false)
    return (with.megabytes, without.megabytes)
}

/// `inspect.send.store`: `cluster.send.store` (one observer draining) with
/// an app's inspector besides (``AppInspector``: a session observing the
/// cluster, its page open and following), as a percentage of the same
/// without it, in turn.
func inspectSendStoreRatio(_ n: Int) async throws -> Double {
    func sends(inspected: Bool) async throws -> Double {
        let cluster = try await Bootstrap {
            Store(model: BenchCounter.self)
                .mutate(on: BenchBump.self) { model, bump, _ in model.add(bump.n) }
                .mutate(on: BenchAdd.self) { model, action, _ in model.add(action.n) }
                .with(model: BenchCounter())
                .named("bench")
        }
        let inspector = inspected ? AppInspector() : nil
        var page: BenchPage?
        if let inspector {
            page = try await BenchPage(url: try await inspector.start(ClusterShell(name: "bench", cluster: cluster)))
            while page?.messages == 0 { try await Task.sleep(for: .milliseconds(1)) }
        }
        let observation = cluster.observe()
        let observer = Task { for await _ in observation {} }
        let clock = ContinuousClock()
        let elapsed = try await clock.measure {
            for _ in 0..<n { try await cluster.send(action: BenchAdd(n: 1)) }
        }
        await page?.close()
        await inspector?.stop()
        await cluster.shutDown()
        _ = await observer.value
        return Double(n) / seconds(elapsed)
    }
    _ = try await sends(inspected: true)  // warm-up
    var ratios: [Double] = []
    for _ in 0..<samples {
        let without = try await sends(inspected: false)
        let with = try await sends(inspected: true)
        ratios.append(with / without * 100)
    }
    return median(ratios)
}

/// `inspect.latency`: a command run from a page (`karc --inspect`, the
/// release binary, its input kept open) to its answer, which comes after
/// its output reached the page: milliseconds at the 50th and 99th
/// percentiles of `n`, at an idle session, and while a piped script of
/// `load` commands runs at full speed in the same session.
func inspectLatency(_ n: Int, load: Int) async throws -> (idle: (Double, Double), loaded: (Double, Double)) {
    let process = Process()
    process.executableURL = karcBinary()
    process.arguments = ["--json", "--fresh", "--state-dir", NSTemporaryDirectory() + "karc-bench-state", "--inspect"]
    let stdin = Pipe()
    let stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = FileHandle.nullDevice
    process.standardError = stderr
    try process.run()
    let page = try await BenchPage(url: inspectorURL(printedOn: stderr))
    func percentiles() async -> (Double, Double) {
        var times: [Double] = []
        let clock = ContinuousClock()
        for _ in 0..<n {
            let elapsed = await clock.measure { await page.ask(#""ask":"run","line":"counter.increment""#) }
            times.append(seconds(elapsed) * 1_000)
        }
        times.sort()
        return (times[times.count / 2], times[min(times.count - 1, times.count * 99 / 100)])
    }
    let idle = await percentiles()
    let writer = stdin.fileHandleForWriting
    let script = Data(String(repeating: "counter.increment value=1\n", count: load).utf8)
    let written = DispatchSemaphore(value: 0)
    Thread {
        writer.write(script)
        written.signal()
    }.start()
    let loaded = await percentiles()
    // The session may still run the script; its input ends once all of it is written.
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        Thread {
            written.wait()
            done.resume()
        }.start()
    }
    try? writer.close()
    await page.close()
    process.terminate()
    process.waitUntilExit()
    return (idle, loaded)
}

/// `inspect.bigstate`: what a page asks when a command is selected on a
/// state of 10,000 elements (the target's top level, then its list's first
/// 200), answered by the session: milliseconds, median of `n`.
func inspectBigState(_ n: Int) async throws -> Double {
    let cluster = try await Bootstrap {
        Store(model: BigState.self).mutate(on: BigBump.self) { state, bump, _ in state.items[bump.index % 10_000] += 1 }.with(model: BigState())
            .named("big")
    }
    let shell = ClusterShell(name: "big", cluster: cluster)
    var runtime = ShellRuntime()
    runtime.inspector = InspectorStarter()
    let session = ShellSession(cluster: shell, options: ShellOptions(), sink: OutputSink(forwarding: { _, _ in }), runtime: runtime)
    _ = await ScriptRunner(session: session).run(lines: [":sleep 1ms"], name: nil)
    try await cluster.send(action: BigBump(index: 3))
    _ = await ScriptRunner(session: session).run(lines: [":sleep 1ms"], name: nil)
    let answer = await session.answer(.state(target: "big", path: "items", after: nil, offset: 0, limit: 200))
    precondition(answer.contains(#""count":10000"#), "the big state's list was not answered: \(answer.prefix(300))")
    var times: [Double] = []
    let clock = ContinuousClock()
    for _ in 0..<n {
        let elapsed = await clock.measure {
            _ = await session.answer(.state(target: "big", path: "", after: nil, offset: 0, limit: 200))
            _ = await session.answer(.state(target: "big", path: "items", after: nil, offset: 0, limit: 200))
        }
        times.append(seconds(elapsed) * 1_000)
    }
    await cluster.shutDown()
    return median(times)
}
