import CustomDump
import KarcLanguage
import KarcRendering

/// The parts of states a session watches (`:watch`): each change of one is
/// printed as it happens, whoever made it.
package struct Watches {
    package struct Watch: Equatable {
        package let target: String
        /// In the target's state; empty for the whole state.
        package let path: [StatePath.Step]
        /// As the user wrote it after the target (`items[3].likes`).
        package let pathText: String

        /// `articles.items[3].likes`, or `articles` for a whole target.
        package var text: String {
            pathText.isEmpty ? target : target + (pathText.first == "[" ? "" : ".") + pathText
        }
    }

    package private(set) var all: [Watch] = []
    /// The watched targets, so a change of any other costs one lookup.
    private var targets: [String: Int] = [:]

    package init() {}

    package var isEmpty: Bool { all.isEmpty }

    /// Adds `watch`; false when it was there already.
    package mutating func add(_ watch: Watch) -> Bool {
        guard !all.contains(watch) else { return false }
        all.append(watch)
        targets[watch.target, default: 0] += 1
        return true
    }

    /// Removes the watches `matches` picks; those removed.
    package mutating func remove(where matches: (Watch) -> Bool) -> [Watch] {
        let removed = all.filter(matches)
        all.removeAll(where: matches)
        for watch in removed {
            targets[watch.target, default: 1] -= 1
            if targets[watch.target] == 0 { targets[watch.target] = nil }
        }
        return removed
    }

    package func watches(_ target: String) -> Bool { targets[target] != nil }

    /// What a change of `target` from `old` (a snapshot, as the renderer
    /// keeps it) to `new` did to each watched part, in the order watched: the
    /// parts inside it that changed, or the part itself when it appeared, went,
    /// or more than ``linesPerWatch`` changed inside it. A path names a place:
    /// when a list's element before it goes, the next one is there.
    package func seen(old: Any, new: Any, of target: String) -> [Seen] {
        guard watches(target) else { return [] }
        var seen: [Seen] = []
        // A part two watches cover (`counter` and `counter.count`) is told once, under the first.
        var told: Set<[StatePath.Step]> = []
        for watch in all where watch.target == target {
            let before = StatePath.part(of: old, at: watch.path)
            let after = StatePath.part(of: new, at: watch.path)
            switch (before, after) {
            case (nil, nil):
                continue
            case (let before?, let after?):
                guard !Unchanged.check(before, after) else { continue }
                let inside = StateChanges.between(before, after, limit: Self.linesPerWatch)
                guard !inside.changes.isEmpty else {
                    if told.insert(watch.path).inserted { seen.append(Seen(watch: watch, path: watch.path, old: Self.whole(before), new: after)) }
                    continue
                }
                var added = false
                for change in inside.changes where told.insert(watch.path + change.path).inserted {
                    seen.append(Seen(watch: watch, path: watch.path + change.path, old: change.old, new: change.new))
                    added = true
                }
                if added { seen[seen.count - 1].more = inside.omitted }
            default:
                if told.insert(watch.path).inserted { seen.append(Seen(watch: watch, path: watch.path, old: before.map(Self.whole), new: after)) }
            }
        }
        return seen
    }

    /// A watched part's change: where, before and after (nil: absent), and how many more changes inside it were not listed.
    package struct Seen {
        package let watch: Watch
        package let path: [StatePath.Step]
        package let old: Any?
        package let new: Any?
        package var more = 0
    }

    /// Changes inside a watched part printed one a line, at most.
    package static let linesPerWatch = 20

    /// A part as it was, for one line: a part the session keeps in pieces (a long list, ``StateSnapshot``) is named by its size.
    private static func whole(_ part: Any) -> Any {
        guard let node = SnapshotNode.in(part) else { return part }
        switch node.kind {
        case .elements(let elements): return Unprintable(text: "[\(Names.counted(elements.count, "element"))]")
        case .fields(let type, _): return Unprintable(text: "\(ValueText.withoutModules(String(reflecting: type)))(…)")
        }
    }
}

/// Text shown as it is where a value would be.
private struct Unprintable: CustomDumpStringConvertible {
    let text: String
    var customDumpDescription: String { text }
}
