import KarcAsync
import KarcTrace

extension ShellSession {
    /// Prints the tree of the trace the command `seq` started; false when
    /// none is kept (not a send, or dropped as the book filled).
    @discardableResult
    func printTrace(ofCommand seq: Int) -> Bool {
        guard let recording = traces.recording(ofCommand: seq) else { return false }
        let tree = TraceTree(recording, label: names.label)
        renderer.trace(.init(command: seq, name: recording.commandName, trace: recording.trace, lines: tree.lines, lateOnly: false))
        traces.lateShown[recording.trace] = recording.hops.count
        return true
    }

    /// With `:trace on`: the work that came in `records` for commands that
    /// had ended (a reply a tick later), under its cause, as it comes.
    func printLateWork(in records: [ShellRecord]) {
        guard renderer.showsTraces else { return }
        var seen = Set<UInt64>()
        for record in records {
            guard let trace = record.link?.trace, seen.insert(trace).inserted else { continue }
            guard let recording = traces.recording(trace), let seq = recording.command, let lateFrom = recording.lateFrom else { continue }
            let from = max(lateFrom, traces.lateShown[trace] ?? 0)
            guard recording.hops.count > from else { continue }
            traces.lateShown[trace] = recording.hops.count
            let lines = TraceTree(recording, label: names.label).lines.filter { ($0.hop ?? -1) >= from }
            guard !lines.isEmpty else { continue }
            keepingLate(for: seq) {
                renderer.printing(for: seq) {
                    renderer.trace(.init(command: seq, name: recording.commandName, trace: trace, lines: lines, lateOnly: true))
                }
            }
        }
    }

    /// Who made a change no command running now made, from its trace's root:
    /// `#2 account.register` (a command of this session, late), `timer
    /// account.tick`, `another shell: counter.increment`, `the app: counter.increment`.
    func cause(of link: TraceLink?) -> String {
        guard let link else { return cluster.changesFromElsewhere }
        let recording = traces.recording(link.trace)
        if let seq = recording?.command { return "#\(seq) " + (recording?.commandName ?? "") }
        let elsewhere = cluster.startedElsewhere(trace: link.trace)
        // Another shell's `:undo` is its restore: `another shell: restore`, not the app's.
        if let origin = link.origin ?? recording?.origin { return elsewhere.map { "\($0): \(origin)" } ?? origin }
        let who = elsewhere ?? "the app"
        if link.isRootOnly {
            guard let root = traces.root(of: link.trace) else { return who }
            return who + ": " + names.label(root.action, target: root.target)
        }
        let root = recording?.hops.first { $0.span == link.trace }
        if let root, case .sent(let action, let target) = root.kind { return who + ": " + names.label(action, target: target) }
        return who
    }
}
