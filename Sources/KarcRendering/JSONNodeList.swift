/// The items of a JSON array node, in chunks that one tree shares with the
/// next: the tree of a 10,000-element array that changed at one place
/// copies the chunk of that place (at most ``chunkSize`` references), not
/// 10,000, and the patch between the two skips every shared chunk at once.
package struct JSONNodeList: Sequence {
    package typealias Node = JSONText.Node

    package static let chunkSize = 128

    /// A run of consecutive items. Once a tree is built its chunks are
    /// never changed: a later list copies the one it changes.
    package final class Chunk {
        package var nodes: [Node]
        package init(_ nodes: [Node]) { self.nodes = nodes }
    }

    private(set) var chunks: [Chunk] = []
    /// Where each chunk ends: the running count of items.
    private var ends: [Int] = []

    package init() {}

    package init(_ nodes: some Collection<Node>) {
        self.init()
        append(contentsOf: nodes)
    }

    package var count: Int { ends.last ?? 0 }
    package var isEmpty: Bool { count == 0 }

    package subscript(index: Int) -> Node {
        let chunk = chunkIndex(containing: index)
        return chunks[chunk].nodes[index - start(of: chunk)]
    }

    package mutating func append(_ node: Node) {
        // Filled in place while the list is being built and its last chunk is its own.
        if let last = chunks.indices.last, chunks[last].nodes.count < Self.chunkSize, isKnownUniquelyReferenced(&chunks[last]) {
            chunks[last].nodes.append(node)
            ends[last] += 1
        } else {
            chunks.append(Chunk([node]))
            ends.append(count + 1)
        }
    }

    package mutating func append(contentsOf nodes: some Collection<Node>) {
        for node in nodes { append(node) }
    }

    /// This list with `range` replaced by `nodes`: the chunks wholly
    /// outside `range` are this list's own, the one or two it cuts are copied.
    package func replacing(_ range: Range<Int>, with nodes: [Node]) -> JSONNodeList {
        guard !chunks.isEmpty else { return JSONNodeList(nodes) }
        // The chunks that hold the range's ends (the last one when an end is the end of the list).
        let first = range.lowerBound < count ? chunkIndex(containing: range.lowerBound) : chunks.count - 1
        let last = range.upperBound < count ? chunkIndex(containing: range.upperBound) : chunks.count - 1
        var result = JSONNodeList()
        result.chunks = Array(chunks[..<first])
        result.ends = Array(ends[..<first])
        let firstNodes = chunks[first].nodes
        let lastNodes = chunks[last].nodes
        result.append(contentsOf: firstNodes[..<(range.lowerBound - start(of: first))])
        result.append(contentsOf: nodes)
        result.append(contentsOf: lastNodes[Swift.min(range.upperBound - start(of: last), lastNodes.count)...])
        for chunk in chunks[(last + 1)...] {
            result.chunks.append(chunk)
            result.ends.append(result.count + chunk.nodes.count)
        }
        return result
    }

    /// How many items from the start the two lists have equal (`equal`),
    /// a shared chunk at a time where they share chunks.
    package static func commonPrefix(_ a: JSONNodeList, _ b: JSONNodeList, equal: (Node, Node) -> Bool) -> Int {
        var found = 0
        var chunkA = 0
        var chunkB = 0
        var offsetA = 0
        var offsetB = 0
        while chunkA < a.chunks.count, chunkB < b.chunks.count {
            let x = a.chunks[chunkA]
            let y = b.chunks[chunkB]
            if offsetA == 0, offsetB == 0, x === y {
                found += x.nodes.count
                chunkA += 1
                chunkB += 1
                continue
            }
            guard equal(x.nodes[offsetA], y.nodes[offsetB]) else { return found }
            found += 1
            offsetA += 1
            offsetB += 1
            if offsetA == x.nodes.count {
                chunkA += 1
                offsetA = 0
            }
            if offsetB == y.nodes.count {
                chunkB += 1
                offsetB = 0
            }
        }
        return found
    }

    /// How many items at the ends of the two lists are equal, at most `limit`, counted from the last.
    package static func commonSuffix(_ a: JSONNodeList, _ b: JSONNodeList, limit: Int, equal: (Node, Node) -> Bool) -> Int {
        var found = 0
        var chunkA = a.chunks.count - 1
        var chunkB = b.chunks.count - 1
        var offsetA = chunkA >= 0 ? a.chunks[chunkA].nodes.count : 0
        var offsetB = chunkB >= 0 ? b.chunks[chunkB].nodes.count : 0
        while found < limit, chunkA >= 0, chunkB >= 0 {
            let x = a.chunks[chunkA]
            let y = b.chunks[chunkB]
            if offsetA == x.nodes.count, offsetB == y.nodes.count, x === y, found + x.nodes.count <= limit {
                found += x.nodes.count
                chunkA -= 1
                chunkB -= 1
                offsetA = chunkA >= 0 ? a.chunks[chunkA].nodes.count : 0
                offsetB = chunkB >= 0 ? b.chunks[chunkB].nodes.count : 0
                continue
            }
            guard equal(x.nodes[offsetA - 1], y.nodes[offsetB - 1]) else { return found }
            found += 1
            offsetA -= 1
            offsetB -= 1
            if offsetA == 0 {
                chunkA -= 1
                offsetA = chunkA >= 0 ? a.chunks[chunkA].nodes.count : 0
            }
            if offsetB == 0 {
                chunkB -= 1
                offsetB = chunkB >= 0 ? b.chunks[chunkB].nodes.count : 0
            }
        }
        return found
    }

    package func makeIterator() -> some IteratorProtocol<Node> {
        chunks.lazy.flatMap(\.nodes).makeIterator()
    }

    private func start(of chunk: Int) -> Int {
        chunk == 0 ? 0 : ends[chunk - 1]
    }

    private func chunkIndex(containing index: Int) -> Int {
        var low = 0
        var high = ends.count - 1
        while low < high {
            let middle = (low + high) / 2
            if ends[middle] <= index { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
