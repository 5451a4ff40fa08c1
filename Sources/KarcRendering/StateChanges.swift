import KarcLanguage

/// One part of a state that a change set, added or removed: what the shell
/// keeps of a change for `:blame` and prints for `:watch`.
package struct StateChange {
    /// Where, from the target's state: `items[3].likes`; empty for the whole state.
    package let path: [StatePath.Step]
    /// The part before; nil when the change added it.
    package let old: Any?
    /// The part after; nil when the change removed it.
    package let new: Any?

    package init(path: [StatePath.Step], old: Any?, new: Any?) {
        self.path = path
        self.old = old
        self.new = new
    }
}

/// The parts a change of state changed, at their deepest: two states'
/// fields, elements and entries walked side by side, down to the parts that
/// differ (a number, a string, an enum's case, an element added or
/// removed). What the shell keeps of each change instead of the states.
///
/// The old state may be a snapshot (``StateSnapshot``), as the renderer
/// keeps it; `prefixes` is what the diff of the same change learnt of its
/// arrays, so a long list is not compared twice. A list whose length changed
/// is told as the elements added or removed where the rest lines up (an
/// append is one added element, not 10,000 compared ones).
package enum StateChanges {
    /// The changes from `old` to `new`, at most `limit` of them; `omitted`
    /// counts those past it.
    package static func between(_ old: Any, _ new: Any, prefixes: ComparedPrefixes? = nil, limit: Int = 1_000) -> (
        changes: [StateChange], omitted: Int
    ) {
        var walk = Walk(prefixes: prefixes, limit: max(1, limit))
        var path: [StatePath.Step] = []
        walk.compare(old, new, at: &path, differs: false)
        return (walk.changes, walk.omitted)
    }

    private struct Walk {
        let prefixes: ComparedPrefixes?
        let limit: Int
        var changes: [StateChange] = []
        var omitted = 0

        init(prefixes: ComparedPrefixes?, limit: Int) {
            self.prefixes = prefixes
            self.limit = limit
        }

        mutating func add(_ path: [StatePath.Step], old: Any?, new: Any?) {
            guard changes.count < limit else {
                omitted += 1
                return
            }
            changes.append(StateChange(path: path, old: old, new: new))
        }

        /// `old` and `new` differ (`differs`: a comparison said so), or may: finds where.
        mutating func compare(_ old: Any, _ new: Any, at path: inout [StatePath.Step], differs: Bool) {
            if let snapshot = SnapshotNode.in(old) {
                switch snapshot.kind {
                case .fields(let type, let children):
                    if Swift.type(of: new) == type, let current = StructFields.children(of: new) {
                        // A plain struct's fields, without a mirror.
                        fields(children, current, old: old, new: new, at: &path)
                        return
                    }
                    let mirror = ValueChildren.mirror(new)
                    guard mirror.subjectType == type, mirror.displayStyle == .struct else { return add(path, old: old, new: new) }
                    fields(children, ValueChildren.children(of: new, mirror), old: old, new: new, at: &path)
                case .elements(let elements):
                    guard let after = new as? any ContiguousElements else { return add(path, old: old, new: new) }
                    list(elements, after, at: &path)
                }
                return
            }
            if !differs, Unchanged.check(old, new, prefixes: prefixes) { return }
            guard type(of: old) == type(of: new), !Self.isLeaf(old) else { return add(path, old: old, new: new) }
            if let before = old as? any ContiguousElements, let after = new as? any ContiguousElements {
                return list(before, after, at: &path)
            }
            // A plain struct's fields, read without a mirror (``StructFields``): the usual state.
            if let before = StructFields.children(of: old), let after = StructFields.children(of: new) {
                return fields(before, after, old: old, new: new, at: &path)
            }
            let before = ValueChildren.mirror(old)
            let after = ValueChildren.mirror(new)
            switch before.displayStyle {
            case .struct?:
                fields(ValueChildren.children(of: old, before), ValueChildren.children(of: new, after), old: old, new: new, at: &path)
            case .optional?:
                // Both set (else they are leaves): the change is inside the value.
                guard let oldValue = before.children.first?.value, let newValue = after.children.first?.value else {
                    return add(path, old: old, new: new)
                }
                compare(oldValue, newValue, at: &path, differs: true)
            case .dictionary?:
                dictionary(ValueChildren.entries(of: before), ValueChildren.entries(of: after), at: &path)
            default:
                // Enums, classes, sets, tuples and the rest: told whole where they differ.
                add(path, old: old, new: new)
            }
        }

        /// A value told whole when it differs: what has no parts to walk.
        private static func isLeaf(_ value: Any) -> Bool {
            let traits = Traits.of(value)
            if traits.isOptional { return (value as? any OptionalType)?.wrapped == nil }
            return traits.isScalar || traits.isConvertible || traits.isRepresentable || traits.isMetatype
        }

        private mutating func fields(_ old: [Mirror.Child], _ new: [Mirror.Child], old whole: Any, new wholeNew: Any, at path: inout [StatePath.Step])
        {
            guard old.count == new.count, !old.isEmpty else { return add(path, old: whole, new: wholeNew) }
            for (before, after) in zip(old, new) {
                guard before.label == after.label, let label = before.label else { return add(path, old: whole, new: wholeNew) }
                guard ValueChildren.isShownProperty(before) else { continue }
                let snapshot = SnapshotNode.in(before.value) != nil
                if !snapshot, Unchanged.check(before.value, after.value, prefixes: prefixes) { continue }
                path.append(.field(label))
                compare(before.value, after.value, at: &path, differs: !snapshot)
                path.removeLast()
            }
        }

        /// Two lists: the elements that changed where they lie, or, when the
        /// length changed and the rest lines up, those added or removed.
        private mutating func list(_ old: any ContiguousElements, _ new: any ContiguousElements, at path: inout [StatePath.Step]) {
            let prefix = old.unchangedPrefix(comparedWith: new, prefixes: prefixes)
            let (oldCount, newCount) = (old.count, new.count)
            guard prefix < oldCount || prefix < newCount else { return }
            let grown = newCount - oldCount
            if grown > 0, old.unchangedPrefix(from: prefix, comparedWith: new, from: prefix + grown, limit: .max) == oldCount - prefix {
                for index in prefix..<(prefix + grown) { element(at: index, old: nil, new: new.element(at: index), path: &path) }
                return
            }
            if grown < 0, old.unchangedPrefix(from: prefix - grown, comparedWith: new, from: prefix, limit: .max) == newCount - prefix {
                // Removed from the last, so that each index names the element as it was before the ones after it went.
                for index in (prefix..<(prefix - grown)).reversed() { element(at: index, old: old.element(at: index), new: nil, path: &path) }
                return
            }
            var index = prefix
            let common = min(oldCount, newCount)
            while index < common {
                let same = old.unchangedPrefix(from: index, comparedWith: new, from: index, limit: common - index)
                index += same
                guard index < common else { break }
                path.append(.index(index))
                compare(old.element(at: index), new.element(at: index), at: &path, differs: true)
                path.removeLast()
                index += 1
            }
            for extra in (common..<oldCount).reversed() { element(at: extra, old: old.element(at: extra), new: nil, path: &path) }
            for extra in common..<newCount { element(at: extra, old: nil, new: new.element(at: extra), path: &path) }
        }

        private mutating func element(at index: Int, old: Any?, new: Any?, path: inout [StatePath.Step]) {
            path.append(.index(index))
            add(path, old: old, new: new)
            path.removeLast()
        }

        private mutating func dictionary(_ old: [(key: Any, value: Any)], _ new: [(key: Any, value: Any)], at path: inout [StatePath.Step]) {
            var before: [String: Any] = [:]
            for entry in old { before[Self.name(of: entry.key)] = entry.value }
            var keys: [(String, Any?, Any?)] = []
            for entry in new {
                let key = Self.name(of: entry.key)
                keys.append((key, before.removeValue(forKey: key), entry.value))
            }
            for (key, value) in before { keys.append((key, value, nil)) }
            for (key, oldValue, newValue) in keys.sorted(by: { $0.0 < $1.0 }) {
                path.append(.key(key))
                switch (oldValue, newValue) {
                case (let oldValue?, let newValue?): compare(oldValue, newValue, at: &path, differs: false)
                default: add(path, old: oldValue, new: newValue)
                }
                path.removeLast()
            }
        }

        /// A key as a path names it: a string as it is (`tags["env"]` reads `env`,
        /// `["say \"hi\""]` reads `say "hi"`), any other key as it dumps.
        private static func name(of key: Any) -> String {
            (key as? String) ?? ValueText.dump(key)
        }
    }
}
