import DequeModule

/// The records some observer of an ``ObservationHub`` has not taken, in
/// publication order, each kept once.
///
/// While one observer alone reads them they are a deque it is handed whole
/// (``takeLone(from:)``). From a second observer on they are kept in chunks
/// (``share()``) every observer reads: an observer takes what lies past its
/// cursor as references to chunks (``Run``) under the hub's lock, and reads
/// the records after releasing it (``RecordBatch``), moving them out of a
/// chunk no one else holds and copying them out of the others. So an
/// observer that takes seldom (a shell, every 20 ms) neither makes the
/// others copy their records nor holds the lock the sends publish with
/// while it copies its own; with one deque shared instead, a second
/// observer cost the app's sends 10–17% (docs/performance.md).
struct RecordLog {
    /// Records per chunk: a chunk is freed, whole, once every observer passed it.
    static let chunkSize = 64

    /// The chunks some observer has not passed, oldest first (while shared).
    private var chunks: Deque<RecordChunk> = []
    /// The records, while one observer alone reads them: handed over whole.
    private var lone: Deque<ClusterRecord> = []
    /// Whether the records are kept in chunks (two observers or more, or left by them).
    private(set) var isShared = false
    /// The sequence number of the first record of `chunks.first`.
    private(set) var base: UInt64 = 0
    /// The sequence number the next record gets.
    private(set) var head: UInt64 = 0

    var isEmpty: Bool { head == base }
    var count: Int { Int(head - base) }

    /// Appends `record`, moved out of the caller's variable, which is left
    /// holding ``ClusterRecord/vacant``. The publisher's closure under the
    /// lock only borrows the record, and a copy (its payloads' value
    /// witnesses, and a destroy of the original after) measured 7–12% of
    /// an observed send; `Deque.append` copies what it is given, so the
    /// slot is made vacant and the two swapped (bits moved).
    mutating func append(moving record: inout ClusterRecord) {
        guard isShared else {
            lone.append(.vacant)
            swap(&lone[lone.count - 1], &record)
            head += 1
            return
        }
        if chunks.last?.isFull ?? true { chunks.append(RecordChunk(start: head)) }
        // A chunk was just made if the last was full or missing.
        chunks[chunks.count - 1].append(moving: &record)
        head += 1
    }

    /// Keeps the records in chunks from now on (a second observer came).
    mutating func share() {
        guard !isShared else { return }
        isShared = true
        var held = lone
        lone = []
        head = base
        for index in held.indices { append(moving: &held[index]) }
    }

    /// Hands one observer the records whole again, once none is held.
    mutating func unshareIfEmpty() {
        if isShared, isEmpty { isShared = false }
    }

    /// Every record from `start` on, handed over (not shared: one observer).
    mutating func takeLone(from start: UInt64) -> Deque<ClusterRecord> {
        if start > base { lone.removeFirst(Int(start - base)) }
        var taken = Deque<ClusterRecord>(minimumCapacity: ObservationHub.wakeBatch)
        swap(&taken, &lone)
        base = head
        return taken
    }

    /// The records from sequence number `start` to the head, as the chunks that hold them.
    func runs(from start: UInt64) -> Deque<Run> {
        var runs = Deque<Run>()
        guard start < head else { return runs }
        let first = Int((start - base) / UInt64(Self.chunkSize))
        for index in first..<chunks.count {
            let chunk = chunks[index]
            let lower = start > chunk.start ? Int(start - chunk.start) : 0
            runs.append(Run(chunk: chunk, range: lower..<chunk.count))
        }
        return runs
    }

    /// Drops the chunks wholly below `oldest`, returned to be released
    /// outside the hub's lock (the last reference destroys their records).
    mutating func drop(below oldest: UInt64) -> [RecordChunk] {
        guard isShared else {
            let passed = Int(oldest - base)
            if passed > 0 {
                if passed == lone.count { lone.removeAll(keepingCapacity: true) } else { lone.removeFirst(passed) }
                base = oldest
            }
            return []
        }
        var dropped: [RecordChunk] = []
        while let first = chunks.first, first.isFull, first.start + UInt64(Self.chunkSize) <= oldest {
            dropped.append(chunks.removeFirst())
            base = first.start + UInt64(Self.chunkSize)
        }
        if chunks.isEmpty { base = head }
        if oldest == head, let last = chunks.last, !last.isFull {
            // Every observer took all: the part-filled chunk goes too (the next record starts a new one).
            dropped.append(chunks.removeLast())
            base = head
        }
        return dropped
    }

    /// Part of one chunk an observer took.
    struct Run: Sendable {
        let chunk: RecordChunk
        let range: Range<Int>
    }
}
