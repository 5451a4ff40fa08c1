import KarcInspector
import KarcSession
import KarcSynchronization

/// The inspector of an app that has no prompt (`karc serve --inspect`): a
/// session of its own that nobody types in, whose output goes to its pages
/// only. What the app does (its timers, its attached shells' commands) comes
/// as it happens, as it would at a prompt; the page's command box runs lines
/// in it. Read-only when the app serves `--read-only`.
///
/// ```
///  app's cluster ── records ──▶ session (Prompt, SilentEditor) ── OutputEvent ──▶ InspectorFront ──▶ pages
///                                   ▲
///  pages ── questions, lines ───────┘ (SessionInbox)
/// ```
package final class AppInspector: Sendable {
    private let starter: InspectorStarter
    private let editor = SilentEditor()
    private let running = KarcMutex<Task<Int32, Never>?>(nil)

    /// `port`: on 127.0.0.1, 0 for any free one.
    package init(readOnly: Bool = false, port: Int = 0) {
        starter = InspectorStarter(readOnly: readOnly, port: port)
    }

    /// Serves the page of a session on `cluster` and returns its URL.
    package func start(_ cluster: any ShellCluster, options: ShellOptions = ShellOptions()) async throws -> String {
        let started = try await starter.start()
        var options = options
        options.printing.color = false
        var runtime = ShellRuntime()
        runtime.inspector = starter
        let editor = self.editor
        let front = started.front
        let url = started.url
        let task = Task {
            let session = ShellSession(cluster: cluster, options: options, sink: OutputSink(forwarding: { _, _ in }), runtime: runtime)
            if let front { _ = session.subscribe(front) }
            var prompt = Prompt(session: session, editor: editor)
            prompt.keepsStates = false
            prompt.greets = false
            return await prompt.run() == .succeeded ? Int32(0) : 1
        }
        running.withLock { $0 = task }
        return url
    }

    /// Ends the session and stops serving: its pages say the session ended.
    package func stop() async {
        editor.end()
        _ = await running.withLock { $0 }?.value
        await starter.stop()
    }
}

/// The editor of a session nobody types in: no line ever comes, until
/// ``end()``; what the session prints is for its fronts, not for a terminal.
private final class SilentEditor: PromptEditor {
    private struct State {
        var ended = false
        var wake: (@Sendable () -> Void)?
    }

    private let state = KarcMutex(State())

    func start() {}

    func take() -> PromptInput? {
        state.withLock { $0.ended ? .endOfInput : nil }
    }

    func onInput(_ wake: @escaping @Sendable () -> Void) {
        let now = state.withLock { s -> Bool in
            if s.ended { return true }
            s.wake = wake
            return false
        }
        if now { wake() }
    }

    func print(_ bytes: [UInt8]) {}

    func resume(_ resume: PromptResume) {}

    func stop() async {}

    /// No more input: the session ends.
    func end() {
        let wake = state.withLock { s in
            s.ended = true
            defer { s.wake = nil }
            return s.wake
        }
        wake?()
    }
}
