import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2
import KarcAsync
import KarcAttachProtocol
import KarcEndpoint
import KarcSynchronization
import TestSupport
import Trellis

/// An endpoint on a beating cluster, running for one test, in a directory of its own.
final class RunningEndpoint: Sendable {
    let scratch = ScratchDirectory("karc-endpoint")
    let cluster: Cluster
    let endpoint: ClusterEndpoint
    private let task: Task<Void, any Error>
    let listening: ClusterEndpoint.Listening
    /// What `slow.hold` waits for.
    let latch = Latch()

    /// `make`: the cluster, given the latch (the beating one by default).
    init(
        configure: (inout ClusterEndpoint.Configuration) -> Void = { _ in },
        cluster make: (Latch) async throws -> Cluster = { try await beatingCluster(latch: $0) }
    ) async throws {
        cluster = try await make(latch)
        var configuration = ClusterEndpoint.Configuration(address: scratch.path + "/beat.sock")
        configure(&configuration)
        let endpoint = ClusterEndpoint(cluster, name: "beat", configuration: configuration)
        self.endpoint = endpoint
        let (bound, announce) = AsyncStream.makeStream(of: ClusterEndpoint.Listening.self)
        task = Task { try await endpoint.run { announce.yield($0) } }
        var iterator = bound.makeAsyncIterator()
        guard let listening = await iterator.next() else { throw CancellationError() }
        self.listening = listening
    }

    var socket: String { String(listening.address.dropFirst("unix:".count)) }
    var token: String { (try? String(contentsOfFile: listening.tokenFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "" }

    /// Stops listening (as a cancelled service does) and waits for it.
    func stop() async throws {
        task.cancel()
        try? await task.value
        await cluster.shutDown()
    }

    deinit { task.cancel() }
}

/// A shell at the protocol's level: sends what a test says, keeps what the app sends.
final class TestShell: Sendable {
    private let outgoing: AsyncStream<Karc_Attach_V1_ShellMessage>.Continuation
    /// What the app sent, and how the call ended; shared with the call's task,
    /// which wakes the tests waiting in ``until(_:)`` at each change.
    private final class Record: Sendable {
        private let received = KarcMutex<[Karc_Attach_V1_AppMessage]>([])
        private let ended = KarcMutex<Result<Void, RPCError>?>(nil)
        let changes = Changes()

        var messages: [Karc_Attach_V1_AppMessage] { received.withLock { $0 } }
        var end: Result<Void, RPCError>? { ended.withLock { $0 } }

        func append(_ message: Karc_Attach_V1_AppMessage) {
            received.withLock { $0.append(message) }
            changes.changed()
        }

        func end(_ result: Result<Void, RPCError>) {
            ended.withLock { $0 = result }
            changes.changed()
        }
    }

    private let record = Record()
    private let client: GRPCClient<HTTP2ClientTransport.Posix>
    private let tasks: [Task<Void, Never>]
    /// Opened by ``resume()``: a shell made with `reading: false` reads nothing after the welcome and the prompt until then.
    private let gate: AsyncStream<Void>.Continuation

    /// Connects to `socket` and sends `hello` (or a prompt session's) with `token`.
    /// `window`: the shell's HTTP/2 receive window (gRPC's default, 8 MiB, unless given); with a small
    /// one, a shell that stops reading is felt by the app after a few hundred KB of output.
    init(
        socket: String, token: String, hello: Karc_Attach_V1_Hello = TestShell.prompt, reading: Bool = true, window: Int? = nil
    ) throws {
        let config = HTTP2ClientTransport.Posix.Config.defaults { config in
            if let window { config.http2.targetWindowSize = window }
        }
        let client = GRPCClient(
            transport: try HTTP2ClientTransport.Posix(target: .unixDomainSocket(path: socket), transportSecurity: .plaintext, config: config))
        self.client = client
        let (messages, outgoing) = AsyncStream.makeStream(of: Karc_Attach_V1_ShellMessage.self)
        self.outgoing = outgoing
        let (opened, gate) = AsyncStream.makeStream(of: Void.self)
        self.gate = gate
        if reading { gate.yield(()) }
        outgoing.yield(.with { $0.hello = hello })
        let connections = Task { _ = try? await client.runConnections() }
        let session = Task { [record, outgoing] in
            do {
                try await Karc_Attach_V1_Attach.Client(wrapping: client).session(
                    metadata: [AttachProtocol.tokenKey: .string(token)],
                    requestProducer: { writer in
                        for await message in messages { try await writer.write(message) }
                    },
                    onResponse: { response in
                        var waited = false
                        for try await message in response.messages {
                            // A stalled shell: reads nothing after the welcome and the prompt until the gate opens.
                            if !waited, record.messages.count >= 2 {
                                for await _ in opened { break }
                                waited = true
                            }
                            record.append(message)
                            // `:state` at a prompt pages its text here: shown, and answered.
                            if case .fileRequest(let request)? = message.kind, request.action == .page {
                                outgoing.yield(.with { $0.fileReply = .with { $0.id = request.id } })
                            }
                        }
                    })
                record.end(.success(()))
            } catch let error as RPCError {
                record.end(.failure(error))
            } catch {
                record.end(.failure(RPCError(code: .unknown, message: "\(error)")))
            }
        }
        tasks = [connections, session]
    }

    static let prompt = Karc_Attach_V1_Hello.with {
        $0.protocolVersion = AttachProtocol.version
        $0.input = .prompt
        $0.options = .with {
            $0.quiet = true
            $0.diff = "off"
        }
    }

    /// A stalled shell starts reading.
    func resume() {
        gate.yield(())
    }

    func send(_ message: Karc_Attach_V1_ShellMessage) {
        outgoing.yield(message)
    }

    func type(_ line: String) {
        send(.with { $0.lines = .with { $0.lines = [line] } })
    }

    var messages: [Karc_Attach_V1_AppMessage] { record.messages }

    /// Waits until `condition` holds of this shell, woken by each message and
    /// by the end of the call (no polling; a hang is the suite's time limit, named).
    func until(_ condition: (TestShell) -> Bool) async -> Bool {
        await record.changes.until { condition(self) }
    }

    /// Waits until the shell shows its prompt: its session is idle, watching records.
    func prompted() async -> Bool {
        await until {
            $0.messages.contains { if case .prompt(let prompt) = $0.kind, case .start? = prompt.kind { true } else { false } }
        }
    }

    /// Everything printed so far: output and text printed above the prompt, in order.
    var printed: String {
        messages.map { message -> String in
            switch message.kind {
            case .output(let output): String(decoding: output.text, as: UTF8.self)
            case .prompt(let prompt): if case .print(let bytes)? = prompt.kind { String(decoding: bytes, as: UTF8.self) } else { "" }
            case .fileRequest(let request): request.action == .page ? String(decoding: request.content, as: UTF8.self) : ""
            default: ""
            }
        }.joined()
    }

    /// How the call ended: nil while it runs.
    var end: Result<Void, RPCError>? { record.end }

    func close() {
        outgoing.finish()
        gate.finish()
        client.beginGracefulShutdown()
        tasks.forEach { $0.cancel() }
    }

    deinit { close() }
}
