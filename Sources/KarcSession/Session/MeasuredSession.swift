import KarcAsync
import KarcOutput

extension Shell {
    /// For benchmarks: a session on `cluster` that runs `setUp`, then each
    /// line of `measured`, and says how long each of those took (its output
    /// written out); nil when a line failed. A steady-state cost (a `:blame`
    /// at the end of 100,000 commands) is measured without subtracting two
    /// runs of everything before it.
    package static func measure(
        _ cluster: any ShellCluster, options: ShellOptions, setUp: [String], measured: [String], sink: OutputSink
    ) async -> [Duration]? {
        let session = ShellSession(cluster: cluster, options: options, sink: sink)
        let runner = ScriptRunner(session: session)
        _ = await cluster.settled(timeout: options.timeout)
        guard await runner.run(lines: setUp, name: "set-up") == .succeeded else { return nil }
        sink.flush()
        let clock = ContinuousClock()
        var times: [Duration] = []
        for line in measured {
            var result = ScriptRunner.Result.failed
            times.append(
                await clock.measure {
                    result = await runner.run(lines: [line], name: "measured")
                    sink.flush()
                })
            guard result == .succeeded else { return nil }
        }
        return times
    }
}
