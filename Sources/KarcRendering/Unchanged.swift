import CustomDump
import Foundation
import KarcReflection

/// Whether a part of a state is unchanged: what custom-dump's diff asks of
/// every part it walks (`==` for `Equatable` values, else their mirrors
/// compared), answered first from the value's bits.
///
/// A state that changed in one place shares everything else with its old
/// value: the same string and array buffers, the same integers. Comparing
/// bits finds that at memory speed, and an array's elements are compared a
/// block at a time, so an unchanged 10,000-element list costs a few
/// `memcmp`s instead of 10,000 `==`s. When the bits differ (a copy that
/// re-created an equal string, padding between fields, an existential's
/// unused words), the answer comes from `==` or the mirrors as before.
///
/// One deliberate difference from custom-dump: a value whose bits did not
/// change is unchanged even when its `==` says otherwise (a `Double.nan`
/// that stayed `nan`). A state diff shows what changed; custom-dump's
/// "Not equal but no difference detected" is a test assertion's concern.
package enum Unchanged {
    /// `old` and `new` are the same type and equal. `prefixes`, when
    /// given, remembers the arrays compared, for the rest of one render.
    package static func check(_ old: Any, _ new: Any, prefixes: ComparedPrefixes? = nil) -> Bool {
        if let snapshot = SnapshotNode.in(old) { return snapshot.isUnchanged(new, prefixes: prefixes) }
        guard type(of: old) == type(of: new) else { return false }
        var visited: Set<Pair> = []
        return check(old, new, visited: &visited, prefixes: prefixes)
    }

    /// Whether `old` and `new` are identified as the same thing
    /// (`Identifiable` with the same id): custom-dump pairs such elements
    /// of a collection and diffs them, rather than removing one and adding the other.
    package static func sameIdentity(_ old: Any, _ new: Any) -> Bool {
        guard let old = old as? any Identifiable else { return false }
        func open<Value: Identifiable>(_ old: Value) -> Bool {
            guard let new = new as? Value else { return false }
            return old.id == new.id
        }
        return open(old)
    }

    /// Two class instances already being compared: a cycle counts as equal, as in custom-dump.
    private struct Pair: Hashable {
        let old: ObjectIdentifier
        let new: ObjectIdentifier
    }

    private static func check(_ old: Any, _ new: Any, visited: inout Set<Pair>, prefixes: ComparedPrefixes?) -> Bool {
        func open<Value>(_ old: Value) -> Bool? {
            guard let new = new as? Value else { return false }
            if bitwiseEqual(old, new) { return true }
            if let elements = old as? any ContiguousElements { return elements.hasSameElements(as: new, prefixes: prefixes) }
            return nil
        }
        if let quick = open(old) { return quick }
        if let old = old as? any Equatable {
            func equals<Value: Equatable>(_ old: Value) -> Bool { (new as? Value).map { $0 == old } ?? false }
            return equals(old)
        }
        // custom-dump's `isMirrorEqual` for what is not `Equatable`.
        if type(of: old) is AnyClass {
            let pair = Pair(old: ObjectIdentifier(old as AnyObject), new: ObjectIdentifier(new as AnyObject))
            if pair.old == pair.new || !visited.insert(pair).inserted { return true }
        }
        let before = ValueChildren.mirror(old)
        let after = ValueChildren.mirror(new)
        guard before.subjectType == after.subjectType else { return false }
        let oldChildren = ValueChildren.children(of: old, before)
        let newChildren = ValueChildren.children(of: new, after)
        guard oldChildren.count == newChildren.count else { return false }
        guard !oldChildren.isEmpty else { return String(describing: old) == String(describing: new) }
        for (oldChild, newChild) in zip(oldChildren, newChildren) {
            guard oldChild.label == newChild.label, type(of: oldChild.value) == type(of: newChild.value),
                check(oldChild.value, newChild.value, visited: &visited, prefixes: prefixes)
            else { return false }
        }
        return true
    }

    /// The bytes a value occupies, compared (not its stride's padding at the end).
    package static func bitwiseEqual<Value>(_ old: Value, _ new: Value) -> Bool {
        withUnsafeBytes(of: old) { before in
            withUnsafeBytes(of: new) { after in
                before.count == after.count && (before.count == 0 || memcmp(before.baseAddress!, after.baseAddress!, before.count) == 0)
                // `baseAddress!`: a buffer of a nonzero count has one.
            }
        }
    }
}

/// An array, opened so its elements are compared where they lie.
package protocol ContiguousElements {
    var count: Int { get }

    /// How many elements, from `start` on here and from `otherStart` on in
    /// `other` (an array of the same type), are unchanged, pair by pair, before
    /// the first that changed: at most `limit`, and at most what both hold.
    func unchangedPrefix(from start: Int, comparedWith other: Any, from otherStart: Int, limit: Int) -> Int

    /// The element at `index`, as `Any`.
    func element(at index: Int) -> Any

    /// How many elements at the start of this array and `other` (of the
    /// same type) are unchanged, pair by pair: from `prefixes` when another
    /// part of the render compared the two already.
    func unchangedPrefix(comparedWith other: Any, prefixes: ComparedPrefixes?) -> Int
}

extension ContiguousElements {
    /// Whether `other` is an array of the same type with the same elements.
    package func hasSameElements(as other: Any, prefixes: ComparedPrefixes? = nil) -> Bool {
        guard let other = other as? any ContiguousElements, other.count == count else { return false }
        return unchangedPrefix(comparedWith: other, prefixes: prefixes) == count
    }
}

extension Array: ContiguousElements {
    package func element(at index: Int) -> Any { self[index] }

    package func unchangedPrefix(comparedWith other: Any, prefixes: ComparedPrefixes?) -> Int {
        guard let other = other as? [Element] else { return 0 }
        return prefixes?.unchangedPrefix(self, other) ?? unchangedPrefix(from: 0, comparedWith: other, from: 0, limit: .max)
    }

    package func unchangedPrefix(from start: Int, comparedWith other: Any, from otherStart: Int, limit: Int) -> Int {
        guard let other = other as? [Element] else { return 0 }
        return unchangedPrefix(from: start, comparedWith: other, from: otherStart, limit: limit, by: ElementComparison())
    }

    /// The same, typed, with the comparison's lookups made once by the caller (``ElementChunks`` compares a chunk at a time).
    func unchangedPrefix(from start: Int, comparedWith other: [Element], from otherStart: Int, limit: Int, by comparison: ElementComparison<Element>)
        -> Int
    {
        let length = Swift.min(limit, count - start, other.count - otherStart)
        guard length > 0 else { return 0 }
        return withUnsafeBufferPointer { before in
            other.withUnsafeBufferPointer { after in
                // `baseAddress!`: both buffers hold at least `length` elements past their starts.
                let old = before.baseAddress! + start
                let new = after.baseAddress! + otherStart
                return old == new ? length : comparison.unchangedPrefix(old, new, length: length)
            }
        }
    }

    /// How many elements at the ends of this array and `other` are
    /// unchanged, pair by pair from the last, at most `limit`.
    package func unchangedSuffix(comparedWith other: [Element], limit: Int) -> Int {
        unchangedSuffix(upTo: count, comparedWith: other, upTo: other.count, limit: limit)
    }

    /// How many elements before `end` here and before `otherEnd` in `other`
    /// are unchanged, pair by pair from the last, at most `limit`.
    package func unchangedSuffix(
        upTo end: Int, comparedWith other: [Element], upTo otherEnd: Int, limit: Int, by comparison: ElementComparison<Element> = .init()
    ) -> Int {
        let length = Swift.min(limit, end, otherEnd)
        guard length > 0 else { return 0 }
        return withUnsafeBufferPointer { before in
            other.withUnsafeBufferPointer { after in
                // `baseAddress!`: both buffers hold at least `length` elements before their ends.
                let old = before.baseAddress! + end
                let new = after.baseAddress! + otherEnd
                return old == new ? length : comparison.unchangedSuffix(old, new, length: length)
            }
        }
    }
}

/// How two runs of `Element`s are compared where they lie, with what that
/// needs of the type (its `==`, its value bytes' mask) looked up once.
package struct ElementComparison<Element> {
    private let equal: ((UnsafePointer<Element>, UnsafePointer<Element>) -> Bool)?
    private let mask: ValueBytes.Mask?

    package init() {
        equal = Self.elementsEqual
        mask = ValueBytes.mask(of: Element.self)
    }

    /// Blocks of whole elements compared with `memcmp` while their bytes
    /// agree; an element whose bytes differ is compared with `==` when the
    /// elements are `Equatable`, else asked `Unchanged.check`.
    ///
    /// Bytes differ between equal elements more often than not on users'
    /// types: a copied struct's padding (a `Bool` before a `Date?`) and an
    /// enum's unused payload bytes are not copied, so they hold whatever was
    /// there. Each such element was boxed into `Any` and cast to find its
    /// `==`, 30 times the cost of a list of plain fields; `==` is now found
    /// once per array (``elementsEqual``).
    func unchangedPrefix(_ old: UnsafePointer<Element>, _ new: UnsafePointer<Element>, length: Int) -> Int {
        unchangedRun(old, new, length: length, fromEnd: false)
    }

    /// How many of the `length` elements before `oldEnd` and `newEnd` are
    /// unchanged, pair by pair from the last: as ``unchangedPrefix(_:_:length:)``
    /// compares them, from the other end (a list grown or shrunk at its start).
    func unchangedSuffix(_ oldEnd: UnsafePointer<Element>, _ newEnd: UnsafePointer<Element>, length: Int) -> Int {
        unchangedRun(oldEnd - length, newEnd - length, length: length, fromEnd: true)
    }

    /// How many of the `length` pairs from `old` and `new` on are unchanged,
    /// counted from the first, or (`fromEnd`) from the last.
    private func unchangedRun(_ old: UnsafePointer<Element>, _ new: UnsafePointer<Element>, length: Int, fromEnd: Bool) -> Int {
        let size = MemoryLayout<Element>.size
        let stride = MemoryLayout<Element>.stride
        var found = 0
        // Without padding at the end of each element, whole blocks compare in one call.
        if size == stride, size > 0 {
            let block = 64
            while found + block <= length {
                let first = fromEnd ? length - found - block : found
                guard memcmp(old + first, new + first, block * stride) == 0 else { break }
                found += block
            }
        }
        while found < length {
            let index = fromEnd ? length - 1 - found : found
            guard unchanged(old + index, new + index) else { break }
            found += 1
        }
        return found
    }

    /// Whether one pair is unchanged: with padding inside or after each
    /// element, its value's bytes are compared, not the padding's; where
    /// those differ, `==` or `Unchanged.check`.
    private func unchanged(_ old: UnsafePointer<Element>, _ new: UnsafePointer<Element>) -> Bool {
        if let mask {
            if mask.sameValueBytes(UnsafeRawPointer(old), UnsafeRawPointer(new)) { return true }
        } else if MemoryLayout<Element>.size > 0, memcmp(old, new, MemoryLayout<Element>.size) == 0 {
            return true
        }
        if let equal { return equal(old, new) }
        return Unchanged.check(old.pointee, new.pointee)
    }

    /// `==` of two elements where they lie, when `Element` is `Equatable`:
    /// the conformance looked up once, then a direct call for each pair.
    private static var elementsEqual: ((UnsafePointer<Element>, UnsafePointer<Element>) -> Bool)? {
        guard let equatable = Element.self as? any Equatable.Type else { return nil }
        func compare<Same: Equatable>(_: Same.Type) -> (UnsafePointer<Element>, UnsafePointer<Element>) -> Bool {
            // `Same` is `Element` (opened from `Element.self` above): the same type, so the
            // memory of an `Element` is bound to `Same` already.
            { old, new in
                UnsafeRawPointer(old).assumingMemoryBound(to: Same.self).pointee == UnsafeRawPointer(new).assumingMemoryBound(to: Same.self).pointee
            }
        }
        return compare(equatable)
    }
}
