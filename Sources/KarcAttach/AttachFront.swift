import Foundation
import GRPCCore
import KarcAsync
import KarcAttachProtocol
import KarcLanguage
import KarcShell
import KarcSynchronization

/// What the app's session asks of this end: print, show the prompt, read
/// and write files here, page; and the exit status it ends with.
final class AttachFront: Sendable {
    private let historyFile: String?
    private let prompting: Bool
    let address: AttachAddress
    /// Where what the user does goes: the messages of the connection the app
    /// last welcomed; nil while there is none (also while a try to reconnect
    /// is under way: a line typed then is answered offline, not held).
    private let link = KarcMutex<Outgoing?>(nil)
    let editor = KarcMutex<(editor: LineEditor, started: Bool)?>(nil)
    let summary = KarcMutex(CatalogSummary(Catalog(targets: [])))
    /// Offline at the prompt: how the user leaves (`:quit`, Ctrl-D) while the shell waits to reconnect.
    let leaving = KarcMutex<(left: Bool, wake: (@Sendable () -> Void)?)>((false, nil))
    private let recorder = KarcMutex<(@Sendable (String) -> Void)?>(nil)
    /// Tabs on state paths waiting for the app's answer.
    let completions = CompletionRequests()
    /// What the app's session said its prompt completes, with its last prompt: events seen, snapshots kept.
    private let words = PromptWords()
    private let localFailure = KarcMutex(false)

    init(historyFile: String?, prompting: Bool, address: AttachAddress) {
        self.historyFile = historyFile
        self.prompting = prompting
        self.address = address
    }

    /// A connection ended (or never opened): the prompt, if any, stays, and works offline.
    func disconnect(_ outgoing: Outgoing) {
        outgoing.finish()
        link.withLock { link in
            if link === outgoing { link = nil }
        }
    }

    private func send(_ message: Karc_Attach_V1_ShellMessage) {
        link.withLock { $0 }?.send(message)
    }

    /// Whether a session ever began (after which a lost connection is waited out at a prompt).
    var wasWelcomed: Bool { welcomed.withLock { $0 } }
    private let welcomed = KarcMutex(false)
    /// The largest message the app accepts, from its Welcome.
    private let maxMessageBytes = KarcMutex(AttachProtocol.defaultMaxMessageBytes)
    /// Between a lost connection and the next welcome.
    let reconnecting = KarcMutex(false)
    /// What this outage has told the user.
    let notices = KarcMutex(OutageNotices())
    /// What the app's session has that a new one is asked for again after a reconnection, as its last prompt said.
    private let keptBySession = KarcMutex(ReconnectNotice.Kept())
    /// Between a welcome after an outage and the new session's prompt: what the lost one had (said once the prompt is back).
    private let reconnected = KarcMutex<ReconnectNotice.Kept?>(nil)
    /// Whether the session printed its inspector's address (`inspector: http…` on standard error) since the last welcome.
    private let inspectorServed = KarcMutex(false)

    /// How a session's inspector address begins (`ShellSession.startInspectorFirst`).
    private static let inspectorLine = Array("inspector: http".utf8)

    /// The watches and trace setting to ask a new session for (what the lost one had), and whether it had an inspector.
    var kept: ReconnectNotice.Kept {
        var kept = keptBySession.withLock { $0 }
        kept.inspector = asksInspector.withLock { $0 }
        return kept
    }
    /// Whether the user asked for an inspector (`--inspect`, or `:inspect` typed): a new session after a reconnection serves one again.
    private let asksInspector = KarcMutex(false)

    /// The user asked the session for an inspector.
    func askedForInspector() {
        asksInspector.withLock { $0 = true }
    }

    /// Something failed on this side (a script line too long to send): the exit status is 1.
    func failedLocally() {
        localFailure.withLock { $0 = true }
    }

    var hasFailedLocally: Bool { localFailure.withLock { $0 } }

    /// Handles the app's messages to the end of the session; its exit status.
    /// What the user does goes to `outgoing` from the app's welcome on.
    func handle(_ messages: RPCAsyncSequence<Karc_Attach_V1_AppMessage, any Error>, answering outgoing: Outgoing) async throws -> Int32 {
        do {
            return try await handleMessages(messages, answering: outgoing)
        } catch {
            // A refusal (a wrong token) fails the call before any message: what waits to be sent
            // (the script's first lines wait for a Welcome) must stop too, or the call never ends.
            disconnect(outgoing)
            throw error
        }
    }

    private func handleMessages(_ messages: RPCAsyncSequence<Karc_Attach_V1_AppMessage, any Error>, answering outgoing: Outgoing) async throws
        -> Int32
    {
        var welcomedHere = false
        for try await message in messages {
            switch message.kind {
            case .welcome(let welcome):
                guard welcome.protocolVersion == AttachProtocol.version else {
                    throw RPCError(
                        code: .failedPrecondition,
                        message:
                            "the app speaks attach protocol \(welcome.protocolVersion), this karc speaks \(AttachProtocol.version): attach with the karc of the app's karc version"
                    )
                }
                welcomedHere = true
                welcomed.withLock { $0 = true }
                if reconnecting.withLock({ $0 }) {
                    reconnecting.withLock { $0 = false }
                    notices.withLock { $0 = OutageNotices() }
                    editor.withLock { $0?.editor }?.mark(nil)
                    // Said when the new session's prompt starts: only then is it known what came back.
                    reconnected.withLock { $0 = kept }
                    inspectorServed.withLock { $0 = false }
                }
                maxMessageBytes.withLock { $0 = Int(clamping: welcome.maxMessageBytes) }
                outgoing.gate.open(credit: Int(clamping: welcome.lineCredit), maxMessageBytes: Int(clamping: welcome.maxMessageBytes))
                link.withLock { $0 = outgoing }
                summary.withLock { $0 = (try? JSONDecoder().decode(CatalogSummary.self, from: welcome.catalogJson)) ?? $0 }
                if prompting { makeEditor(welcome) }
            case .output(let output):
                if output.stream == .stderr, output.text.starts(with: Self.inspectorLine) { inspectorServed.withLock { $0 = true } }
                // At a prompt, through the editor: above the line while the user types, as it is while a command runs.
                if let editor = editor.withLock({ $0?.editor }) {
                    editor.print(Array(output.text))
                } else if !OutputSink.writeAll(Array(output.text), to: output.stream == .stderr ? STDERR_FILENO : STDOUT_FILENO),
                    errno == EPIPE, output.stream != .stderr
                {
                    // The reader went (`karc attach SCRIPT | head`): end as a local shell does, by SIGPIPE
                    // (status 141), not by running the rest of the script into a closed pipe. The transport
                    // ignores SIGPIPE for its sockets; the default comes back for this one signal.
                    signal(SIGPIPE, SIG_DFL)
                    raise(SIGPIPE)
                }
            case .prompt(let prompt):
                await handle(prompt)
            case .fileRequest(let request):
                await handle(request)
            case .credit(let credit):
                outgoing.gate.returned(Int(clamping: credit.bytes))
            case .completionReply(let reply):
                completions.answered(reply.id, with: reply.candidates)
            case .exit(let exit):
                disconnect(outgoing)
                return exit.status
            case nil:
                continue  // from a newer app: nothing this end knows to do
            }
        }
        disconnect(outgoing)
        throw RPCError(
            code: .unavailable, message: welcomedHere ? "the app ended the session without an exit status" : "the app closed the connection")
    }

    /// The prompt, made at the first welcome and kept across reconnections (its history, its half-typed line).
    private func makeEditor(_ welcome: Karc_Attach_V1_Welcome) {
        guard editor.withLock({ $0 == nil }) else { return }
        let made = LineEditor.forSession(
            named: welcome.clusterName,
            completer: Completer(
                catalog: summary.withLock { $0 }, events: { [words] in words.events }, snapshots: { [words] in words.snapshots },
                statePaths: { [self] target, typed in
                    // Offline: nothing, at once; an app too old to answer: nothing, after a short wait.
                    guard link.withLock({ $0 != nil }) else { return [] }
                    return completions.ask(target: target, typed: typed) { request in send(.with { $0.completionRequest = request }) }
                }),
            historyFile: historyFile, interrupt: { [self] in send(.with { $0.interrupt = .init() }) })
        editor.withLock { $0 = (made, false) }
        // What the user enters goes to the app, or, while there is no connection, is answered here.
        Task { [self] in
            while true {
                await withCheckedContinuation { continuation in made.onInput { continuation.resume() } }
                guard let input = made.take() else { continue }
                guard let outgoing = link.withLock({ $0 }) else {
                    if offline(input, editor: made) { return }
                    continue
                }
                switch input {
                // A line entered waits for the app's room as a script's do (a pasted block is many lines);
                // the connection may go meanwhile, and the line with it: said as any line typed offline.
                case .line(let line):
                    if line.trimmingCharacters(in: .whitespaces).lowercased() == ":inspect" { askedForInspector() }
                    if !(await outgoing.send(lines: [line])), offline(input, editor: made) { return }
                case .endOfInput: outgoing.send(.with { $0.endOfInput = .init() })
                // Ctrl-C at `...>`: the app's session drops the command that goes on (see `AttachedSession`).
                case .interrupt: outgoing.send(.with { $0.interrupt = .init() })
                }
                if input == .endOfInput { return }
            }
        }
    }

    private func handle(_ prompt: Karc_Attach_V1_PromptMessage) async {
        guard let (editor, started) = editor.withLock({ $0 }) else { return }
        switch prompt.kind {
        case .start(let start):
            keptBySession.withLock {
                $0 = ReconnectNotice.Kept(watches: start.watches, tracing: start.trace, snapshots: [])
            }
            if let asked = reconnected.withLock({ r -> ReconnectNotice.Kept? in
                defer { r = nil }
                return r
            }) {
                let notice = ReconnectNotice(
                    address: address.description, asked: asked, back: (start.watches, start.trace), inspectorServed: inspectorServed.withLock { $0 })
                editor.print(Array(notice.text.utf8))
            }
            if started {
                editor.resume(PromptResume())  // a new session after a reconnection: the prompt is up already
            } else {
                self.editor.withLock { $0?.started = true }
                editor.start()
            }
        case .resume(let resume):
            words.replace(events: resume.seenEvents, snapshots: resume.snapshots)
            keptBySession.withLock { $0 = ReconnectNotice.Kept(watches: resume.watches, tracing: resume.trace, snapshots: resume.snapshots) }
            editor.resume(PromptResume(continuing: resume.continuing, remember: resume.remember.isEmpty ? nil : resume.remember))
        case .print(let bytes): editor.print(Array(bytes))
        case .stop: await stopEditor()
        case nil: break
        }
    }

    /// Leaves the terminal as it was (the session ended, or the connection).
    func stopEditor() async {
        guard
            let editor = editor.withLock({ e -> LineEditor? in
                defer { e = nil }
                return e?.editor
            })
        else { return }
        await editor.stop()
    }

    private func handle(_ request: Karc_Attach_V1_FileRequest) async {
        let host = LocalHost { await Pager.show($0) }
        var reply = Karc_Attach_V1_FileReply()
        reply.id = request.id
        do {
            switch request.action {
            case .read:
                reply.content = try Self.read(request.path, limit: maxMessageBytes.withLock { $0 } - 1024)
            case .write:
                try await host.write(String(decoding: request.content, as: UTF8.self), to: request.path)
            case .record:
                let append = try await host.recorder(appendingTo: request.path)
                recorder.withLock { $0 = append }
            case .append:
                recorder.withLock { $0 }?(String(decoding: request.content, as: UTF8.self))
                return  // not answered
            case .page:
                await host.page(Array(request.content))
            case .UNRECOGNIZED:
                reply.error = "this karc cannot do what the app asks (a newer app?)"
            }
        } catch {
            reply.error = error.message
        }
        send(.with { $0.fileReply = reply })
    }

    /// A whole script (`:source`), with the messages a local `:source` gives.
    /// `limit`: what is left of the app's largest message (its Welcome says it) after the framing.
    private static func read(_ path: String, limit: Int) throws(HostError) -> Data {
        try LocalHost.checkScript(path)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw HostError("cannot read \(path): not readable")
        }
        guard data.count <= limit else {
            throw HostError("\(path) is too large to send to the app (\(data.count) bytes; its messages take at most \(limit))")
        }
        return data
    }
}
