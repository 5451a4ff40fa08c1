import DequeModule
import Foundation

/// The states a session keeps to put back: named snapshots (`:snapshot
/// NAME`, `:restore NAME`) and, for `:undo`, each target's state from
/// before each of the last commands that changed it.
package struct Snapshots {
    /// A named snapshot: the states of every target that can be restored.
    package struct Kept {
        package let name: String
        package let states: [String: any Sendable]
        /// The targets with a state that cannot be restored, left out.
        package let left: [String]
        package let time: Date
        /// The last command before it that may have changed a state (`after #4`: a
        /// command that failed and reached no target is passed over), and its line.
        package let after: Int?
        package var afterLine: String? = nil
        package let file: String?

        package init(
            name: String, states: [String: any Sendable], left: [String], time: Date, after: Int?, afterLine: String? = nil, file: String?
        ) {
            (self.name, self.states, self.left, self.time, self.after, self.afterLine, self.file) = (name, states, left, time, after, afterLine, file)
        }
    }

    /// The states from before one command that changed something, as the
    /// renderer kept them (a ``StateSnapshot``: no long list held whole).
    package struct UndoPoint {
        package let command: Int
        /// The command's line, kept: `--history-limit` may drop it from `:history` first.
        package let line: String
        /// Each target it changed: its state before the command.
        package var before: [String: Any] = [:]
    }

    /// Undo points kept: `:undo N` goes back at most this many commands.
    package static let undoDepth = 100

    /// Whether `name` is one a snapshot may have: letters, digits, `-`, `_`
    /// and `.` (it is printed, completed and typed back); `save` and `load`
    /// are `:snapshot`'s words, not names.
    package static func isName(_ name: String) -> Bool {
        !name.isEmpty && name.allSatisfy { $0.isLetter || $0.isNumber || "-_.".contains($0) } && !["save", "load"].contains(name)
    }

    package private(set) var named: [Kept] = []
    /// Oldest first; the oldest goes as a new one comes, without moving the others.
    package private(set) var undoPoints: Deque<UndoPoint> = []
    /// The newest command whose undo point went to make room (0: none did):
    /// the states from before it cannot be put back.
    package private(set) var forgottenThrough = 0
    /// Set while a restore runs: its own changes are no command to undo.
    package var restoring = false

    package init() {}

    package func named(_ name: String) -> Kept? { named.first { $0.name == name } }

    /// Keeps `snapshot`, in place of one of the same name, which it returns.
    package mutating func keep(_ snapshot: Kept) -> Kept? {
        let replaced = named.first { $0.name == snapshot.name }
        named.removeAll { $0.name == snapshot.name }
        named.append(snapshot)
        return replaced
    }

    /// Command `command` changed `target`, which was `before` (the renderer's
    /// snapshot of it): kept unless the command changed it already.
    package mutating func saw(_ target: String, before: Any, command: Int, line: @autoclosure () -> String) {
        guard !restoring else { return }
        if undoPoints.last?.command != command {
            undoPoints.append(UndoPoint(command: command, line: line()))
            if undoPoints.count > Self.undoDepth { forgottenThrough = undoPoints.removeFirst().command }
        }
        let last = undoPoints.count - 1
        if undoPoints[last].before[target] == nil { undoPoints[last].before[target] = before }
    }

    /// Drops the last `count` undo points (they were undone).
    package mutating func dropUndoPoints(_ count: Int) {
        undoPoints.removeLast(min(count, undoPoints.count))
    }
}
