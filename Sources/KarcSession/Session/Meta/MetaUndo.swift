import KarcHistory
import KarcOutput
import KarcRendering

/// `:undo [N]`: puts back the states from before the last command (or the
/// last N commands) that changed something.
enum MetaUndo: MetaCommand {
    static let name = "undo"
    static let arguments = "[N]"
    static let summary = "put the states back as they were before the last command that changed something (or the last N)"
    static let details = [
        ":undo       before the last command that changed a state",
        ":undo 3     before the last three such commands",
        "Changes made since (a timer, another shell) to the same targets go too. At most the last \(Snapshots.undoDepth) commands.",
        "Targets that cannot be restored (an actor model that is not Restorable) are named and left as they are.",
        "What the cluster did outside itself (a message sent, a file written) is not undone.",
    ]

    static func run(_ call: MetaCall, in context: MetaContext) async -> CommandOutcome {
        var count = 1
        if let argument = call.arguments.first {
            guard let n = Int(argument.value), n > 0 else {
                return context.fail(
                    "expected a number of commands to undo (like :undo 2), got '\(argument.value)'", column: argument.column, in: call)
            }
            count = n
        }
        if let extra = call.arguments.dropFirst().first { return context.fail(":undo takes at most a number", column: extra.column, in: call) }
        // A command that changed only targets that cannot be restored is no step back: it is gone past, and they are named.
        guard let cluster = context.capabilities.restoring else {
            return context.fail(
                "cannot undo: " + ShellClusterCapabilities.cannotRestore, in: call)
        }
        let restores = { (point: Snapshots.UndoPoint) in point.before.keys.contains { cluster.restorableStateType(of: $0) != nil } }
        let undoable = context.states.snapshots.undoPoints.filter(restores)
        guard !undoable.isEmpty else {
            return context.fail(
                "nothing to undo: no command changed a state that can be restored since the session began (or since the last :undo)", in: call)
        }
        guard count <= undoable.count else {
            let kept = undoable.count
            let why =
                context.states.snapshots.forgottenThrough > 0
                ? "older ones are not kept (the session keeps the states before its last \(Snapshots.undoDepth) commands)"
                : "no other command of this session changed a state that can be restored"
            return context.fail(
                "only \(kept) command\(kept == 1 ? "" : "s") can be undone (:undo \(kept)); \(why)",
                column: call.arguments.first?.column,
                in: call)
        }
        let oldest = undoable[undoable.count - count].command
        let points = context.states.snapshots.undoPoints.reversed().prefix { $0.command >= oldest }
        var before: [String: Any] = [:]
        // Newest first: the oldest command's state of each target wins.
        for point in points { before.merge(point.before) { _, older in older } }
        var states: [String: any Sendable] = [:]
        var left: [String] = []
        for (target, snapshot) in before.sorted(by: { $0.key < $1.key }) {
            guard let type = cluster.restorableStateType(of: target) else {
                left.append(target)
                continue
            }
            do {
                states[target] = try value(of: snapshot, as: type)
            } catch {
                return context.fail("cannot undo \(target): \(error); nothing was restored", in: call)
            }
        }
        let undone = points.filter(restores).map { (number: $0.command, line: $0.line) }
        guard await context.restore(states, undoing: true, in: call) else { return .failed }
        context.updateStates { $0.snapshots.dropUndoPoints(points.count) }
        context.renderer.emit(.restored(.init(name: nil, undone: undone, targets: states.keys.sorted(), left: left)))
        return .succeeded
    }

    /// The state `snapshot` (the renderer's, ``StateSnapshot``) was taken of, as a `T`.
    private static func value<T: Sendable>(of snapshot: Any, as type: T.Type) throws -> T {
        let value = try SnapshotValue.value(of: snapshot, as: type)
        guard let typed = value as? T else { throw SnapshotValue.Failure.otherType(wanted: "\(T.self)", held: "\(Swift.type(of: value))") }
        return typed
    }
}
