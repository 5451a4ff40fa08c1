import CustomDump

/// The children of two values being diffed, side by side: from their
/// mirrors, or, for two arrays, read in place so that the unchanged ones
/// are never boxed, compared one by one or dumped.
package struct ChildLists {
    private enum Storage {
        case mirrors([Mirror.Child], [Mirror.Child], equivalent: (Mirror.Child, Mirror.Child) -> Bool)
        case arrays(any ContiguousElements, any ContiguousElements)
    }

    private var storage: Storage
    /// Every child unchanged, in the mirrors' order, before any filter:
    /// custom-dump's test for "not equal but no difference detected".
    package let allUnchanged: Bool
    /// How many children from the start are known to be unchanged.
    private let commonPrefix: Int
    /// What finding ``allUnchanged`` learnt of each pair at the same
    /// position, up to the first changed one, so that the diff of that pair
    /// does not compare it again (dropped when a filter or a sort moves children).
    private var known: [Bool] = []

    /// Children paired by label (struct fields, tuple and payload elements)
    /// unless `equivalent` says otherwise.
    package init(
        _ old: [Mirror.Child], _ new: [Mirror.Child], filter: ((Mirror.Child) -> Bool)? = nil,
        equivalent: @escaping (Mirror.Child, Mirror.Child) -> Bool = { $0.label == $1.label }, prefixes: ComparedPrefixes? = nil
    ) {
        var before = old
        var after = new
        var known: [Bool] = []
        if before.count == after.count {
            for (oldChild, newChild) in zip(before, after) {
                known.append(Self.unchanged(oldChild, newChild, prefixes: prefixes))
                if known.last == false { break }
            }
        }
        allUnchanged = before.count == after.count && known.count == before.count && !known.contains(false)
        if let filter {
            let count = (before.count, after.count)
            before.removeAll { !filter($0) }
            after.removeAll { !filter($0) }
            if (before.count, after.count) != count { known = [] }
        }
        self.known = known
        storage = .mirrors(before, after, equivalent: equivalent)
        commonPrefix = 0
    }

    /// Two arrays of one type.
    package init(array old: any ContiguousElements, _ new: Any, prefixes: ComparedPrefixes? = nil) {
        // The caller checked that `new` is an array of the same type.
        let new = new as! any ContiguousElements
        commonPrefix = old.unchangedPrefix(comparedWith: new, prefixes: prefixes)
        allUnchanged = old.count == new.count && commonPrefix == old.count
        storage = .arrays(old, new)
    }

    /// Elements paired when unchanged or identified as the same (`Identifiable`), as custom-dump pairs them.
    package static func sameOrIdentified(_ old: Mirror.Child, _ new: Mirror.Child) -> Bool {
        Unchanged.sameIdentity(old.value, new.value) || Unchanged.check(old.value, new.value)
    }

    private static func unchanged(_ old: Mirror.Child, _ new: Mirror.Child, prefixes: ComparedPrefixes? = nil) -> Bool {
        old.label == new.label && Unchanged.check(old.value, new.value, prefixes: prefixes)
    }

    package var oldCount: Int {
        switch storage {
        case .mirrors(let old, _, _): old.count
        case .arrays(let old, _): old.count
        }
    }

    package var newCount: Int {
        switch storage {
        case .mirrors(_, let new, _): new.count
        case .arrays(_, let new): new.count
        }
    }

    package func old(_ index: Int) -> Mirror.Child {
        switch storage {
        case .mirrors(let old, _, _): old[index]
        case .arrays(let old, _): (label: nil, value: old.element(at: index))
        }
    }

    package func new(_ index: Int) -> Mirror.Child {
        switch storage {
        case .mirrors(_, let new, _): new[index]
        case .arrays(_, let new): (label: nil, value: new.element(at: index))
        }
    }

    /// Whether the pair at `index` on both sides is unchanged, when that is already known.
    package func knownUnchanged(at index: Int) -> Bool? {
        index < known.count ? known[index] : nil
    }

    /// How many pairs from `oldIndex` and `newIndex` on are unchanged, at most `limit`.
    package func unchangedRun(_ oldIndex: Int, _ newIndex: Int, limit: Int) -> Int {
        switch storage {
        case .mirrors(let old, let new, _):
            var run = 0
            while run < limit, oldIndex + run < old.count, newIndex + run < new.count,
                Self.unchanged(old[oldIndex + run], new[newIndex + run])
            {
                run += 1
            }
            return run
        case .arrays(let old, let new):
            if oldIndex == newIndex, oldIndex < commonPrefix { return min(commonPrefix - oldIndex, limit) }
            return old.unchangedPrefix(from: oldIndex, comparedWith: new, from: newIndex, limit: limit)
        }
    }

    /// The positions custom-dump's Myers difference removes (old side) and
    /// inserts (new side). The common beginning (pairs equivalent at the
    /// same position) is left out of the search: Myers' first step follows
    /// it anyway, so the answer is the same.
    package func difference() -> (removals: Set<Int>, insertions: Set<Int>) {
        let equivalent: (Int, Int) -> Bool
        var start = commonPrefix
        switch storage {
        case .mirrors(let old, let new, let areEquivalent):
            equivalent = { areEquivalent(old[$0], new[$1]) }
            // A struct's fields always pair: no search for them.
            while start < old.count, start < new.count, equivalent(start, start) { start += 1 }
        case .arrays(let old, let new):
            equivalent = { before, after in
                old.unchangedPrefix(from: before, comparedWith: new, from: after, limit: 1) == 1
                    || Unchanged.sameIdentity(old.element(at: before), new.element(at: after))
            }
        }
        // Nothing left on one side: the rest of the other is all removed, or all inserted.
        if start == oldCount || start == newCount {
            return (Set(start..<oldCount), Set(start..<newCount))
        }
        // The common end is left out too, found in bulk: the search would
        // find it one pair at a time (an element changed in the middle of
        // 10,000 cost 4 ms in comparisons alone). Same answer: the search
        // trims a common end first.
        let oldEnd = commonEnd(from: start)
        let newEnd = oldEnd + newCount - oldCount
        if start == oldEnd || start == newEnd {
            return (Set(start..<oldEnd), Set(start..<newEnd))
        }
        let changes = (start..<newEnd).difference(from: start..<oldEnd, by: equivalent)
        var removals = Set<Int>()
        var insertions = Set<Int>()
        for change in changes {
            switch change {
            case .remove(let offset, _, _): removals.insert(start + offset)
            case .insert(let offset, _, _): insertions.insert(start + offset)
            }
        }
        return (removals, insertions)
    }

    /// Where the old side's unchanged end begins: from there on, each old
    /// element is unchanged in the new side's element as far from its end
    /// (an array's, compared in bulk); at least `start`, and no closer to
    /// `start` than the shorter side allows. A struct's fields: its end.
    private func commonEnd(from start: Int) -> Int {
        guard case .arrays(let old, let new) = storage else { return oldCount }
        let shift = newCount - oldCount
        // The first old index both sides still hold past `start`.
        var index = max(start, start - shift)
        var end = index
        while index < oldCount {
            index += old.unchangedPrefix(from: index, comparedWith: new, from: index + shift, limit: oldCount - index)
            guard index < oldCount else { break }
            index += 1
            end = index
        }
        return end
    }

    /// Both sides sorted as custom-dump sorts unordered collections: by
    /// their keys' dumps, one level deep.
    package mutating func sort(by key: (Any) -> Any) {
        guard case .mirrors(let old, let new, let equivalent) = storage else { return }
        func sorted(_ children: [Mirror.Child]) -> [Mirror.Child] {
            children.map { (Self.keyDump(key($0.value)), $0) }.sorted { $0.0 < $1.0 }.map(\.1)
        }
        storage = .mirrors(sorted(old), sorted(new), equivalent: equivalent)
        known = []
    }

    /// A key as custom-dump labels and orders it: dumped one level deep.
    package static func keyDump(_ key: Any) -> String {
        var dumper = Dumper()
        return (try? dumper.dump(key, name: nil, indent: 0, isRoot: false, maxDepth: 1)) ?? String(customDumping: key)
    }
}

extension StateDiff {
    /// custom-dump's `diffChildren`: the opening line (`name: Type(`), each
    /// child's lines (unchanged runs folded when `collapse`), the closing line.
    package mutating func children(
        _ pair: Pair, _ lists: inout ChildLists, prefix: String, suffix: String, elementIndent: Int = 2,
        separator elementSeparator: String = ",", collapse: Bool, sorted: Bool = false,
        transform: (inout Mirror.Child, Int) -> Void = { _, _ in }
    ) throws -> String {
        var out = ""
        if lists.allUnchanged {
            let before = try dump(pair.old, name: pair.oldName, indent: pair.indent, isRoot: false, maxDepth: 0) + pair.separator
            let after = try dump(pair.new, name: pair.newName, indent: pair.indent, isRoot: false, maxDepth: 0) + pair.separator
            if before == after {
                out += Self.prefixing(Dumper.indenting("// Not equal but no difference detected:", by: pair.indent), with: " ") + "\n"
            }
            return out + Self.prefixing(before, with: "-") + "\n" + Self.prefixing(after, with: "+")
        }
        if pair.singleValue ?? (Self.isSingleValueContainer(pair.old, pair.oldMirror) || Self.isSingleValueContainer(pair.new, pair.newMirror)) {
            // As custom-dump writes it: whole dumps, without the separator.
            let before = try dump(pair.old, name: pair.oldName, indent: pair.indent, isRoot: pair.isRoot, maxDepth: .max)
            let after = try dump(pair.new, name: pair.newName, indent: pair.indent, isRoot: pair.isRoot, maxDepth: .max)
            return Self.prefixing(before, with: "-") + "\n" + Self.prefixing(after, with: "+")
        }
        let name = pair.newName.map { "\($0): " } ?? ""
        out += Self.prefixing(Dumper.indenting(name + prefix, by: pair.indent), with: " ") + "\n"

        let (removals, insertions) = lists.difference()
        let oldCount = lists.oldCount
        let newCount = lists.newCount
        let nextRemovals = removals.sorted()
        let nextInsertions = insertions.sorted()
        let childIndent = pair.indent + elementIndent
        var oldIndex = 0
        var newIndex = 0
        // custom-dump's buffer of unchanged children: how many, and the first (printed when it is alone).
        var unchangedCount = 0
        var firstUnchanged: Mirror.Child?

        func flush() throws {
            guard collapse else { return }
            let terminator = newIndex - 1 == newCount - 1 ? "\n" : "\(elementSeparator)\n"
            if !sorted, unchangedCount == 1, let child = firstUnchanged {
                out +=
                    Self.prefixing(try dump(child.value, name: child.label, indent: childIndent, isRoot: false, maxDepth: 0), with: " ") + terminator
            } else if sorted && unchangedCount == 1 || unchangedCount > 1 {
                out += Self.prefixing(Dumper.indenting("… (\(unchangedCount) unchanged)", by: childIndent), with: " ") + terminator
            }
            unchangedCount = 0
            firstUnchanged = nil
        }

        while oldIndex < oldCount || newIndex < newCount {
            let isRemoval = removals.contains(oldIndex)
            let isInsertion = insertions.contains(newIndex)
            // What is already known of the pair, so that its diff does not compare it again.
            var unchanged = oldIndex == newIndex ? lists.knownUnchanged(at: oldIndex) : nil
            if collapse, !isRemoval, !isInsertion {
                // Pairs up to the next change on either side: those unchanged are folded together.
                let limit = min(
                    Self.next(after: oldIndex, in: nextRemovals, or: oldCount) - oldIndex,
                    Self.next(after: newIndex, in: nextInsertions, or: newCount) - newIndex)
                let run = lists.unchangedRun(oldIndex, newIndex, limit: limit)
                if run > 0 {
                    if unchangedCount == 0 {
                        var child = lists.new(newIndex)
                        transform(&child, newIndex)
                        firstUnchanged = child
                    }
                    unchangedCount += run
                    oldIndex += run
                    newIndex += run
                    continue
                }
                unchanged = false
            }
            if !sorted { try flush() }
            switch (isRemoval, isInsertion) {
            case (true, true), (false, false):
                var before = lists.old(oldIndex)
                var after = lists.new(newIndex)
                transform(&before, isRemoval ? oldIndex : newIndex)
                transform(&after, newIndex)
                let last = oldIndex == oldCount - 1 && newIndex == newCount - 1
                out +=
                    try diff(
                        before.value, after.value, oldName: before.label, newName: after.label,
                        separator: last ? "" : elementSeparator, indent: childIndent, isRoot: false,
                        unchanged: isRemoval ? nil : unchanged) + "\n"
                oldIndex += 1
                newIndex += 1
            case (true, false):
                var before = lists.old(oldIndex)
                transform(&before, oldIndex)
                out +=
                    Self.prefixing(try dump(before.value, name: before.label, indent: childIndent, isRoot: false, maxDepth: .max), with: "-")
                    + (oldIndex == oldCount - 1 ? "\n" : "\(elementSeparator)\n")
                oldIndex += 1
            case (false, true):
                var after = lists.new(newIndex)
                transform(&after, newIndex)
                out +=
                    Self.prefixing(try dump(after.value, name: after.label, indent: childIndent, isRoot: false, maxDepth: .max), with: "+")
                    + (newIndex == newCount - 1 && unchangedCount == 0 ? "\n" : "\(elementSeparator)\n")
                newIndex += 1
            }
        }
        try flush()
        return out + Self.prefixing(Dumper.indenting(suffix, by: pair.indent), with: " ") + pair.separator
    }

    /// The first position in `positions` (sorted) at or after `index`, else `end`.
    private static func next(after index: Int, in positions: [Int], or end: Int) -> Int {
        var low = 0
        var high = positions.count
        while low < high {
            let middle = (low + high) / 2
            if positions[middle] < index { low = middle + 1 } else { high = middle }
        }
        return low < positions.count ? positions[low] : end
    }

    /// The same of a plain struct, from its fields (``StructFields``): no mirror.
    static func isSingleValueContainer(plainStruct fields: [Mirror.Child]) -> Bool {
        Dumper.isSingleValueContainer(.struct, children: fields)
    }

    /// custom-dump's `Mirror.isSingleValueContainer`, without listing a collection's children.
    private static func isSingleValueContainer(_ value: Any, _ mirror: Mirror) -> Bool {
        switch mirror.displayStyle {
        case .collection?, .dictionary?, .set?: false
        case .struct?: Dumper.isSingleValueContainer(.struct, children: ValueChildren.children(of: value, mirror))
        default: mirror.children.count == 1 && Dumper.isSingleValueContainer(mirror.displayStyle, children: Array(mirror.children))
        }
    }
}
