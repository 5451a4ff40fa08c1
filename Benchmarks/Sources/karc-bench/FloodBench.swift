import Foundation
import Trellis

/// A `karc attach` process piping `lines` to the endpoint at `socket`
/// (its output thrown away, or never read with `stalled`).
func floodingShell(socket: String, tokenFile: String, lines: Data, stalled: Bool = false) throws -> Process {
    let process = Process()
    process.executableURL = karcBinary()
    process.arguments = ["attach", "--keep-going", "--token-file", tokenFile, "unix:" + socket, "-"]
    let stdin = Pipe()
    process.standardInput = stdin
    // A stalled shell: its output goes to a pipe nobody reads, so it stops reading the app.
    process.standardOutput = stalled ? Pipe() : FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    let writer = stdin.fileHandleForWriting
    // A shell stopped before it read everything: the rest is not written (no SIGPIPE, no trap).
    signal(SIGPIPE, SIG_IGN)
    Thread {
        try? writer.write(contentsOf: lines)
        try? writer.close()
    }.start()
    return process
}

/// `/proc/PID/status`'s `key` (VmRSS, VmHWM) in MB.
func memory(of pid: Int32, _ key: String) -> Double {
    let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix(key + ":") } ?? ""
    return (Double(line.split(separator: " ").dropFirst().first ?? "") ?? 0) / 1024
}

/// `remote.flood.rss`: how much `karc serve` grows (peak resident memory
/// over idle, MB) while one shell pipes `n` lines to it through attach and
/// another stops reading its output halfway through a script of its own.
func remoteFloodRSS(_ n: Int) async throws -> Double {
    let runtime = NSTemporaryDirectory() + "karc-bench-flood-\(UUID().uuidString.prefix(8))"
    defer { try? FileManager.default.removeItem(atPath: runtime) }
    let serve = try await startServe(runtime: runtime + "/run", state: runtime + "/state")
    let socket = runtime + "/run/karc/demo.sock"
    try await Task.sleep(for: .milliseconds(200))
    let idle = memory(of: serve.processIdentifier, "VmRSS")
    let script = Data(String(repeating: "counter.increment value=1\n", count: n).utf8)
    let tokenFile = runtime + "/run/karc/demo.token"
    let flood = try floodingShell(socket: socket, tokenFile: tokenFile, lines: script)
    let stalled = try floodingShell(socket: socket, tokenFile: tokenFile, lines: script, stalled: true)
    flood.waitUntilExit()
    let peak = memory(of: serve.processIdentifier, "VmHWM")
    stalled.terminate()
    stalled.waitUntilExit()
    serve.terminate()
    serve.waitUntilExit()
    return peak - idle
}

/// `remote.flood.send`: `cluster.send` on a store while a shell pipes 2M
/// lines to the app through attach and reads none of their output (the
/// case flow control is for: its session soon waits, its lines wait in the
/// shell), as a percentage of the same without it, alternately. With
/// `running`, the shell reads its output, so its commands (to another store
/// of the same cluster) run all along and take their share of the cores.
///
/// Both sides have one observer draining the cluster's records, as in
/// `cluster.send.store.attached`: a cluster nobody observes skips making
/// records at all, and an attached shell is an observer, so without it the
/// figure would measure observing (about half a send), not the flood.
func remoteFloodSend(_ n: Int, running: Bool = false) async throws -> Double {
    func sends(flooded: Bool) async throws -> Double {
        let (cluster, socket, token, stop) = try await benchEndpoint(side: true)
        let tokenFile = NSTemporaryDirectory() + "karc-bench-token-\(UUID().uuidString.prefix(8))"
        try token.write(toFile: tokenFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: tokenFile) }
        let lines = Data(String(repeating: "side.side-bump n=1\n", count: 2_000_000).utf8)
        let flood = flooded ? try floodingShell(socket: socket, tokenFile: tokenFile, lines: lines, stalled: !running) : nil
        // The flood is under way (and, not read, has filled what holds its output).
        if flooded { try await Task.sleep(for: .seconds(1)) }
        let observation = cluster.observe()
        let observer = Task { for await _ in observation {} }
        let clock = ContinuousClock()
        let elapsed = try await clock.measure {
            for _ in 0..<n { try await cluster.send(action: BenchAdd(n: 1)) }
        }
        flood?.terminate()
        flood?.waitUntilExit()
        await stop()
        await observer.value
        return Double(n) / elapsed.seconds
    }
    var ratios: [Double] = []
    for _ in 0..<samples {
        let without = try await sends(flooded: false)
        let with = try await sends(flooded: true)
        ratios.append(with / without * 100)
    }
    return median(ratios)
}
