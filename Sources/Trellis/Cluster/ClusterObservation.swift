import DequeModule

/// The records of one cluster, in the order they happened, from the moment
/// ``Cluster/observe(bufferSize:)`` was called. Ends when the cluster shuts down.
public struct ClusterObservation: AsyncSequence, Sendable {
    public typealias Element = ClusterRecord
    let subscription: Subscription

    final class Subscription: Sendable {
        let hub: ObservationHub
        let id: UInt64
        init(hub: ObservationHub, id: UInt64) {
            self.hub = hub
            self.id = id
        }
        deinit { hub.unsubscribe(id) }
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        let subscription: Subscription
        /// What one observer alone is handed: read as a deque.
        var whole: Deque<ClusterRecord> = []
        var batch: RecordBatch?

        public mutating func next() async -> ClusterRecord? {
            if let record = whole.popFirst() { return record }
            if let record = batch?.next() { return record }
            // The batch read is let go of first: a record is moved out of a chunk only one batch holds.
            batch = nil
            guard var next = await subscription.hub.nextBatch(subscription.id) else { return nil }
            whole = next.takeWhole()
            batch = consume next
            return whole.popFirst() ?? batch?.next()
        }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(subscription: subscription) }

    /// The records buffered so far, oldest first, without waiting (with a
    /// ``ClusterRecord/Kind-swift.enum/lost(count:)`` first when some were dropped). After
    /// ``Cluster/settled(timeout:)`` returns true, this is everything the
    /// settled work produced: records are buffered as they happen. Do not mix
    /// with iterating the same observation from another task.
    public func takeAvailable() -> [ClusterRecord] {
        Self.array(subscription.hub.takeBuffered(subscription.id))
    }

    /// A batch as an array; an empty one as `[]`, not copied: the standard
    /// library's copy of nothing writes a count into the shared empty-array
    /// storage, which ThreadSanitizer reports as a race between two observers.
    private static func array(_ batch: consuming RecordBatch) -> [ClusterRecord] {
        if batch.isEmpty { return [] }
        var records: [ClusterRecord] = []
        records.reserveCapacity(batch.count)
        // Read from the batch itself, not an iterator copied from it: its records move out, not copied.
        while let record = batch.next() { records.append(record) }
        return records
    }

    /// Waits for the next records (a batch, as iterating waits for one) and
    /// returns them, oldest first; nil when the task is cancelled or the
    /// cluster shut down and everything was read. For an observer that also
    /// takes with ``takeAvailable()``: records come out of one or the other.
    public func nextAvailable() async -> [ClusterRecord]? {
        guard let batch = await subscription.hub.nextBatch(subscription.id) else { return nil }
        return Self.array(consume batch)
    }

    /// ``takeAvailable()`` as the batch it is, for an observer that keeps
    /// records of its own to read each out once (moved where it can be).
    /// Not a generic `map`: a `package` generic is not specialized in the
    /// module that calls it, and its per-record copies went through value
    /// witnesses (docs/performance.md).
    package func takeBatch() -> RecordBatch {
        subscription.hub.takeBuffered(subscription.id)
    }

    /// ``nextAvailable()`` as the batch it is, as ``takeBatch()`` takes one.
    package func nextBatch() async -> RecordBatch? {
        await subscription.hub.nextBatch(subscription.id)
    }

    /// Stops observing now (also happens when the sequence is released).
    public func cancel() { subscription.hub.unsubscribe(subscription.id) }
}
