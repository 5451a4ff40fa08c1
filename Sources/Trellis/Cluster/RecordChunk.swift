/// Up to ``RecordLog/chunkSize`` records, each written once.
// Proof for @unchecked: a slot is initialized once, by the publisher under
// the hub's lock, before `count` passes it, and never written again while
// shared; an observer reads only slots below a `count` it read under that
// lock (the lock orders the write before the read). `move(at:)` and
// `deinit` run only when nothing else holds the chunk.
final class RecordChunk: @unchecked Sendable {
    let start: UInt64
    private let slots = UnsafeMutablePointer<ClusterRecord>.allocate(capacity: RecordLog.chunkSize)
    /// Slots from `first` to `count` are initialized: written below `count`, moved out below `first`.
    private(set) var count = 0
    private var first = 0

    init(start: UInt64) { self.start = start }

    deinit {
        (slots + first).deinitialize(count: count - first)
        slots.deallocate()
    }

    var isFull: Bool { count == RecordLog.chunkSize }

    /// Under the hub's lock: `record` moved in, ``ClusterRecord/vacant`` left in its place.
    func append(moving record: inout ClusterRecord) {
        withUnsafeMutablePointer(to: &record) { source in
            (slots + count).moveInitialize(from: source, count: 1)
            source.initialize(to: .vacant)
        }
        count += 1
    }

    /// A copy of the record at `index`, which is below a `count` read under the hub's lock.
    subscript(index: Int) -> ClusterRecord { slots[index] }

    /// The record at `index`, moved out, and those before it it still
    /// held destroyed: for the chunk's only holder, reading in order.
    func move(at index: Int) -> ClusterRecord {
        assert(first <= index, "a record moved out of a chunk is read again")
        (slots + first).deinitialize(count: index - first)
        first = index + 1
        return (slots + index).move()
    }
}
