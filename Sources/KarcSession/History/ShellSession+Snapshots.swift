import Foundation
import KarcAsync
import KarcHistory
import KarcOutput
import KarcRendering

extension ShellSession {
    /// Puts `states` back through the cluster, as the command running now:
    /// its changes print as its diff, and each is caused by it (`#7
    /// :restore before`), and `:export-test` writes it as a restore.
    /// `undoing`: the changes are no command to undo. False (the error
    /// printed) when the cluster refused; then nothing changed.
    func restore(_ states: [String: any Sendable], undoing: Bool, in call: MetaCall) async -> Bool {
        guard let restoring = capabilities.restoring else {
            _ = fail("cannot restore: " + ShellClusterCapabilities.cannotRestore, in: call)
            return false
        }
        let step = log.nextStep
        let span = TraceLink.newSpanID()
        if let seq = renderer.seq { traces.begin(command: seq, trace: span, name: call.text) }
        self.states.snapshots.restoring = undoing
        defer { self.states.snapshots.restoring = false }
        do {
            try await restoring.restore(states, span: span)
        } catch {
            _ = fail("cannot restore: \(error)", in: call)
            return false
        }
        _ = await cluster.settled(timeout: options.timeout)
        printArrived()
        // Before the changes it printed, which the test asserts after it.
        log.keep(.restore(states: states, origin: .init(script: call.location.script, line: call.location.line, text: call.text)), at: step)
        return true
    }

    /// A named snapshot of the cluster's restorable targets now; nil (the error printed) when the cluster keeps none.
    func takeSnapshot(named name: String, in call: MetaCall) async -> Snapshots.Kept? {
        guard let restoring = capabilities.restoring else {
            _ = fail("cannot take a snapshot: " + ShellClusterCapabilities.cannotRestore, in: call)
            return nil
        }
        do {
            let taken = try await restoring.snapshot()
            let after = commandBefore(log.history.total)
            return Snapshots.Kept(
                name: name, states: taken.states, left: taken.left, time: Date(), after: after,
                afterLine: after.flatMap { log.history.entry($0)?.line },
                file: nil)
        } catch {
            _ = fail("cannot take a snapshot: \(error)", in: call)
            return nil
        }
    }

    /// The command before `command` whose states a snapshot taken now holds: the
    /// last one that did not fail without reaching a target (a `:restore` of a
    /// name not kept, a typo: they changed nothing); nil when there is none.
    private func commandBefore(_ command: Int) -> Int? {
        var number = command - 1
        // A command `--history-limit` dropped is taken as it is: what became of it is gone.
        while number > 0, let entry = log.history.entry(number), entry.outcome == .failed, entry.targets.isEmpty { number -= 1 }
        return number > 0 ? number : nil
    }

    /// What `:snapshots` says of `snapshot`.
    func info(_ snapshot: Snapshots.Kept) -> OutputEvent.SnapshotInfo {
        let bytes = snapshot.states.values.reduce(0) { total, state in
            let json = ValueText.json(state)
            return total + ((json as? RawJSON)?.text.utf8.count ?? "\(json)".utf8.count)
        }
        return OutputEvent.SnapshotInfo(
            name: snapshot.name, targets: snapshot.states.keys.sorted(), left: snapshot.left, time: snapshot.time, after: snapshot.after,
            afterLine: snapshot.afterLine, file: snapshot.file, bytes: bytes)
    }

    /// A snapshot's name: letters, digits, `-`, `_` and `.`, not a word `:snapshot` takes.
    func snapshotName(_ argument: Located<String>, in call: MetaCall) -> String? {
        let name = argument.value
        guard Snapshots.isName(name) else {
            _ = fail(
                "'\(name)' is not a snapshot name: use letters, digits, '-', '_' and '.' (not 'save' or 'load'), like :snapshot before-login",
                column: argument.column, in: call)
            return nil
        }
        return name
    }

    /// Keeps `kept` (in place of one of its name, which it says it
    /// replaced); the prompt completes its name from now on.
    func keep(snapshot kept: Snapshots.Kept) {
        let replaced = states.snapshots.keep(kept)
        log.words.kept(snapshots: states.snapshots.named.map(\.name))
        var told = info(kept)
        told.replaced = replaced.map { .init(after: $0.after, afterLine: $0.afterLine, file: $0.file, time: $0.time) }
        renderer.emit(.snapshots([told], kept: true))
    }

    /// The snapshot named by `argument`, or nil with an error naming those there are.
    func keptSnapshot(_ argument: Located<String>, in call: MetaCall) -> Snapshots.Kept? {
        if let kept = states.snapshots.named(argument.value) { return kept }
        let names = states.snapshots.named.map(\.name)
        let known =
            names.isEmpty
            ? ". No snapshot is kept yet (:snapshot NAME keeps one)."
            : Names.didYouMean(argument.value, among: names) + " Snapshots: " + names.joined(separator: ", ")
        _ = fail("no snapshot named '\(argument.value)'" + known, column: argument.column, in: call)
        return nil
    }
}

extension MetaCall {
    /// The line as typed: `:restore before`.
    var text: String { ([":" + name.value] + arguments.map(\.value)).joined(separator: " ") }
}
