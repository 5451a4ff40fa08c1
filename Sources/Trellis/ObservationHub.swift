import DequeModule
import Synchronization

/// Fans the cluster's records out to its observers, in order.
///
/// Publishing never waits: each observer has a buffer of bounded size; when
/// it is full the oldest record is dropped and the observer is told how many
/// it lost (a ``ClusterRecord/lost(count:)`` record in their place).
final class ObservationHub: Sendable {
    /// A class mutated in place: a struct in the dictionary would be copied,
    /// buffer and all, on every publish.
    // Proof for @unchecked: only read and written inside `state.withLock`.
    final class Subscriber: @unchecked Sendable {
        let capacity: Int
        var buffer: Deque<ClusterRecord> = []
        var lost = 0
        var waiter: UnsafeContinuation<Deque<ClusterRecord>?, Never>?

        init(capacity: Int) { self.capacity = capacity }
    }

    struct State {
        var subscribers: [UInt64: Subscriber] = [:]
        var nextId: UInt64 = 1
        var isClosed = false
    }

    private let state = Mutex(State())
    /// Looks for records before an observer parks; see ``nextBatch(_:)``.
    static let polls = 4
    private let subscriberCount = Atomic<Int>(0)

    /// Cheap check that lets publishers skip building records nobody reads.
    var hasSubscribers: Bool { subscriberCount.load(ordering: .relaxed) > 0 }

    func publish(_ record: ClusterRecord) {
        guard hasSubscribers else { return }
        let woken = state.withLock { s -> [UnsafeContinuation<Deque<ClusterRecord>?, Never>] in
            var woken: [UnsafeContinuation<Deque<ClusterRecord>?, Never>] = []
            for subscriber in s.subscribers.values {
                // A waiting subscriber has an empty buffer: this record is its whole batch.
                if let waiter = subscriber.waiter.take() {
                    woken.append(waiter)
                } else {
                    subscriber.append(record)
                }
            }
            return woken
        }
        for waiter in woken { waiter.resume(returning: [record]) }
    }

    func subscribe(capacity: Int) -> UInt64 {
        state.withLock { s in
            let id = s.nextId
            s.nextId += 1
            if !s.isClosed {
                s.subscribers[id] = Subscriber(capacity: max(1, capacity))
                subscriberCount.add(1, ordering: .relaxed)
            }
            return id
        }
    }

    func unsubscribe(_ id: UInt64) {
        let waiter = state.withLock { s -> UnsafeContinuation<Deque<ClusterRecord>?, Never>? in
            guard let subscriber = s.subscribers.removeValue(forKey: id) else { return nil }
            subscriberCount.subtract(1, ordering: .relaxed)
            return subscriber.waiter.take()
        }
        waiter?.resume(returning: nil)
    }

    /// Ends every observer once it has read what is buffered.
    func close() {
        let waiters = state.withLock { s -> [UnsafeContinuation<Deque<ClusterRecord>?, Never>] in
            s.isClosed = true
            return s.subscribers.values.compactMap { $0.waiter.take() }
        }
        for waiter in waiters { waiter.resume(returning: nil) }
    }

    /// Everything buffered for `id` now, without waiting (empty when nothing is).
    func takeBuffered(_ id: UInt64) -> Deque<ClusterRecord> {
        state.withLock { s in s.subscribers[id]?.takeAll() } ?? []
    }

    /// Everything buffered for `id` (with a `lost` record first when some were
    /// dropped), waiting for at least one record; `nil` once the hub closed or
    /// the subscription ended. Taking a batch keeps a fast observer from
    /// contending for the lock on every record.
    func nextBatch(_ id: UInt64) async -> Deque<ClusterRecord>? {
        // A busy cluster publishes again within microseconds: looking a few
        // times before parking saves the publisher a futex wake per record.
        for _ in 0..<Self.polls {
            await Task.yield()
            let ready = state.withLock { s -> Deque<ClusterRecord>?? in
                guard let subscriber = s.subscribers[id] else { return .some(nil) }
                if let batch = subscriber.takeAll() { return .some(batch) }
                return s.isClosed ? .some(nil) : .none
            }
            if let ready { return ready }
        }
        return await withTaskCancellationHandler {
            await withUnsafeContinuation { continuation in
                let immediate = state.withLock { s -> Deque<ClusterRecord>?? in
                    guard let subscriber = s.subscribers[id] else { return .some(nil) }
                    if let batch = subscriber.takeAll() { return .some(batch) }
                    if s.isClosed || Task.isCancelled { return .some(nil) }
                    subscriber.waiter = continuation
                    return .none
                }
                if case .some(let batch) = immediate { continuation.resume(returning: batch) }
            }
        } onCancel: {
            state.withLock { s in s.subscribers[id]?.waiter.take() }?.resume(returning: nil)
        }
    }
}

extension ObservationHub.Subscriber {
    func append(_ record: ClusterRecord) {
        if buffer.count >= capacity {
            buffer.removeFirst()
            lost += 1
        }
        buffer.append(record)
    }

    func takeAll() -> Deque<ClusterRecord>? {
        if buffer.isEmpty && lost == 0 { return nil }
        var batch = buffer
        buffer = []
        if lost > 0 {
            batch.prepend(.lost(count: lost))
            lost = 0
        }
        return batch
    }
}

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
    /// ``ClusterRecord/lost(count:)`` first when some were dropped). After
    /// ``Cluster/settled(timeout:)`` returns true, this is everything the
    /// settled work produced: records are buffered as they happen. Do not mix
    /// with iterating the same observation from another task.
    public func takeAvailable() -> [ClusterRecord] {
        Array(subscription.hub.takeBuffered(subscription.id))
    }

    /// Stops observing now (also happens when the sequence is released).
    public func cancel() { subscription.hub.unsubscribe(subscription.id) }
}
