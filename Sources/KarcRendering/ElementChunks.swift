import Foundation

/// An array's elements in chunks of ``StateSnapshot/chunkSize``, as a
/// snapshot keeps them: each chunk an array of its own, so that holding
/// them does not hold the state's array, and a snapshot of the array after
/// a change shares every chunk the change did not touch with this one.
///
/// Compared with an array of the same elements where they lie, a chunk at
/// a time, by the same comparison arrays use (``ContiguousElements``).
package final class ElementChunks<Element>: ContiguousElements {
    private let chunks: [[Element]]
    package let count: Int

    /// The elements of `array`; chunks of `previous` (a snapshot of an
    /// earlier value of the same array) that are unchanged are taken as they are.
    init(_ array: [Element], reusing previous: ElementChunks?, prefixes: ComparedPrefixes?) {
        let size = StateSnapshot.chunkSize
        count = array.count
        let known = previous.flatMap { prefixes?.bounds(of: array, comparedWith: $0) }
        var chunks: [[Element]] = []
        chunks.reserveCapacity((array.count + size - 1) / size)
        for start in stride(from: 0, to: array.count, by: size) {
            let end = Swift.min(start + size, array.count)
            let index = start / size
            if let previous, index < previous.chunks.count, previous.chunks[index].count == end - start,
                Self.unchanged(start..<end, of: array, in: previous, known: known)
            {
                chunks.append(previous.chunks[index])
            } else {
                chunks.append(Array(array[start..<end]))
            }
        }
        self.chunks = chunks
    }

    /// Whether the chunk `range` of `previous` holds `array`'s elements in
    /// `range`: from what a diff learnt (`known`), else compared.
    private static func unchanged(_ range: Range<Int>, of array: [Element], in previous: ElementChunks, known: ArrayBounds?) -> Bool {
        if let known {
            if range.upperBound <= known.prefix { return true }
            // The unchanged end lines up with the old chunks only when the counts agree.
            if known.oldCount == array.count, range.lowerBound >= array.count - known.suffix { return true }
            return false
        }
        let chunk = previous.chunks[range.lowerBound / StateSnapshot.chunkSize]
        return chunk.unchangedPrefix(from: 0, comparedWith: array, from: range.lowerBound, limit: range.count) == range.count
    }

    package func element(at index: Int) -> Any {
        chunks[index / StateSnapshot.chunkSize][index % StateSnapshot.chunkSize]
    }

    package func unchangedPrefix(from start: Int, comparedWith other: Any, from otherStart: Int, limit: Int) -> Int {
        guard let other = other as? [Element] else { return 0 }
        let length = Swift.min(limit, count - start, other.count - otherStart)
        var found = 0
        while found < length {
            let index = start + found
            let chunk = chunks[index / StateSnapshot.chunkSize]
            let offset = index % StateSnapshot.chunkSize
            let run = Swift.min(chunk.count - offset, length - found)
            let same = chunk.unchangedPrefix(from: offset, comparedWith: other, from: otherStart + found, limit: run)
            found += same
            if same < run { break }
        }
        return found
    }

    package func unchangedPrefix(comparedWith other: Any, prefixes: ComparedPrefixes?) -> Int {
        guard let other = other as? [Element] else { return 0 }
        if let known = prefixes?.bounds(of: other, comparedWith: self) { return known.prefix }
        let prefix = unchangedPrefix(from: 0, comparedWith: other, from: 0, limit: .max)
        let suffix = unchangedSuffix(comparedWith: other, limit: Swift.min(count, other.count) - prefix)
        prefixes?.record(ArrayBounds(prefix: prefix, suffix: suffix, oldCount: count), of: other, comparedWith: self)
        return prefix
    }

    /// How many elements at the ends of these and `other` are unchanged, pair by pair from the last, at most `limit`.
    func unchangedSuffix(comparedWith other: [Element], limit: Int) -> Int {
        var found = 0
        while found < limit {
            // The chunk holding this side's element `count - 1 - found`, compared from its start to there.
            let index = count - 1 - found
            let chunk = chunks[index / StateSnapshot.chunkSize]
            let offset = index % StateSnapshot.chunkSize
            let run = Swift.min(offset + 1, limit - found)
            let same = chunk.unchangedSuffix(upTo: offset + 1, comparedWith: other, upTo: other.count - found, limit: run)
            found += same
            if same < run { break }
        }
        return found
    }
}

/// What comparing an array with the snapshot of its last value found: how
/// many elements at its start and at its end are unchanged, and how many
/// the old value had.
package struct ArrayBounds {
    package let prefix: Int
    package let suffix: Int
    package let oldCount: Int
}
