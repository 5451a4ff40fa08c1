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
        var batch: Deque<ClusterRecord> = []

        public mutating func next() async -> ClusterRecord? {
            if let record = batch.popFirst() { return record }
            guard let next = await subscription.hub.nextBatch(subscription.id) else { return nil }
            // Consumed, not copied: while `next` still held the storage, the
            // first `popFirst` copied the whole batch (copy-on-write).
            batch = consume next
            return batch.popFirst()
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
    private static func array(_ batch: Deque<ClusterRecord>) -> [ClusterRecord] {
        batch.isEmpty ? [] : Array(batch)
    }

    /// Waits for the next records (a batch, as iterating waits for one) and
    /// returns them, oldest first; nil when the task is cancelled or the
    /// cluster shut down and everything was read. For an observer that also
    /// takes with ``takeAvailable()``: records come out of one or the other.
    public func nextAvailable() async -> [ClusterRecord]? {
        await subscription.hub.nextBatch(subscription.id).map(Self.array)
    }

    /// ``takeAvailable()``, each record made into what `transform` makes of
    /// it in one pass: an observer that keeps records of
    /// its own copies each once.
    package func takeAvailable<T>(_ transform: (ClusterRecord) -> T) -> [T] {
        Self.map(subscription.hub.takeBuffered(subscription.id), transform)
    }

    /// ``nextAvailable()``, made into `transform`'s records as ``takeAvailable(_:)`` does.
    package func nextAvailable<T>(_ transform: (ClusterRecord) -> T) async -> [T]? {
        await subscription.hub.nextBatch(subscription.id).map { Self.map($0, transform) }
    }

    private static func map<T>(_ batch: Deque<ClusterRecord>, _ transform: (ClusterRecord) -> T) -> [T] {
        if batch.isEmpty { return [] }
        var made: [T] = []
        made.reserveCapacity(batch.count)
        for record in batch { made.append(transform(record)) }
        return made
    }

    /// Stops observing now (also happens when the sequence is released).
    public func cancel() { subscription.hub.unsubscribe(subscription.id) }
}
