import KarcOutput
import KarcRendering

/// `:blame PATH [n]`: the commands that changed a part of a state, newest
/// first, each with the part's value before and after.
enum MetaBlame: MetaCommand {
    static let name = "blame"
    static let arguments = "target[.path] [n]"
    static let summary = "which commands changed a part of a state, newest first, with its value before and after"
    static let details = [
        ":blame articles.items[3].likes      the last 10 changes of that field",
        ":blame counter 50                   the last 50 changes of a whole target",
        "Changes by background work (a timer, a late reply, another shell) are named by their trace's root.",
        "A change inside the part is listed with its own path; a list's elements are named by their index then.",
        "A part not there now is blamed all the same (it may have been); a field its type does not have is an error.",
    ]

    static func completions(at position: Int, of words: [String], in context: Completer) -> MetaCompletions? {
        position == 0 ? MetaCompletions(candidates: context.partPaths(words[0]), suffix: "") : nil
    }

    static func run(_ call: MetaCall, in context: MetaContext) async -> CommandOutcome {
        guard let argument = call.arguments.first else {
            return context.fail(":blame takes a part of a state: :blame articles.items[3].likes, or a target: :blame counter", in: call)
        }
        // A typo (a field its type does not have) is an error; a part absent now may have been there before.
        guard let part = await context.checkedPart(argument, in: call) else { return .failed }
        var limit = 10
        if let count = call.arguments.dropFirst().first {
            guard let n = Int(count.value), n > 0 else {
                return context.fail("expected a number of changes (like :blame counter 20), got '\(count.value)'", column: count.column, in: call)
            }
            limit = n
        }
        if let extra = call.arguments.dropFirst(2).first {
            return context.fail(":blame takes a part and at most a number", column: extra.column, in: call)
        }
        // `items[-1]` is the last element now: its changes were kept under its index.
        let path = await context.cluster.state(of: part.target).map { StatePath.concrete(part.path, in: $0) } ?? part.path
        let (found, more) = context.states.changes.blame(target: part.target, path: path, limit: limit)
        let rows = found.map { blamed in
            OutputEvent.PartChange(
                target: part.target, path: blamed.path, old: blamed.old, new: blamed.new, cause: blamed.entry.cause,
                command: blamed.entry.command, line: blamed.entry.command.flatMap { context.log.history.entry($0)?.line }, time: blamed.entry.time)
        }
        let dropped = context.states.changes.droppedBefore
        context.renderer.emit(
            .blame(.init(path: part.watch.text, changes: rows, more: more, droppedBefore: dropped > 0 && !more ? dropped : nil)))
        return .succeeded
    }
}
