/// What the shell keeps of a state it printed, to compare the next one
/// with, without keeping the state's long arrays.
///
/// A store that reports a change in place (an append to a 10,000-element
/// list) can only do so without copying the list when nobody else holds
/// it. So the shell does not keep the state: it keeps the state's parts,
/// and for each array of ``threshold`` elements or more, the elements
/// themselves in chunks of ``chunkSize`` (``ElementChunks``). Each element
/// is held, not the array's storage, and the next snapshot takes the
/// chunks that did not change from this one:
///
///     state ──▶ plain struct with a long array inside? ──no──▶ the value, held whole
///                 │ yes
///                 ▼
///               SnapshotNode.fields: each field's own snapshot
///                 └─ a long array ──▶ SnapshotNode.elements: chunks of
///                                      elements, the unchanged ones shared
///                                      with the last snapshot
///
/// ``StateDiff``, ``Unchanged`` and ``StateSummary`` take a snapshot where
/// they take an old value, and print the same text.
package enum StateSnapshot {
    /// Arrays shorter than this are held whole: copying one on a change costs little.
    package static let threshold = 256
    /// Elements a chunk holds (the last chunk of an array may hold fewer).
    package static let chunkSize = 128

    /// A snapshot of `value`: a ``SnapshotNode``, or `value` itself when it
    /// holds no long array where one is looked for (a plain struct's fields,
    /// and theirs). `previous`, this part's last snapshot, lends its
    /// unchanged chunks; `prefixes`, what a diff of the two just learnt.
    package static func take(_ value: Any, reusing previous: Any? = nil, prefixes: ComparedPrefixes? = nil) -> Any {
        if isAlwaysWhole(type(of: value)) { return value }
        if let elements = value as? any ChunkableElements {
            guard elements.count >= threshold else { return value }
            return SnapshotNode(.elements(elements.chunks(reusing: previous.flatMap(SnapshotNode.in)?.elements, prefixes: prefixes)))
        }
        let traits = Traits.of(value)
        guard !traits.isScalar, !traits.isOptional, !traits.isConvertible, !traits.isRepresentable,
            !traits.isReflectable, !(value is any CustomReflectable)
        else { return value }
        // A plain struct's fields without a mirror (``StructFields``), else its mirror's.
        let type: Any.Type
        let children: [Mirror.Child]
        if let fields = StructFields.children(of: value) {
            (type, children) = (Swift.type(of: value), fields)
        } else {
            let mirror = Mirror(reflecting: value)
            guard mirror.displayStyle == .struct else { return value }
            (type, children) = (mirror.subjectType, ValueChildren.children(of: value, mirror))
        }
        let before = previous.flatMap(SnapshotNode.in)?.fields
        var kept: [Mirror.Child] = []
        kept.reserveCapacity(children.count)
        var decomposed = false
        for (index, child) in children.enumerated() {
            let last = before.flatMap { index < $0.count && $0[index].label == child.label ? $0[index].value : nil }
            let part = take(child.value, reusing: last, prefixes: prefixes)
            if SnapshotNode.in(part) != nil { decomposed = true }
            kept.append((child.label, part))
        }
        return decomposed ? SnapshotNode(.fields(type: type, children: kept)) : value
    }
}

/// A part of a state the shell keeps in parts (see ``StateSnapshot``).
package final class SnapshotNode {
    package enum Kind {
        /// A plain struct: its type, and each field's snapshot, as its mirror lists them.
        case fields(type: Any.Type, children: [Mirror.Child])
        /// An array's elements.
        case elements(any ContiguousElements)
    }

    package let kind: Kind

    init(_ kind: Kind) {
        self.kind = kind
    }

    /// `value` when it is a snapshot node. Asked by its type first: on
    /// Linux, casting an array to a class type bridges it to an `NSArray`,
    /// element by element, before the cast fails.
    package static func `in`(_ value: Any) -> SnapshotNode? {
        type(of: value) == SnapshotNode.self ? value as? SnapshotNode : nil
    }

    /// The children of `value` to set beside a `.fields` snapshot of `type`:
    /// a plain struct's read without a mirror (``StructFields``); nil when
    /// `value` is not of that type.
    static func fields(of value: Any, _ type: Any.Type) -> [Mirror.Child]? {
        if Swift.type(of: value) == type, let fields = StructFields.children(of: value) { return fields }
        let mirror = ValueChildren.mirror(value)
        guard mirror.subjectType == type else { return nil }
        return ValueChildren.children(of: value, mirror)
    }

    var fields: [Mirror.Child]? {
        if case .fields(_, let children) = kind { return children }
        return nil
    }

    var elements: (any ContiguousElements)? {
        if case .elements(let elements) = kind { return elements }
        return nil
    }

    /// Whether `value` is the state this snapshot was taken of, or one equal to it.
    func isUnchanged(_ value: Any, prefixes: ComparedPrefixes?) -> Bool {
        switch kind {
        case .fields(let type, let children):
            guard let current = Self.fields(of: value, type) else { return false }
            guard current.count == children.count else { return false }
            for (old, new) in zip(children, current) {
                guard old.label == new.label, Unchanged.check(old.value, new.value, prefixes: prefixes) else { return false }
            }
            return true
        case .elements(let elements):
            return elements.hasSameElements(as: value, prefixes: prefixes)
        }
    }
}

/// An array, as ``StateSnapshot`` keeps its elements.
package protocol ChunkableElements {
    var count: Int { get }
    func chunks(reusing previous: (any ContiguousElements)?, prefixes: ComparedPrefixes?) -> any ContiguousElements
}

extension Array: ChunkableElements {
    package func chunks(reusing previous: (any ContiguousElements)?, prefixes: ComparedPrefixes?) -> any ContiguousElements {
        ElementChunks(self, reusing: previous as? ElementChunks<Element>, prefixes: prefixes)
    }
}
