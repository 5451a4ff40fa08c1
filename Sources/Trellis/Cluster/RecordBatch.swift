import DequeModule

/// What an observer took: its records in order (after a `lost` record when
/// some were dropped), read out of the log's chunks as they are taken. A
/// record is moved out of a chunk that no one else holds any more (the
/// log let go of it and no other observer's batch holds it), and copied
/// out of the others.
package struct RecordBatch: Sequence, IteratorProtocol, Sendable {
    private var runs: Deque<RecordLog.Run>
    private var lost: Int
    private var chunk: RecordChunk?
    private var index = 0
    private var end = 0
    /// The records not taken yet.
    package private(set) var count: Int

    /// Records handed over whole (one observer), read before any run.
    private var whole: Deque<ClusterRecord> = []

    init(runs: Deque<RecordLog.Run>, lost: Int) {
        self.runs = runs
        self.lost = lost
        count = runs.reduce(lost > 0 ? 1 : 0) { $0 + $1.range.count }
    }

    init(whole: Deque<ClusterRecord>, lost: Int) {
        self.init(runs: [], lost: lost)
        self.whole = whole
        count += whole.count
    }

    /// No records.
    static var empty: RecordBatch { RecordBatch(runs: [], lost: 0) }

    package var isEmpty: Bool { count == 0 }

    /// The records handed over whole, after the `lost` record, taken out of the batch (read them first).
    mutating func takeWhole() -> Deque<ClusterRecord> {
        var taken: Deque<ClusterRecord> = []
        swap(&taken, &whole)
        if lost > 0 {
            taken.prepend(ClusterRecord(.lost(count: lost)))
            lost = 0
        }
        count -= taken.count
        return taken
    }

    package var underestimatedCount: Int { count }

    package mutating func next() -> ClusterRecord? {
        if lost > 0 {
            defer { lost = 0 }
            count -= 1
            return ClusterRecord(.lost(count: lost))
        }
        if let record = whole.popFirst() {
            count -= 1
            return record
        }
        while index == end {
            // The chunk read up to now is let go of before the next is looked at.
            chunk = nil
            guard let run = runs.popFirst() else { return nil }
            (chunk, index, end) = (run.chunk, run.range.lowerBound, run.range.upperBound)
        }
        count -= 1
        defer { index += 1 }
        // Checked at each record: a copy of this batch holds the chunk too (then both copy).
        if isKnownUniquelyReferenced(&chunk), let chunk {
            return chunk.move(at: index)
        }
        // `index < end` here, and a run's chunk is set with its range.
        return chunk.unsafelyUnwrapped[index]
    }
}
