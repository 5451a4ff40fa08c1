import KarcAsync
import KarcLanguage
import KarcShell

/// The prompt while there is no connection: what it says, what still works, and the wait for the next try.
extension AttachFront {
    /// The connection was lost at the prompt: says so, and waits `pause`
    /// before the next try. False when the user left meanwhile (`:quit`, Ctrl-D).
    ///
    /// An outage is told once, and once more when the tries have slowed to
    /// their longest pause; meanwhile the prompt says `(offline)`.
    func waitToReconnect(after reason: String, pause: Duration) async -> Bool {
        let editor = editor.withLock { $0?.editor }
        let first = reconnecting.withLock { reconnecting in
            defer { reconnecting = true }
            return !reconnecting
        }
        if first {
            editor?.mark("offline")
            // The lost session may have been running a command (or had printed its output and not yet
            // given the prompt back): no resume will come from it, so the prompt comes back here.
            editor?.resume(PromptResume())
        }
        if let text = notices.withLock({ $0.before(pause, reason: reason) }) { editor?.print(Array(text.utf8)) }
        // Counted from now, not from when the child that sleeps starts.
        let deadline = ContinuousClock.now + pause
        let left = await withTaskGroup(of: Bool.self) { group in
            group.addTask { [self] in
                await withCheckedContinuation { continuation in
                    let now = leaving.withLock { state -> Bool in
                        if state.left { return true }
                        state.wake = { continuation.resume() }
                        return false
                    }
                    if now { continuation.resume() }
                }
                return true
            }
            group.addTask {
                try? await Task.sleep(until: deadline)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            leaving.withLock {
                $0.wake?()
                $0.wake = nil
            }  // the waiting child ends too
            return first
        }
        return !left && !leaving.withLock { $0.left }
    }

    /// A line typed while there is no connection: `:quit` and Ctrl-D leave,
    /// `:help` lists the app's commands, anything else is not run (and
    /// stays in the history). True when the user leaves.
    func offline(_ input: PromptInput, editor: LineEditor) -> Bool {
        let line: String
        switch input {
        case .endOfInput:
            leave()
            return true
        case .interrupt:
            // The app held the unfinished command; its session is gone with the connection.
            editor.resume(PromptResume())
            return false
        case .line(let text):
            line = text.trimmingCharacters(in: .whitespaces)
        }
        if [":q", ":quit", ":exit"].contains(line.lowercased()) {
            leave()
            return true
        }
        if line.lowercased().hasPrefix(":help") || line == ":h" || line == ":?" {
            let topic = line.split(separator: " ", maxSplits: 1).dropFirst().first.map { $0.trimmingCharacters(in: .whitespaces) }
            editor.print(Array(Self.help(summary.withLock { $0 }, topic: topic).utf8))
        } else if !line.isEmpty {
            // Not queued: a command sent minutes later, to an app that may have restarted, would surprise.
            let what = line.hasPrefix(":") ? "not run (offline, only :help and :quit work)" : "dropped, not sent"
            editor.print(Array("offline: \(line.clipped) was \(what); it is in the history (↑) to run once reconnected\n".utf8))
        }
        editor.resume(PromptResume(remember: line.isEmpty ? nil : line))
        return false
    }

    private func leave() {
        leaving.withLock { state in
            state.left = true
            state.wake?()
            state.wake = nil
        }
    }

    /// The commands the app had, from its catalog: all of them, or those of
    /// the target (`counter`) or the command (`counter.increment`) `topic` names.
    static func help(_ summary: CatalogSummary, topic: String? = nil) -> String {
        guard let topic, !topic.isEmpty, !topic.hasPrefix(":") else {
            var text = "Offline: the app's targets and commands, as it last said:\n"
            for target in summary.targets {
                text += "  \(target.name) (\(target.kind)): \(target.commands.map(\.name).joined(separator: ", "))\n"
            }
            return text
        }
        let parts = topic.split(separator: ".", maxSplits: 1).map(String.init)
        guard let name = parts.first, let target = summary.targets.first(where: { $0.name == name || Names.matches(name, $0.name) }) else {
            return "Offline: the app had no target '\(topic.clipped)' when it last said; targets: "
                + summary.targets.map(\.name).joined(separator: ", ") + "\n"
        }
        let commands = parts.count == 2 ? target.commands.filter { $0.name == parts[1] || Names.matches(parts[1], $0.name) } : target.commands
        guard !commands.isEmpty else {
            return "Offline: \(target.name) had no command '\(parts[1].clipped)' when the app last said; commands: "
                + target.commands.map(\.name).joined(separator: ", ") + "\n"
        }
        var text = "Offline: \(target.name) (\(target.kind)), as the app last said:\n"
        for command in commands {
            text += "  \(target.name).\(command.name) \(command.fieldsSynopsis)" + (command.summary.map { "  — \($0)" } ?? "") + "\n"
        }
        return text
    }
}
