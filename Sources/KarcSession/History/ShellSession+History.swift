import Foundation
import KarcAsync
import KarcHistory
import KarcRendering

extension ShellSession {
    /// A change of `target` told: kept for `:blame`, counted for `:history
    /// target`, and printed for each watch it touched. `background`: no
    /// command running now made it.
    func remember(
        _ parts: (changes: [StateChange], omitted: Int), of target: String, old: Any?, new: any Sendable, link: TraceLink?, background: Bool
    ) {
        let (cause, command) = changeCause(link, background: background)
        let entry = ChangeHistory.Entry(
            command: command, cause: cause, time: Date(), target: target, changes: parts.changes, omitted: parts.omitted, at: log.history.total)
        states.changes.add(entry)
        if let command {
            log.history.update(command) { $0.reached(target) }
            if let old { states.snapshots.saw(target, before: old, command: command, line: log.history.entry(command)?.line ?? "") }
        }
        guard states.watches.watches(target), let old else { return }
        let line = command.flatMap { log.history.entry($0)?.line }
        for seen in states.watches.seen(old: old, new: new, of: target) {
            renderer.linked(link) {
                renderer.emit(
                    .watch(
                        watch: seen.watch.text,
                        .init(
                            target: target, path: seen.path, old: seen.old, new: seen.new, cause: cause, command: command, line: line,
                            time: entry.time)
                    ))
            }
            if seen.more > 0 { renderer.log("watch  … and \(seen.more) more \(seen.more == 1 ? "change" : "changes") inside \(seen.watch.text)") }
        }
    }

    /// Who made a change, and the session's command that did when one did:
    /// its trace's root, or the command running when it has no trace.
    private func changeCause(_ link: TraceLink?, background: Bool) -> (String, Int?) {
        if let link, let recording = traces.recording(link.trace), let seq = recording.command {
            return ("#\(seq) " + (recording.commandName ?? ""), seq)
        }
        if link == nil, !background, let seq = renderer.seq {
            return ("#\(seq) " + (log.history.entry(seq)?.line ?? ""), seq)
        }
        return (cause(of: link), nil)
    }
}
