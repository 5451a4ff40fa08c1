import Foundation
import KarcRendering

extension OutputEvent {
    /// A part of a target's state that a change set, added or removed, and
    /// who made the change: a line of `:watch` or of `:blame`.
    package struct PartChange {
        let target: String
        /// In the target's state (`items[3].likes`); empty for the whole state.
        let path: [StatePath.Step]
        /// Nil: the change added the part.
        let old: Any?
        /// Nil: the change removed it.
        let new: Any?
        /// `#12 articles.like`, `timer account.tick`, `another shell: counter.increment`.
        let cause: String
        /// The session's command that made it, and its line as typed, when one did.
        let command: Int?
        let line: String?
        let time: Date

        /// `articles.items[3].likes`.
        var place: String {
            let path = StatePath.text(path)
            return path.isEmpty ? target : target + (path.first == "[" ? "" : ".") + path
        }
    }

    /// What `:blame` found of a part.
    package struct Blame {
        /// As typed, with its target: `articles.items[3].likes`.
        let path: String
        /// Newest first.
        let changes: [PartChange]
        /// More changes than the `n` asked for were found.
        let more: Bool
        /// Changes before this command were dropped (`--history-limit`); nil when none were.
        let droppedBefore: Int?
    }
}
