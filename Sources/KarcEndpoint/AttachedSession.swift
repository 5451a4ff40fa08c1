import GRPCCore
@_spi(KarcInternal) import KarcAsync
import KarcAttachProtocol
import KarcInspector
import KarcSession
import KarcSessionTrellis
import KarcSynchronization

/// The parts of one attached session and the tasks that move its messages.
final class AttachedSession: Sendable {
    let shared: EndpointState
    let hello: Karc_Attach_V1_Hello
    let options: ShellOptions
    let outbox: Outbox
    let interrupter = Interrupter()
    let words = PromptWords()
    private let stopped = KarcMutex(false)
    private let exitStatus = KarcMutex<Int32>(1)
    let host: RemoteHost
    let lines: RemoteLines
    let editor: RemoteEditor
    let ledger: LineLedger
    /// The cluster this session drives, once it runs (a Tab on a state path reads it).
    private let driven = KarcMutex<(any ShellCluster)?>(nil)

    init(shared: EndpointState, hello: Karc_Attach_V1_Hello, options: ShellOptions) {
        self.shared = shared
        self.hello = hello
        self.options = options
        outbox = Outbox(highWater: shared.configuration.outputBuffer, gauge: shared.output)
        host = RemoteHost(outbox: outbox)
        ledger = LineLedger(window: shared.configuration.lineCredit, outbox: outbox)
        lines = RemoteLines(ledger: ledger)
        editor = RemoteEditor(outbox: outbox, ledger: ledger, interrupter: interrupter, words: words)
    }

    /// Runs the session and writes what it sends to `response`, up to its
    /// last message; then `written` (nothing more is read after it).
    func run(response: RPCWriter<Karc_Attach_V1_AppMessage>, written: @escaping @Sendable () -> Void) async {
        let shell = ClusterShell(name: shared.name, cluster: shared.cluster, catalog: shared.catalog, bufferSize: shared.configuration.recordBuffer)
        defer { shell.stopObserving() }
        let counted = SharedCluster(base: shell, traces: shared.traces)
        let cluster: any ShellCluster = shared.configuration.readOnly ? ReadOnlyCluster(base: counted) : counted
        driven.withLock { $0 = cluster }
        let input: Shell.Input =
            switch hello.input {
            case .script: .lines(lines, name: hello.scriptName.isEmpty ? "<stdin>" : hello.scriptName)
            case .prompt: .prompt(editor)
            default: .none
            }
        // Cancelled (the shell went: its call ends, or it was refused): the session ends now, even if it waits
        // for room the shell will never make.
        await withTaskCancellationHandler {
            await serve(cluster, input: input, response: response, written: written)
        } onCancel: {
            shellGone()
        }
    }

    /// The session on `cluster`, and the task that writes what it sends to `response`.
    private func serve(
        _ cluster: any ShellCluster, input: Shell.Input, response: RPCWriter<Karc_Attach_V1_AppMessage>, written: @escaping @Sendable () -> Void
    ) async {
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
            let sink = OutputSink(forwarding: { [outbox] in outbox.output($0, isError: $1) }, room: outbox)
            var runtime = ShellRuntime()
            // The session's own inspector, on the app's loopback, started only if the shell asks (`:inspect`).
            let configuration = shared.configuration
            runtime.inspector = configuration.servesInspector ? configuration.makeInspector(configuration.readOnly) : nil
            // `karc attach --inspect` sends `:inspect` first: started as `karc --inspect` starts its own, numbered as no command.
            let inspect = hello.commands.first == AttachProtocol.inspectCommand
            let status = await Shell.runSession(
                cluster, options: options, commands: Array(hello.commands.dropFirst(inspect ? 1 : 0)), input: input, sink: sink, host: host,
                interrupter: interrupter, words: words, runtime: runtime, inspect: inspect)
            if let inspector = runtime.inspector {
                // A shell still there waits, as `karc --inspect` does, for a page reading the end of its session;
                // one that went (before or during that wait) does not wait for its pages' grace: its call ends,
                // and its place is free, at once, while the pages are let go in the background.
                let stopped = Pending<Void>()
                Task {
                    await inspector.stop()
                    stopped.finish(())
                }
                outbox.onClose { stopped.finish(()) }
                _ = await stopped.value()
            }
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
        // As when the shell goes: what the ending session prints ("interrupted") is not the shell's news.
        shellGone()
    }

    var wasStoppedByApp: Bool { stopped.withLock { $0 } }

    /// The connection broke, or the shell was refused: a command running is
    /// let go (it goes on to its end in the app; nothing is half-applied), no
    /// more lines run, and nothing waits on the shell, so the call ends at once
    /// and frees its place.
    func shellGone() {
        outbox.close()  // what the ending session prints ("interrupted") is for nobody
        interrupter.trigger()
        lines.abandon()
        editor.abandon()
        host.close()
    }

    /// A message from the shell. Throws when the shell sends lines beyond
    /// its credit (a shell that does not follow the protocol): it is refused.
    func receive(_ message: Karc_Attach_V1_ShellMessage) throws(RPCError) {
        switch message.kind {
        case .lines(let batch):
            guard ledger.received(batch.lines) else {
                throw RPCError(
                    code: .resourceExhausted,
                    message:
                        "the shell sent more lines than \(shared.name) had room for (\(ledger.window) bytes; attach protocol \(AttachProtocol.version) sends lines only as the app takes them)"
                )
            }
            if hello.input == .prompt {
                editor.resized(to: Int(clamping: batch.columns))
                for line in batch.lines { editor.deliver(.line(line)) }
            } else {
                lines.append(batch.lines)
            }
        case .endOfInput:
            if hello.input == .prompt { editor.deliver(.endOfInput) } else { lines.finish() }
        case .interrupt:
            // At a `...>` prompt no command runs: the Ctrl-C drops the unfinished one.
            if hello.input == .prompt, editor.isContinuing { editor.deliver(.interrupt) } else { interrupter.trigger() }
        case .fileReply(let reply):
            host.answer(reply)
        case .completionRequest(let request):
            complete(request)
        case .hello, nil:
            break  // a second hello means nothing; an unknown message is from a newer shell
        }
    }

    /// Answers a Tab on a path into a state with the paths it goes on to,
    /// read from the cluster as this session sees it; nothing before the
    /// session has started.
    private func complete(_ request: Karc_Attach_V1_CompletionRequest) {
        let cluster = driven.withLock { $0 }
        Task { [outbox] in
            var candidates: [String] = []
            if let cluster { candidates = await Completer.statePaths(in: cluster, target: request.target, typed: request.path) }
            outbox.send(
                .with {
                    $0.completionReply = .with {
                        $0.id = request.id
                        $0.candidates = candidates
                    }
                })
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
