import DequeModule
import Foundation

/// The states a session keeps to put back: named snapshots (`:snapshot
/// NAME`, `:restore NAME`) and, for `:undo`, each target's state from
/// before each of the last commands that changed it.
struct Snapshots {
    /// A named snapshot: the states of every target that can be restored.
    struct Kept {
        let name: String
        let states: [String: any Sendable]
        /// The targets with a state that cannot be restored, left out.
        let left: [String]
        let time: Date
        /// The last command before it that may have changed a state (`after #4`: a
        /// command that failed and reached no target is passed over), and its line.
        let after: Int?
        var afterLine: String? = nil
        let file: String?
    }

    /// The states from before one command that changed something, as the
    /// renderer kept them (a ``StateSnapshot``: no long list held whole).
    struct UndoPoint {
        let command: Int
        /// The command's line, kept: `--history-limit` may drop it from `:history` first.
        let line: String
        /// Each target it changed: its state before the command.
        var before: [String: Any] = [:]
    }

    /// Undo points kept: `:undo N` goes back at most this many commands.
    static let undoDepth = 100

    private(set) var named: [Kept] = []
    /// Oldest first; the oldest goes as a new one comes, without moving the others.
    private(set) var undoPoints: Deque<UndoPoint> = []
    /// Set while a restore runs: its own changes are no command to undo.
    var restoring = false

    func named(_ name: String) -> Kept? { named.first { $0.name == name } }

    /// Keeps `snapshot`, in place of one of the same name, which it returns.
    mutating func keep(_ snapshot: Kept) -> Kept? {
        let replaced = named.first { $0.name == snapshot.name }
        named.removeAll { $0.name == snapshot.name }
        named.append(snapshot)
        return replaced
    }

    /// Command `command` changed `target`, which was `before` (the renderer's
    /// snapshot of it): kept unless the command changed it already.
    mutating func saw(_ target: String, before: Any, command: Int, line: @autoclosure () -> String) {
        guard !restoring else { return }
        if undoPoints.last?.command != command {
            undoPoints.append(UndoPoint(command: command, line: line()))
            if undoPoints.count > Self.undoDepth { undoPoints.removeFirst() }
        }
        let last = undoPoints.count - 1
        if undoPoints[last].before[target] == nil { undoPoints[last].before[target] = before }
    }

    /// Drops the last `count` undo points (they were undone).
    mutating func dropUndoPoints(_ count: Int) {
        undoPoints.removeLast(min(count, undoPoints.count))
    }
}
