import Foundation
import TestSupport

/// `karc serve` running for a test, in a runtime directory of its own
/// (`XDG_RUNTIME_DIR`), and `karc attach` runs against it.
final class ServedDemo: Sendable {
    let scratch: ScratchDirectory
    let process: ChildProcess.Running
    /// Its `--name`: its socket's and token file's.
    let name: String
    var runtimeDirectory: String { scratch.path + "/run" }
    var socket: String { runtimeDirectory + "/karc/\(name).sock" }
    var tokenFile: String { runtimeDirectory + "/karc/\(name).token" }

    /// Starts `karc serve --fresh` with `arguments`; returns once it listens.
    /// `in`: the directory of an earlier one (the app restarting in place).
    init(
        _ arguments: [String] = [], name: String = "demo", tick: String = "200ms", in scratch: ScratchDirectory = ScratchDirectory("karc-serve")
    ) async throws {
        self.scratch = scratch
        self.name = name
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = scratch.path + "/run"
        environment["XDG_DATA_HOME"] = scratch.path + "/data"
        process = try ChildProcess.start(
            [KarcRun.binaryPath, "serve", "--fresh", "--tick", tick, "--state-dir", scratch.path + (name == "demo" ? "/state" : "/state-\(name)")]
                + (name == "demo" ? [] : ["--name", name]) + arguments,
            environment: environment)
        let process = self.process
        guard
            await process.until({ $0.stdout.contains("attach with:") || $0.stderr.contains("error") || $0.outputEnded }),
            process.stdout.contains("attach with:")
        else {
            _ = await process.stop(signal: SIGKILL)
            throw NotListening(stdout: process.stdout, stderr: process.stderr)
        }
    }

    struct NotListening: Error, CustomStringConvertible {
        let stdout: String
        let stderr: String
        var description: String { "karc serve did not listen:\n\(stdout)\(stderr)" }
    }

    /// Runs `karc attach arguments…` against this endpoint (its runtime directory).
    func attach(_ arguments: [String], input: String = "") async throws -> KarcRun {
        try await KarcRun.run(["attach"] + arguments, input: input, environment: ["XDG_RUNTIME_DIR": runtimeDirectory])
    }

    /// Starts `karc attach arguments…` against this endpoint and returns at
    /// once: a shell that runs beside others (a watcher, one Ctrl-C ends).
    func startAttach(_ arguments: [String], keepsInput: Bool = false) throws -> ChildProcess.Running {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = runtimeDirectory
        return try ChildProcess.start([KarcRun.binaryPath, "attach"] + arguments, environment: environment, keepsInput: keepsInput)
    }

    /// SIGTERM, and the exit status.
    func stop() async -> Int32 {
        await process.stop()
    }

    deinit {
        kill(process.pid, SIGKILL)  // a test that failed before stopping it leaves nothing running
    }
}
