import Foundation
import GRPCCore
import KarcAsync
import KarcAttachProtocol
import KarcSession
import KarcSessionTrellis
import Logging

/// One attached shell's session, run in the app:
///
/// ```
/// shell ──Hello, Lines, Interrupt, FileReply──▶ reader ──▶ RemoteLines / RemoteEditor / RemoteHost
///                                                              │
///                              Shell.runSession (the same code as a local shell)
///                                                              │ OutputSink(forwarding:)
/// shell ◀──Welcome, Output, PromptMessage, FileRequest, Exit── writer ◀── Outbox
/// ```
///
/// The session observes the cluster itself (its own bounded buffer: a shell
/// that falls behind is told `lost N records`), so no shell ever makes the
/// app's sends wait.
struct AttachService: Karc_Attach_V1_Attach.SimpleServiceProtocol {
    let shared: EndpointState

    func session(
        request: RPCAsyncSequence<Karc_Attach_V1_ShellMessage, any Error>,
        response: RPCWriter<Karc_Attach_V1_AppMessage>,
        context: ServerContext
    ) async throws {
        guard shared.admit() else {
            throw RPCError(
                code: .resourceExhausted,
                message: "\(shared.configuration.maxShells) shells are attached to \(shared.name) already (its limit); detach one and try again")
        }
        defer { shared.release() }
        // One task reads the connection (its iterator stays in that task);
        // this one takes what it read, in order.
        let (incoming, received) = AsyncThrowingStream.makeStream(of: Karc_Attach_V1_ShellMessage.self)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                do {
                    for try await message in request { received.yield(message) }
                    received.finish()
                } catch {
                    received.finish(throwing: error)
                }
            }
            var messages = incoming.makeAsyncIterator()
            guard let first = try await messages.next(), case .hello(let hello)? = first.kind else {
                throw RPCError(code: .invalidArgument, message: "an attach session starts with Hello")
            }
            guard hello.protocolVersion == AttachProtocol.version else {
                throw RPCError(
                    code: .failedPrecondition,
                    message: "this karc speaks attach protocol \(hello.protocolVersion), the app \(shared.name) speaks \(AttachProtocol.version): attach with the karc of the app's karc version")
            }
            let options: ShellOptions
            do {
                options = try Self.options(hello.options)
            } catch {
                throw RPCError(code: .invalidArgument, message: "\(error)")
            }
            try await response.write(.with {
                $0.welcome = .with {
                    $0.protocolVersion = AttachProtocol.version
                    $0.clusterName = shared.name
                    $0.catalogJson = shared.catalogJSON
                    $0.readOnly = shared.configuration.readOnly
                }
            })
            shared.logger.info("a shell attached", metadata: ["peer": "\(context.remotePeer)", "input": "\(hello.input)"])
            let session = AttachedSession(shared: shared, hello: hello, options: options)
            guard let id = shared.register(stop: { session.stopByApp() }) else {
                throw RPCError(code: .unavailable, message: "\(shared.name) is shutting down")
            }
            defer { shared.unregister(id) }
            group.addTask { await session.run(response: response) { received.finish() } }
            // Until the session's last message is written (which ends `incoming`) or the shell is
            // gone. Cancelled (the server stops): the session ends as when the app stops it.
            try await withTaskCancellationHandler {
                do {
                    while let message = try await messages.next() { session.receive(message) }
                    session.inputEnded()
                } catch {
                    session.shellGone()
                }
                try await group.next()
            } onCancel: {
                session.stopByApp()
            }
            group.cancelAll()
            if session.wasStoppedByApp { throw RPCError(code: .unavailable, message: "\(shared.name) is shutting down") }
            shared.logger.info("a shell detached", metadata: ["peer": "\(context.remotePeer)", "status": "\(session.status)"])
        }
    }

    /// The shell's flags as the session's options; an unknown value is refused.
    static func options(_ given: Karc_Attach_V1_SessionOptions) throws(AttachError) -> ShellOptions {
        var options = ShellOptions()
        options.json = given.json
        options.jsonStates = given.jsonStates
        options.echo = given.echo
        options.keepGoing = given.keepGoing
        if given.timeoutMs > 0 { options.timeout = .milliseconds(Int64(clamping: given.timeoutMs)) }
        options.color = given.color
        if !given.diff.isEmpty {
            guard let diff = DiffMode(rawValue: given.diff) else {
                throw AttachError("unknown diff mode '\(given.diff)': expected on, summary or off")
            }
            options.diff = diff
        }
        options.quiet = given.quiet
        options.recordFile = given.recordFile.isEmpty ? nil : given.recordFile
        options.testExport = TestExportOptions(factory: given.testFactory.isEmpty ? nil : given.testFactory, imports: given.testImports)
        return options
    }
}

/// The parts of one attached session and the tasks that move its messages.
private final class AttachedSession: Sendable {
    let shared: EndpointState
    let hello: Karc_Attach_V1_Hello
    let options: ShellOptions
    let outbox: Outbox
    let interrupter = Interrupter()
    let seenEvents = SeenEvents()
    private let stopped = KarcMutex(false)
    private let exitStatus = KarcMutex<Int32>(1)
    let host: RemoteHost
    let lines: RemoteLines
    let editor: RemoteEditor

    init(shared: EndpointState, hello: Karc_Attach_V1_Hello, options: ShellOptions) {
        self.shared = shared
        self.hello = hello
        self.options = options
        outbox = Outbox(highWater: shared.configuration.outputBuffer)
        host = RemoteHost(outbox: outbox)
        lines = RemoteLines(outbox: outbox)
        editor = RemoteEditor(outbox: outbox, interrupter: interrupter, seenEvents: seenEvents)
    }

    /// Runs the session and writes what it sends to `response`, up to its
    /// last message; then `written` (nothing more is read after it).
    func run(response: RPCWriter<Karc_Attach_V1_AppMessage>, written: @escaping @Sendable () -> Void) async {
        let shell = ClusterShell(name: shared.name, cluster: shared.cluster, catalog: shared.catalog, bufferSize: shared.configuration.recordBuffer)
        defer { shell.stopObserving() }
        let cluster: any ShellCluster = shared.configuration.readOnly ? ReadOnlyCluster(base: shell) : shell
        let input: Shell.Input = switch hello.input {
        case .script: .lines(lines, name: hello.scriptName.isEmpty ? "<stdin>" : hello.scriptName)
        case .prompt: .prompt(editor)
        default: .none
        }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [self, outbox] in
                defer { written() }
                do {
                    for await message in outbox.messages {
                        try await response.write(message)
                        outbox.wrote(bytes: Self.queuedBytes(of: message))
                    }
                } catch {
                    shellGone()  // the connection broke (or the server stopped): the session stops taking input
                }
            }
            let sink = OutputSink(forwarding: { [outbox] in outbox.output($0, isError: $1) })
            let status = await Shell.runSession(
                cluster, options: options, commands: hello.commands, input: input, sink: sink, host: host,
                interrupter: interrupter, seenEvents: seenEvents)
            exitStatus.withLock { $0 = status }
            // Stopped by the app: no exit status, the call fails (`unavailable`).
            if !wasStoppedByApp { outbox.send(.with { $0.exit = .with { $0.status = status } }) }
            outbox.finish()
        }
    }

    var status: Int32 { exitStatus.withLock { $0 } }

    /// The shell closed its side: what it sent is all it sends.
    func inputEnded() {
        lines.finish()
        editor.deliver(.endOfInput)
    }

    /// The app stops: the running command is let go (it goes on to its end
    /// in the app), no more lines run, and the session ends without an exit status.
    func stopByApp() {
        stopped.withLock { $0 = true }
        outbox.close()  // what the ending session prints ("interrupted") is not the shell's news
        interrupter.trigger()
        lines.abandon()
        editor.deliver(.endOfInput)
        host.close()
    }

    var wasStoppedByApp: Bool { stopped.withLock { $0 } }

    /// The connection broke: a command running goes on to its end (nothing
    /// is half-applied), but no more lines run, and nothing waits on the shell.
    func shellGone() {
        lines.abandon()
        editor.deliver(.endOfInput)
        host.close()
        outbox.close()
    }

    func receive(_ message: Karc_Attach_V1_ShellMessage) {
        switch message.kind {
        case .lines(let batch):
            if hello.input == .prompt {
                for line in batch.lines { editor.deliver(.line(line)) }
            } else {
                lines.append(batch.lines)
            }
        case .endOfInput:
            if hello.input == .prompt { editor.deliver(.endOfInput) } else { lines.finish() }
        case .interrupt:
            interrupter.trigger()
        case .fileReply(let reply):
            host.answer(reply)
        case .hello, nil:
            break  // a second hello means nothing; an unknown message is from a newer shell
        }
    }

    /// The bytes of output a message holds (what the high-water mark counts).
    static func queuedBytes(of message: Karc_Attach_V1_AppMessage) -> Int {
        switch message.kind {
        case .output(let output): output.text.count
        case .prompt(let prompt): if case .print(let bytes)? = prompt.kind { bytes.count } else { 0 }
        case .fileRequest(let request): request.content.count
        default: 0
        }
    }
}
