/// How much of a state changed, for `:diff summary`: the parts of the state
/// (its fields, and the elements of the collections among them, or its own
/// elements when it is a collection), counted changed or unchanged.
/// `state  articles: 1 changed, 2,001 unchanged` costs a comparison per
/// part, never a dump of the state.
package enum StateSummary {
    package struct Counts: Equatable {
        package var changed = 0
        package var unchanged = 0
    }

    /// `old` is the state before, or a snapshot of it (``StateSnapshot``).
    package static func count(_ old: Any, _ new: Any) -> Counts {
        var counts = Counts()
        let snapshot = SnapshotNode.in(old)
        let before = ValueChildren.mirror(old)
        let after = ValueChildren.mirror(new)
        if isCollection(after) {
            compareElements(old, before, new, after, into: &counts)
            return counts
        }
        let oldChildren = snapshot?.fields ?? (type(of: old) == type(of: new) ? ValueChildren.children(of: old, before) : [])
        guard !oldChildren.isEmpty, !after.children.isEmpty else {
            add(equal(old, new), to: &counts)
            return counts
        }
        for (oldChild, newChild) in zip(oldChildren, ValueChildren.children(of: new, after)) {
            let inner = ValueChildren.mirror(newChild.value)
            if isCollection(inner) {
                compareElements(oldChild.value, ValueChildren.mirror(oldChild.value), newChild.value, inner, into: &counts)
            } else {
                add(equal(oldChild.value, newChild.value), to: &counts)
            }
        }
        return counts
    }

    /// `1 changed, 2,001 unchanged`.
    package static func describe(_ counts: Counts) -> String {
        "\(grouped(counts.changed)) changed, \(grouped(counts.unchanged)) unchanged"
    }

    private static func isCollection(_ mirror: Mirror) -> Bool {
        mirror.displayStyle == .collection || mirror.displayStyle == .set || mirror.displayStyle == .dictionary
    }

    /// Elements by position (a dictionary's by key): each one equal, changed, added or removed.
    private static func compareElements(_ oldValue: Any, _ old: Mirror, _ newValue: Any, _ new: Mirror, into counts: inout Counts) {
        let snapshot = SnapshotNode.in(oldValue)?.elements
        if let before = snapshot ?? oldValue as? any ContiguousElements, let after = newValue as? any ContiguousElements,
            snapshot != nil || type(of: oldValue) == type(of: newValue)
        {
            // Arrays are compared where they lie, a run of unchanged elements at a time.
            let common = min(before.count, after.count)
            var index = 0
            while index < common {
                let run = before.unchangedPrefix(from: index, comparedWith: after, from: index, limit: common - index)
                counts.unchanged += run
                index += run
                if index < common {
                    counts.changed += 1
                    index += 1
                }
            }
            counts.changed += max(before.count, after.count) - common  // added or removed
            return
        }
        if new.displayStyle == .dictionary || new.displayStyle == .set {
            var before: [String: Any] = [:]
            for (key, value) in keyed(old) { before[key] = value }
            for (key, value) in keyed(new) {
                if let previous = before.removeValue(forKey: key) {
                    add(equal(previous, value), to: &counts)
                } else {
                    counts.changed += 1
                }
            }
            counts.changed += before.count
            return
        }
        let before = Array(old.children)
        let after = Array(new.children)
        for index in 0..<max(before.count, after.count) {
            guard index < before.count, index < after.count else {
                counts.changed += 1  // added or removed
                continue
            }
            add(equal(before[index].value, after[index].value), to: &counts)
        }
    }

    /// A dictionary's values by key, a set's elements by themselves; keys as text to match on.
    private static func keyed(_ mirror: Mirror) -> [(key: String, value: Any)] {
        guard mirror.displayStyle == .dictionary else { return mirror.children.map { (ValueText.dump($0.value), $0.value) } }
        return ValueChildren.entries(of: mirror).map { (ValueText.dump($0.key), $0.value) }
    }

    private static func add(_ isEqual: Bool, to counts: inout Counts) {
        if isEqual { counts.unchanged += 1 } else { counts.changed += 1 }
    }

    private static func equal(_ a: Any, _ b: Any) -> Bool {
        Unchanged.check(a, b)
    }

    private static func grouped(_ n: Int) -> String {
        let digits = String(n)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return result
    }
}
