import KarcSession

/// Two texts' lines as `diff -u` shows them: `---`/`+++` headers, then hunks
/// of changed lines with `context` unchanged lines around each, every hunk
/// headed `@@ -start,count +start,count @@` with 1-based line numbers.
enum UnifiedDiff {
    private enum Edit: Equatable {
        case same(old: Int, new: Int)
        case removed(old: Int)
        case inserted(new: Int)
    }

    /// The diff of `old` and `new`; nil when their lines are the same.
    static func text(old: String, new: String, oldName: String, newName: String, context: Int = 3) -> String? {
        let before = lines(old)
        let after = lines(new)
        let edits = self.edits(before, after)
        guard edits.contains(where: { if case .same = $0 { false } else { true } }) else { return nil }
        var out = "--- \(oldName)\n+++ \(newName)\n"
        for hunk in hunks(edits, context: context) {
            let slice = edits[hunk]
            let olds = slice.compactMap { edit -> Int? in
                switch edit {
                case .same(let old, _), .removed(let old): old
                case .inserted: nil
                }
            }
            let news = slice.compactMap { edit -> Int? in
                switch edit {
                case .same(_, let new), .inserted(let new): new
                case .removed: nil
                }
            }
            // diff -u: an empty side is numbered by the line before it.
            let oldStart = olds.first.map { $0 + 1 } ?? Self.lineBefore(slice.startIndex, in: edits, old: true)
            let newStart = news.first.map { $0 + 1 } ?? Self.lineBefore(slice.startIndex, in: edits, old: false)
            out += "@@ -\(oldStart),\(olds.count) +\(newStart),\(news.count) @@\n"
            for edit in slice {
                switch edit {
                case .same(let old, _): out += " " + before[old] + "\n"
                case .removed(let old): out += "-" + before[old] + "\n"
                case .inserted(let new): out += "+" + after[new] + "\n"
                }
            }
        }
        return out
    }

    /// The lines of `text`; a final newline ends the last line, it does not start an empty one.
    static func lines(_ text: String) -> [String] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// The lines of both, in order: unchanged, removed from `old`, inserted from `new`.
    private static func edits(_ old: [String], _ new: [String]) -> [Edit] {
        let difference = new.difference(from: old)
        var removed = Set<Int>()
        var inserted = Set<Int>()
        for change in difference {
            switch change {
            case .remove(let offset, _, _): removed.insert(offset)
            case .insert(let offset, _, _): inserted.insert(offset)
            }
        }
        var edits: [Edit] = []
        var oldIndex = 0
        var newIndex = 0
        while oldIndex < old.count || newIndex < new.count {
            if oldIndex < old.count, removed.contains(oldIndex) {
                edits.append(.removed(old: oldIndex))
                oldIndex += 1
            } else if newIndex < new.count, inserted.contains(newIndex) {
                edits.append(.inserted(new: newIndex))
                newIndex += 1
            } else {
                edits.append(.same(old: oldIndex, new: newIndex))
                oldIndex += 1
                newIndex += 1
            }
        }
        return edits
    }

    /// The ranges of `edits` to show: each change with `context` lines around it, overlapping ones merged.
    private static func hunks(_ edits: [Edit], context: Int) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        for (index, edit) in edits.enumerated() {
            if case .same = edit { continue }
            let range = max(0, index - context)..<min(edits.count, index + context + 1)
            if let last = ranges.last, last.upperBound >= range.lowerBound {
                ranges[ranges.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                ranges.append(range)
            }
        }
        return ranges
    }

    /// The 1-based number of the last line of one side before `index` (0 at the start).
    private static func lineBefore(_ index: Int, in edits: [Edit], old: Bool) -> Int {
        for edit in edits[..<index].reversed() {
            switch edit {
            case .same(let o, let n): return (old ? o : n) + 1
            case .removed(let o) where old: return o + 1
            case .inserted(let n) where !old: return n + 1
            default: continue
            }
        }
        return 0
    }
}
