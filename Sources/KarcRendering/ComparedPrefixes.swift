/// The common beginnings of arrays already compared while one state change
/// is printed, so that no pair of arrays is compared twice.
///
/// A `--json` state line needs the readable diff and the JSON tree of the
/// new state, and both start by finding how much of each changed array is
/// unchanged: for a list of 10,000 elements with one appended, that is the
/// same pass of `memcmp` over every element, twice. The diff records what
/// it found here and the tree reads it back.
///
/// Arrays are known by their storage (address and count), which is only
/// theirs while they are alive: each entry keeps both arrays, so that no
/// array freed during the render (a temporary `customDumpValue`) can lend
/// its address to another. One instance serves one render and is dropped after it.
package final class ComparedPrefixes {
    private struct Key: Hashable {
        let old: UnsafeRawPointer
        let new: UnsafeRawPointer
        let oldCount: Int
        let newCount: Int
    }

    private var entries: [Key: (prefix: Int, arrays: (Any, Any))] = [:]

    /// An array's storage, without the array it was compared with.
    private struct NewKey: Hashable {
        let base: UnsafeRawPointer
        let count: Int
    }

    /// Arrays compared with the snapshot of their last value (``ElementChunks``): what was found, and both sides kept alive.
    private var snapshotBounds: [NewKey: (bounds: ArrayBounds, compared: (Any, AnyObject))] = [:]

    package init() {}

    /// How many elements at the start of `old` and `new` are unchanged,
    /// pair by pair: remembered, or found and remembered.
    package func unchangedPrefix<Element>(_ old: [Element], _ new: [Element]) -> Int {
        guard let key = Self.key(old, new) else { return old.unchangedPrefix(from: 0, comparedWith: new, from: 0, limit: .max) }
        if let known = entries[key] { return known.prefix }
        let prefix = old.unchangedPrefix(from: 0, comparedWith: new, from: 0, limit: .max)
        entries[key] = (prefix, (old, new))
        return prefix
    }

    /// What comparing `new` with `old` (a snapshot's elements) found, when it was recorded.
    package func bounds<Element>(of new: [Element], comparedWith old: AnyObject) -> ArrayBounds? {
        guard let key = Self.key(new), let known = snapshotBounds[key], known.compared.1 === old else { return nil }
        return known.bounds
    }

    /// What comparing `new` with the snapshot of its last value found, whatever the snapshot: for the JSON tree of the same change.
    package func bounds<Element>(of new: [Element]) -> ArrayBounds? {
        Self.key(new).flatMap { snapshotBounds[$0]?.bounds }
    }

    package func record<Element>(_ bounds: ArrayBounds, of new: [Element], comparedWith old: AnyObject) {
        guard let key = Self.key(new) else { return }
        snapshotBounds[key] = (bounds, (new, old))
    }

    private static func key<Element>(_ array: [Element]) -> NewKey? {
        guard !array.isEmpty else { return nil }
        let base = array.withUnsafeBufferPointer { $0.baseAddress.map(UnsafeRawPointer.init) }
        return base.map { NewKey(base: $0, count: array.count) }
    }

    /// Empty arrays share one storage and need no memory.
    private static func key<Element>(_ old: [Element], _ new: [Element]) -> Key? {
        guard !old.isEmpty, !new.isEmpty else { return nil }
        let oldBase = old.withUnsafeBufferPointer { $0.baseAddress.map(UnsafeRawPointer.init) }
        let newBase = new.withUnsafeBufferPointer { $0.baseAddress.map(UnsafeRawPointer.init) }
        guard let oldBase, let newBase else { return nil }
        return Key(old: oldBase, new: newBase, oldCount: old.count, newCount: new.count)
    }
}
