import Foundation
import KarcRendering

extension OutputEvent {
    /// A part of a target's state that a change set, added or removed, and
    /// who made the change: a line of `:watch` or of `:blame`.
    package struct PartChange {
        package let target: String
        /// In the target's state (`items[3].likes`); empty for the whole state.
        package let path: [StatePath.Step]
        /// Nil: the change added the part.
        package let old: Any?
        /// Nil: the change removed it.
        package let new: Any?
        /// `#12 articles.like`, `timer account.tick`, `another shell: counter.increment`.
        package let cause: String
        /// The session's command that made it, and its line as typed, when one did.
        package let command: Int?
        package let line: String?
        package let time: Date

        /// `articles.items[3].likes`.
        package var place: String {
            let path = StatePath.text(path)
            return path.isEmpty ? target : target + (path.first == "[" ? "" : ".") + path
        }

        package init(target: String, path: [StatePath.Step], old: Any?, new: Any?, cause: String, command: Int?, line: String?, time: Date) {
            self.target = target
            self.path = path
            self.old = old
            self.new = new
            self.cause = cause
            self.command = command
            self.line = line
            self.time = time
        }
    }

    /// What `:blame` found of a part.
    package struct Blame {
        /// As typed, with its target: `articles.items[3].likes`.
        package let path: String
        /// Newest first.
        package let changes: [PartChange]
        /// More changes than the `n` asked for were found.
        package let more: Bool
        /// Changes before this command were dropped (`--history-limit`); nil when none were.
        package let droppedBefore: Int?

        package init(path: String, changes: [PartChange], more: Bool, droppedBefore: Int?) {
            self.path = path
            self.changes = changes
            self.more = more
            self.droppedBefore = droppedBefore
        }
    }
}
