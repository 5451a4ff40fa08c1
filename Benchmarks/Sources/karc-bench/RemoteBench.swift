import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2
import KarcAsync
import KarcAttachProtocol
import KarcEndpoint
import Trellis

/// The store of `remote.send.uds` and `cluster.send.store.attached`, with a command a shell can type.
struct BenchBump: Action, Codable { var n = 1 }

/// What `remote.flood.send`'s flooding shell sends, to a store of its own.
struct SideBump: Action, Codable { var n = 1 }

/// An endpoint in this process on a counting store, named `bench`; with
/// `side`, a second store (`side`) that takes ``SideBump``.
func benchEndpoint(side: Bool = false) async throws -> (Cluster, socket: String, token: String, stop: @Sendable () async -> Void) {
    let cluster = try await Bootstrap {
        Store(model: BenchCounter.self)
            .mutate(on: BenchBump.self) { model, bump, _ in model.add(bump.n) }
            .mutate(on: BenchAdd.self) { model, action, _ in model.add(action.n) }
            .with(model: BenchCounter())
            .named("bench")
        if side {
            Store(model: BenchCounter.self)
                .mutate(on: SideBump.self) { model, bump, _ in model.add(bump.n) }
                .with(model: BenchCounter())
                .named("side")
        }
    }
    let directory = NSTemporaryDirectory() + "karc-bench-\(UUID().uuidString.prefix(8))"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let endpoint = ClusterEndpoint(cluster, name: "bench", configuration: .init(address: directory + "/bench.sock"))
    let (bound, announce) = AsyncStream.makeStream(of: ClusterEndpoint.Listening.self)
    let task = Task { try await endpoint.run { announce.yield($0) } }
    var iterator = bound.makeAsyncIterator()
    guard let listening = await iterator.next() else { throw CancellationError() }
    let token = try String(contentsOfFile: listening.tokenFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    return (
        cluster, String(listening.address.dropFirst("unix:".count)), token,
        {
            task.cancel()
            _ = try? await task.value
            await cluster.shutDown()
            try? FileManager.default.removeItem(atPath: directory)
        }
    )
}

/// A shell at the protocol's level at a prompt: types a line, waits for the prompt to come back.
final class BenchShell: Sendable {
    private let outgoing: AsyncStream<Karc_Attach_V1_ShellMessage>.Continuation
    private let resumes: AsyncStream<Void>
    private let client: GRPCClient<HTTP2ClientTransport.Posix>
    private let tasks: [Task<Void, Never>]

    /// `reading`: false for a shell that stops reading once its prompt is up (a stalled terminal).
    init(socket: String, token: String, diff: String = "on", reading: Bool = true) throws {
        let client = GRPCClient(transport: try HTTP2ClientTransport.Posix(target: .unixDomainSocket(path: socket), transportSecurity: .plaintext))
        self.client = client
        let (messages, outgoing) = AsyncStream.makeStream(of: Karc_Attach_V1_ShellMessage.self)
        self.outgoing = outgoing
        let (resumes, resumed) = AsyncStream.makeStream(of: Void.self)
        self.resumes = resumes
        outgoing.yield(
            .with {
                $0.hello = .with {
                    $0.protocolVersion = AttachProtocol.version
                    $0.input = .prompt
                    $0.options = .with {
                        $0.quiet = true
                        $0.diff = diff
                    }
                }
            })
        let connections = Task { _ = try? await client.runConnections() }
        let session = Task {
            _ = try? await Karc_Attach_V1_Attach.Client(wrapping: client).session(
                metadata: [AttachProtocol.tokenKey: .string(token)],
                requestProducer: { writer in
                    for await message in messages { try await writer.write(message) }
                },
                onResponse: { response in
                    for try await message in response.messages {
                        if case .prompt(let prompt) = message.kind {
                            switch prompt.kind {
                            case .start, .resume: resumed.yield(())
                            default: break
                            }
                            // Stalled: never reads again (until closed, which cancels this task).
                            if !reading { try await Task.sleep(for: .seconds(86_400)) }
                        }
                    }
                })
        }
        tasks = [connections, session]
    }

    /// Sends `line` and waits until its output is printed and the prompt is back.
    func run(_ line: String, iterator: inout AsyncStream<Void>.AsyncIterator) async {
        outgoing.yield(.with { $0.lines = .with { $0.lines = [line] } })
        _ = await iterator.next()
    }

    /// Types `lines` ahead, not waiting for their output.
    func typeAhead(_ lines: [String]) {
        outgoing.yield(.with { $0.lines = .with { $0.lines = lines } })
    }

    var promptResumes: AsyncStream<Void> { resumes }

    func close() {
        outgoing.finish()
        client.beginGracefulShutdown()
        tasks.forEach { $0.cancel() }
    }
}

/// `remote.send.uds`: typed commands through a Unix socket, one after another,
/// each until its reply, records and diff are back: round trips a second.
func remoteSendUDS(_ n: Int) async throws -> Double {
    let (_, socket, token, stop) = try await benchEndpoint()
    let shell = try BenchShell(socket: socket, token: token)
    var resumes = shell.promptResumes.makeAsyncIterator()
    _ = await resumes.next()  // the prompt is up
    let result = try await rate(operations: n) {
        for _ in 0..<n { await shell.run("bench.bench-bump", iterator: &resumes) }
    }
    shell.close()
    await stop()
    return result
}

/// `cluster.send.store` (one observer draining the records) with one shell
/// attached at a prompt besides, observing (its diffs on), as a percentage
/// of the same without the shell, alternately. With `stalled`, the shell
/// reads nothing once its prompt is up, and has typed more than the app
/// holds of its output: its session waits for room while the app sends.
func clusterSendStoreAttached(_ n: Int, stalled: Bool = false) async throws -> Double {
    func sends(attached: Bool) async throws -> Double {
        let (cluster, socket, token, stop) = try await benchEndpoint()
        let shell = attached ? try BenchShell(socket: socket, token: token, reading: !stalled) : nil
        if let shell {
            var resumes = shell.promptResumes.makeAsyncIterator()
            _ = await resumes.next()
            if stalled {
                // Output it will not read: some 19.6 MB of help, past what the transport takes in (the client's
                // HTTP/2 window, 8 MiB) and what the app holds for it (4 MiB): its session waits for room,
                // as a stalled terminal's does. (With 7.5 MB the transport took it all and the session never waited.)
                shell.typeAhead(Array(repeating: ":help", count: 6_000))
                try await Task.sleep(for: .seconds(1))
            }
        }
        let observation = cluster.observe()
        let observer = Task {
            var seen = 0
            for await _ in observation { seen += 1 }
            return seen
        }
        let clock = ContinuousClock()
        let elapsed = try await clock.measure {
            for _ in 0..<n { try await cluster.send(action: BenchAdd(n: 1)) }
        }
        shell?.close()
        await stop()
        _ = await observer.value
        return Double(n) / elapsed.seconds
    }
    _ = try await sends(attached: true)  // warm-up
    var ratios: [Double] = []
    for _ in 0..<samples {
        let without = try await sends(attached: false)
        let with = try await sends(attached: true)
        ratios.append(with / without * 100)
    }
    return median(ratios)
}

/// `remote.script.json`: a piped script of `n` commands through `karc attach
/// --json` to `karc serve` (both release binaries), commands a second, and
/// its time over the same script run locally (`karc --json`), alternately.
func remoteScriptJSON(_ n: Int) async throws -> (rate: Double, ratio: Double) {
    let script = Data(String(repeating: "counter.increment value=1\n", count: n).utf8)
    let runtime = NSTemporaryDirectory() + "karc-bench-run-\(UUID().uuidString.prefix(8))"
    let state = NSTemporaryDirectory() + "karc-bench-state"
    defer { try? FileManager.default.removeItem(atPath: runtime) }
    let clock = ContinuousClock()
    var local = Duration.seconds(1_000_000)
    var remote = Duration.seconds(1_000_000)
    for _ in 0..<2 {
        local = min(
            local,
            try clock.measure {
                let lines = try runKarc(["--json", "--fresh", "--state-dir", state], input: script)
                precondition(lines == n, "expected \(n) state lines, got \(lines)")
            })
        let serve = try await startServe(runtime: runtime, state: state + "-served")
        remote = min(
            remote,
            try clock.measure {
                let lines = try runKarc(["attach", "--json"], input: script, environment: ["XDG_RUNTIME_DIR": runtime])
                precondition(lines == n, "expected \(n) state lines through attach, got \(lines)")
            })
        serve.terminate()
        serve.waitUntilExit()
    }
    return (Double(n) / remote.seconds, remote.seconds / local.seconds)
}

/// `karc serve --fresh` (the release binary) with `runtime` as its
/// XDG_RUNTIME_DIR; returns once its socket is there.
func startServe(runtime: String, state: String) async throws -> Process {
    let serve = Process()
    serve.executableURL = karcBinary()
    serve.arguments = ["serve", "--fresh", "--state-dir", state]
    serve.environment = ProcessInfo.processInfo.environment.merging(["XDG_RUNTIME_DIR": runtime]) { $1 }
    serve.standardOutput = FileHandle.nullDevice
    serve.standardError = FileHandle.nullDevice
    try serve.run()
    while !FileManager.default.fileExists(atPath: runtime + "/karc/demo.sock") { try await Task.sleep(for: .milliseconds(10)) }
    return serve
}
