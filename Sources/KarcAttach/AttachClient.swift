import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2
import KarcAsync
import KarcAttachProtocol
import KarcShell

/// `karc attach`: the shell's front in this process, its session in the app.
///
/// ```
///  terminal / script ──▶ lines ──▶ Session stream ──▶ app: Shell.runSession
///  stdout, stderr ◀── Output ◀──────────────────────── (what it prints)
///  LineEditor ◀── PromptMessage; FileRequest ──▶ files here ──▶ FileReply
/// ```
///
/// What the user types is read and edited here (history, completion from
/// the app's catalog); everything a command prints comes from the app.
package enum AttachClient {
    /// Runs a session against the endpoint `arguments` names; the exit status.
    package static func run(_ arguments: AttachArguments) async -> Int32 {
        let (address, script) = arguments.endpointAndScript
        var connection: AttachConnection
        do {
            connection = try AttachConnection.resolve(address, tokenFile: arguments.tokenFile, tlsCA: arguments.tlsCA)
        } catch {
            return fail(error.message)
        }
        var shell = arguments.shell
        shell.file = script
        let prompting = shell.commands.isEmpty && shell.file == nil && isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
        var hello = Karc_Attach_V1_Hello()
        hello.protocolVersion = AttachProtocol.version
        hello.options = sessionOptions(shell.options)
        // `:inspect` runs first, before the -e commands, the script or the prompt: the app prints the page's URL.
        hello.commands = (arguments.inspect ? [AttachProtocol.inspectCommand] : []) + shell.commands
        let lines: (any LineSource)?
        if let file = shell.file, file != "-" {
            do {
                lines = try LocalHost.openScript(file)
            } catch {
                return fail(error.message)
            }
            hello.input = .script
            hello.scriptName = file
        } else if !prompting, shell.file != nil || shell.commands.isEmpty {
            lines = StandardInputLines()
            hello.input = .script
            hello.scriptName = "<stdin>"
        } else {
            lines = nil
            hello.input = prompting ? .prompt : .none
        }
        let front = AttachFront(historyFile: shell.options.history.file, prompting: prompting, address: connection.address)
        if arguments.inspect { front.askedForInspector() }
        var pause = ReconnectPause()
        var tokenReread = false
        while true {
            do {
                let transport = try connection.transport()
                let status = try await withGRPCClient(transport: transport) { client in
                    try await session(client: client, token: connection.token, hello: hello, lines: lines, front: front)
                }
                await front.stopEditor()
                return status
            } catch {
                let rpc = error as? RPCError
                // An app that restarted writes a new token as it starts: one read too early
                // is stale. Read it once more before saying the token is wrong.
                if rpc?.code == .unauthenticated, !tokenReread {
                    tokenReread = true
                    if let again = try? AttachConnection.resolve(address, tokenFile: arguments.tokenFile, tlsCA: arguments.tlsCA),
                        again.token != connection.token
                    {
                        connection = again
                        continue
                    }
                }
                // At a prompt that had a session, a lost connection is waited out: the app may be restarting.
                guard prompting, front.wasWelcomed, rpc.map(isConnectionLoss) ?? true else {
                    await front.stopEditor()
                    var text = "connection lost: \(error)"
                    if let rpc { text = await message(for: rpc, connection: connection) }
                    if rpc?.code == .unauthenticated, let tokenFile = arguments.tokenFile { text += "; this shell read --token-file \(tokenFile)" }
                    if !front.wasWelcomed, let rpc, let reason = Self.notConnected(rpc) {
                        return fail("cannot connect to \(connection.address): \(reason)")
                    }
                    // TLS spoken to a plaintext shell looks like a connection closed early.
                    if case .tcp = connection.address, connection.tlsCA == nil, !front.wasWelcomed, rpc?.code == .unavailable {
                        text += " (if the endpoint uses TLS, pass --tls-ca FILE)"
                    }
                    return fail(text)
                }
                var reason = "\(error)"
                if let rpc { reason = await message(for: rpc, connection: connection) }
                // The startup files ran in the first session; a command in one must not run again.
                hello.options.startupDirectory = ""
                // What the user set in the lost session comes back in the next (ReconnectNotice says what did).
                let kept = front.kept
                hello.options.watches = kept.watches
                hello.options.trace = kept.tracing
                // The page of the lost session ended with it: the new one serves another (its address printed first).
                hello.commands = kept.inspector ? [AttachProtocol.inspectCommand] : []
                // `reconnecting` is cleared by a welcome: the last try connected, this is a new outage.
                let wait = pause.take(newOutage: !front.reconnecting.withLock { $0 })
                guard await front.waitToReconnect(after: reason, pause: wait) else {
                    await front.stopEditor()
                    return 1
                }
                // The app may have restarted with a new token: read it again (and once more if it is refused:
                // each restart may be caught writing it).
                if let again = try? AttachConnection.resolve(address, tokenFile: arguments.tokenFile, tlsCA: arguments.tlsCA) {
                    connection = again
                }
                tokenReread = false
            }
        }
    }

    /// Why no connection was made at all, when that is what `error` says
    /// (not a connection that was made and then closed: that is "lost").
    static func notConnected(_ error: RPCError) -> String? {
        // A call made after the channel failed to connect says so after its own words
        // ("Channel is in a transient failure state… Could not establish…"): gRPC merges the two.
        guard error.code == .unavailable, error.message.contains("Could not establish a connection") else { return nil }
        let cause = error.cause.map { "\($0)" } ?? ""
        if cause.contains("Connection refused") { return "nothing accepts connections there (is the app serving on it, `karc serve --listen …`?)" }
        if cause.contains("No such file") { return "no socket there (is the app serving, `karc serve`?)" }
        if cause.contains("Permission denied") { return "permission denied (the endpoint is its user's: attach as that user)" }
        if cause.contains("timed out") || cause.contains("Timed out") {
            return "the connection timed out (is the address right, and open to this machine?)"
        }
        return cause.isEmpty ? "no connection could be made" : "no connection could be made (\(cause))"
    }

    /// Whether an error means the connection went (the app stopped, crashed, restarted), not a refusal.
    static func isConnectionLoss(_ error: RPCError) -> Bool {
        ![.unauthenticated, .failedPrecondition, .invalidArgument, .resourceExhausted, .permissionDenied].contains(error.code)
    }

    private static func session(
        client: GRPCClient<HTTP2ClientTransport.Posix>, token: String, hello: Karc_Attach_V1_Hello,
        lines: (any LineSource)?, front: AttachFront
    ) async throws -> Int32 {
        let attach = Karc_Attach_V1_Attach.Client(wrapping: client)
        var options = CallOptions.defaults
        options.maxResponseMessageBytes = 64 << 20
        options.maxRequestMessageBytes = AttachProtocol.defaultMaxMessageBytes
        options.waitForReady = false
        let outgoing = Outgoing()
        // Ctrl-C in a script: the running command stops waiting in the app.
        let interrupter = Interrupter()
        if hello.input != .prompt { ScriptSignals.forward(to: interrupter) }
        let result: Result<Int32, any Error> = await interrupter.whileWaiting(onInterrupt: { outgoing.send(.with { $0.interrupt = .init() }) }) {
            do {
                return .success(
                    try await attach.session(
                        metadata: [AttachProtocol.tokenKey: .string(token)], options: options,
                        requestProducer: { writer in
                            try await writer.write(.with { $0.hello = hello })
                            try await withThrowingTaskGroup(of: Void.self) { group in
                                if let lines {
                                    let name = hello.scriptName
                                    group.addTask { if !(await pump(lines, name: name, to: outgoing)) { front.failedLocally() } }
                                }
                                for await message in outgoing.messages {
                                    try await writer.write(message)
                                }
                                group.cancelAll()
                            }
                        },
                        onResponse: { response in
                            try await front.handle(response.messages, answering: outgoing)
                        }))
            } catch { return .failure(error) }
        }
        front.disconnect(outgoing)
        let status = try result.get()
        // A script a signal ended (the app stopped its command) exits as that signal says.
        if hello.input != .prompt, let signalled = ScriptSignals.exitStatus { return signalled }
        return front.hasFailedLocally ? max(status, 1) : status
    }

    /// Sends a script's lines as they are read, in batches, each once the
    /// app has room for it (its credit), then the end. A line too long for
    /// the app's messages ends the script there, with an error (false);
    /// what came before it runs.
    private static func pump(_ lines: any LineSource, name: String, to outgoing: Outgoing) async -> Bool {
        var batch: [String] = []
        var bytes = 0
        var number = 0
        var sent = true
        defer { outgoing.send(.with { $0.endOfInput = .init() }) }
        // What is left of a message after its framing, as the app says it in its Welcome.
        guard let maxMessageBytes = await outgoing.gate.maxMessageBytes() else { return true }
        let maxLineBytes = maxMessageBytes - 4096
        // A batch stays well under a message, and under the credit, so it can go before the app has taken all the rest.
        let batchBytes = min(1 << 20, maxLineBytes)
        func send() async {
            if sent { sent = await outgoing.send(lines: batch) }
            batch.removeAll(keepingCapacity: true)
            bytes = 0
        }
        while sent, let line = await lines.next() {
            number += 1
            guard line.utf8.count <= maxLineBytes else {
                if !batch.isEmpty { await send() }
                _ = fail(
                    "\(name):\(number): the line is \(line.utf8.count) bytes; a line sent to the app may be at most \(maxLineBytes) (its messages are at most \(maxMessageBytes) bytes)"
                )
                return false
            }
            if bytes + line.utf8.count > batchBytes { await send() }
            batch.append(line)
            bytes += line.utf8.count
            if batch.count >= 512 || !lines.hasLineReady { await send() }
            if Task.isCancelled { return true }
        }
        if !batch.isEmpty { await send() }
        return true
    }

    /// The shell's flags as the app's session takes them; colour is decided here (this terminal).
    static func sessionOptions(_ options: ShellOptions) -> Karc_Attach_V1_SessionOptions {
        .with {
            $0.json = options.printing.json
            $0.jsonStates = options.printing.jsonStates
            $0.trace = options.printing.trace
            $0.echo = options.printing.echo
            $0.keepGoing = options.keepGoing
            $0.timeoutMs = UInt64(max(1, ShellDuration.milliseconds(options.timeout)))
            $0.color =
                options.printing.color
                ?? (isatty(STDOUT_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil && !options.printing.json)
            $0.diff = options.printing.diff.rawValue
            $0.quiet = options.printing.quiet
            $0.recordFile = options.history.recordFile.map { URL(fileURLWithPath: $0).path } ?? ""
            $0.recordFailures = options.history.recordsFailures
            $0.startupDirectory = options.startupDirectory ?? ""
            $0.testFactory = options.testExport.factory ?? ""
            $0.testImports = options.testExport.imports
        }
    }

    /// What went wrong, as the user reads it: a refused certificate as that, not as the connection it closed.
    static func message(for error: RPCError, connection: AttachConnection) async -> String {
        if let tlsCA = connection.tlsCA, let refusal = await AttachTLSRefusal.message(for: error, address: connection.address, tlsCA: tlsCA) {
            return refusal
        }
        return message(for: error, address: connection.address)
    }

    /// What went wrong, as the user reads it.
    static func message(for error: RPCError, address: AttachAddress) -> String {
        switch error.code {
        case .unauthenticated: "the app refused this shell: \(error.message)"
        case .failedPrecondition, .invalidArgument, .resourceExhausted: "\(address): \(error.message)"
        case .unavailable where error.message.contains("shutting down"): "connection lost: \(error.message)"
        default: "connection lost to \(address): \(error.message)"
        }
    }

    static func fail(_ message: String) -> Int32 {
        OutputSink.writeAll(Array("karc attach: error: \(message)\n".utf8), to: STDERR_FILENO)
        return 1
    }
}

/// The messages to send, in order, from any task; lines only as the app's
/// credit allows (``LineGate``), so at most that much is ever queued here.
final class Outgoing: Sendable {
    let messages: AsyncStream<Karc_Attach_V1_ShellMessage>
    private let continuation: AsyncStream<Karc_Attach_V1_ShellMessage>.Continuation
    let gate = LineGate()

    init() {
        (messages, continuation) = AsyncStream.makeStream()
    }

    func send(_ message: Karc_Attach_V1_ShellMessage) {
        continuation.yield(message)
    }

    /// Sends `lines` once the app has room for them; false when the connection went first.
    func send(lines: [String]) async -> Bool {
        guard await gate.acquire(lines) else { return false }
        let columns = LineEditor.terminalColumns ?? 0
        send(
            .with {
                $0.lines = .with {
                    $0.lines = lines
                    $0.columns = UInt32(clamping: columns)
                }
            })
        return true
    }

    func finish() {
        gate.close()
        continuation.finish()
    }
}
