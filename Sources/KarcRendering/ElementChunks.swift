import Foundation

/// An array's elements in chunks of ``StateSnapshot/chunkSize``, as a
/// snapshot keeps them: each chunk an array of its own, so that holding
/// them does not hold the state's array, and a snapshot of the array after
/// a change shares every chunk the change did not touch with this one.
///
/// Compared with an array of the same elements where they lie, a chunk at
/// a time. Each chunk also keeps the bytes its elements had in the state's
/// array when they were copied from it: an element of the array whose bytes
/// are still those is the element the chunk copied (the chunk's copy holds
/// the same objects, so no address it refers to has been reused), and one
/// `memcmp` says so. That is what makes a list of enums or of padded
/// structs cheap to compare: a copy does not copy the bytes a value does not
/// use (an enum case's unused payload, padding), so the copy's bytes differ
/// from the array's, and without the bytes kept each such element would go
/// to `==` on every command. Elements compared at other places (an
/// insertion moved them) are compared by value (``ElementComparison``).
package final class ElementChunks<Element>: ContiguousElements {
    private struct Chunk {
        let elements: [Element]
        /// The bytes of `elements` where they lay in the state's array.
        let bytes: [UInt8]

        init(_ array: [Element], _ range: Range<Int>) {
            elements = Array(array[range])
            let stride = MemoryLayout<Element>.stride
            bytes = array.withUnsafeBytes { Array($0[(range.lowerBound * stride)..<(range.upperBound * stride)]) }
        }
    }

    private let chunks: [Chunk]
    package let count: Int
    /// The element type's `==` and value bytes, looked up once.
    private let comparison = ElementComparison<Element>()
    /// Chunks found equal by value but not by their bytes: the next snapshot
    /// copies them again, with the array's bytes of now.
    private var stale: Set<Int> = []

    /// The elements of `array`; chunks of `previous` (a snapshot of an
    /// earlier value of the same array) that are unchanged are taken as they are.
    init(_ array: [Element], reusing previous: ElementChunks?, prefixes: ComparedPrefixes?) {
        let size = StateSnapshot.chunkSize
        count = array.count
        let known = previous.flatMap { prefixes?.bounds(of: array, comparedWith: $0) }
        var chunks: [Chunk] = []
        chunks.reserveCapacity((array.count + size - 1) / size)
        for start in stride(from: 0, to: array.count, by: size) {
            let end = Swift.min(start + size, array.count)
            let index = start / size
            if let previous, index < previous.chunks.count, previous.chunks[index].elements.count == end - start,
                previous.holds(start..<end, of: array, known: known), !previous.stale.contains(index)
            {
                chunks.append(previous.chunks[index])
            } else {
                chunks.append(Chunk(array, start..<end))
            }
        }
        self.chunks = chunks
    }

    /// Whether the chunk `range` of `previous` holds `array`'s elements in
    /// `range`: from what a diff learnt (`known`), else compared.
    private func holds(_ range: Range<Int>, of array: [Element], known: ArrayBounds?) -> Bool {
        if let known {
            if range.upperBound <= known.prefix { return true }
            // The unchanged end lines up with the old chunks only when the counts agree.
            if known.oldCount == array.count, range.lowerBound >= array.count - known.suffix { return true }
            return false
        }
        return unchangedPrefix(from: range.lowerBound, comparedWith: array, from: range.lowerBound, limit: range.count) == range.count
    }

    package func element(at index: Int) -> Any {
        chunks[index / StateSnapshot.chunkSize].elements[index % StateSnapshot.chunkSize]
    }

    package func unchangedPrefix(from start: Int, comparedWith other: Any, from otherStart: Int, limit: Int) -> Int {
        guard let other = other as? [Element] else { return 0 }
        return unchangedPrefix(from: start, comparedWith: other, from: otherStart, limit: limit)
    }

    private func unchangedPrefix(from start: Int, comparedWith other: [Element], from otherStart: Int, limit: Int) -> Int {
        let length = Swift.min(limit, count - start, other.count - otherStart)
        var found = 0
        while found < length {
            let index = start + found
            let chunkIndex = index / StateSnapshot.chunkSize
            let chunk = chunks[chunkIndex]
            let offset = index % StateSnapshot.chunkSize
            let run = Swift.min(chunk.elements.count - offset, length - found)
            // An element is first asked whether it still has the bytes copied: at the place it was copied
            // from, or moved there bitwise (an insertion or removal before it).
            var same = Self.sameBytes(chunk.bytes, offset, other, otherStart + found, run)
            if same < run {
                let equal = chunk.elements.unchangedPrefix(
                    from: offset + same, comparedWith: other, from: otherStart + found + same, limit: run - same, by: comparison)
                if equal > 0, start == otherStart { stale.insert(chunkIndex) }
                same += equal
            }
            found += same
            if same < run { break }
        }
        return found
    }

    /// How many of the `run` elements of `other` from `otherStart` on have
    /// the bytes `bytes` holds from element `offset` on, counted from the
    /// first, or (`fromEnd`) from the last.
    private static func sameBytes(
        _ bytes: [UInt8], _ offset: Int, _ other: [Element], _ otherStart: Int, _ run: Int, fromEnd: Bool = false
    ) -> Int {
        let size = MemoryLayout<Element>.size
        let stride = MemoryLayout<Element>.stride
        guard size > 0 else { return run }
        return bytes.withUnsafeBytes { kept in
            other.withUnsafeBytes { now in
                // `baseAddress!`: both hold at least `run` elements past the starts (`run` > 0 when called).
                let before = kept.baseAddress! + offset * stride
                let after = now.baseAddress! + otherStart * stride
                // The kept bytes are a copy of the array's own, padding and unused payload bytes too:
                // while its elements are still those copied, the whole run is one `memcmp`, padded or not.
                if memcmp(before, after, run * stride) == 0 { return run }
                var found = 0
                while found < run {
                    let index = fromEnd ? run - 1 - found : found
                    guard memcmp(before + index * stride, after + index * stride, size) == 0 else { break }
                    found += 1
                }
                return found
            }
        }
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
            let otherEnd = other.count - found
            // Elements moved bitwise (an insertion or removal before them) keep the bytes the chunk copied, padding too.
            var same = Self.sameBytes(chunk.bytes, offset + 1 - run, other, otherEnd - run, run, fromEnd: true)
            if same < run {
                same += chunk.elements.unchangedSuffix(
                    upTo: offset + 1 - same, comparedWith: other, upTo: otherEnd - same, limit: run - same, by: comparison)
            }
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
