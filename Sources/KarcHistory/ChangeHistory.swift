import DequeModule
import Foundation
import KarcRendering

/// Every change of state the session saw, kept as the parts it changed
/// (``StateChange``), not as states: what `:blame` reads and `:watch` is
/// told of. A change caused by background work (a timer, a late reply,
/// another shell) is kept as one caused by a command is, named by its root.
///
/// Bounded as `:history` is: changes made before the last `limit` commands
/// go (``droppedBefore`` says up to where), and at most four a command on
/// average are kept, so background work that never stops cannot fill memory.
package struct ChangeHistory {
    /// One target's change.
    package struct Entry {
        /// The session's command that made it, when one did.
        package let command: Int?
        /// Who made it, as a watch and `:blame` say it: `#12 articles.like`, `timer account.tick`.
        package let cause: String
        package let time: Date
        package let target: String
        package let changes: [StateChange]
        /// Changes of parts past ``StateChanges``'s limit, not kept.
        package let omitted: Int
        /// The number of the last command begun when it happened: what the bound counts by.
        package let at: Int

        package init(command: Int?, cause: String, time: Date, target: String, changes: [StateChange], omitted: Int, at: Int) {
            (self.command, self.cause, self.time, self.target, self.changes, self.omitted, self.at) = (
                command, cause, time, target, changes, omitted, at
            )
        }
    }

    /// One part's change, as `:blame` lists it: the entry and the part's value before and after.
    package struct Blamed {
        package let entry: Entry
        /// The part's path in the target (the watched path, or a deeper one that changed inside it).
        package let path: [StatePath.Step]
        package let old: Any?
        package let new: Any?
    }

    package private(set) var entries: Deque<Entry> = []
    package let limit: Int
    /// Changes that happened before this command's number were dropped (0: none was).
    package private(set) var droppedBefore = 0

    /// At most this many entries, whatever the commands: four a command.
    private let entryLimit: Int

    package init(limit: Int) {
        self.limit = max(1, limit)
        // A limit of `Int.max` (a session `export-test` replays whole) keeps all.
        entryLimit = self.limit > Int.max / 4 ? Int.max : self.limit * 4
    }

    package mutating func add(_ entry: Entry) {
        entries.append(entry)
        while let first = entries.first, first.at <= entry.at - limit || entries.count > entryLimit {
            droppedBefore = max(droppedBefore, first.at + 1)
            entries.removeFirst()
        }
    }

    /// The changes of `target`'s part at `path` (empty: the whole state), newest first, at most `limit`; `more` says whether there were others.
    package func blame(target: String, path: [StatePath.Step], limit: Int) -> (changes: [Blamed], more: Bool) {
        var found: [Blamed] = []
        for entry in entries.reversed() where entry.target == target {
            // Within one entry the parts are in the state's order: listed so too.
            for change in entry.changes {
                guard let part = Self.part(path, of: change) else { continue }
                guard found.count < limit else { return (found, true) }
                found.append(Blamed(entry: entry, path: part.path, old: part.old, new: part.new))
            }
        }
        return (found, false)
    }

    /// What `change` did to the part at `path`: itself when it is at or
    /// inside the part; the part's values before and after when it replaced
    /// something around it; nil when it is elsewhere or left the part as it was.
    package static func part(_ path: [StatePath.Step], of change: StateChange) -> (path: [StatePath.Step], old: Any?, new: Any?)? {
        switch StatePath.overlap(of: path, with: change.path) {
        case .apart:
            return nil
        case .inside:
            // At the part itself: named as it was asked for.
            return (change.path.count == path.count ? path : change.path, change.old, change.new)
        case .around(let rest):
            let old = change.old.flatMap { try? StatePath.resolve($0, rest).get() }
            let new = change.new.flatMap { try? StatePath.resolve($0, rest).get() }
            switch (old, new) {
            case (nil, nil): return nil
            case (let old?, let new?) where Unchanged.check(old, new): return nil
            default: return (change.path + rest, old, new)
            }
        }
    }
}
