import DequeModule
import Synchronization

/// Fans the cluster's records out to its observers, in order.
///
/// Publishing never waits: each observer has a buffer of bounded size; when
/// it is full the oldest record is dropped and the observer is told how many
/// it lost (a ``ClusterRecord/lost(count:)`` record in their place).
final class ObservationHub: Sendable {
    struct Subscriber {
        let capacity: Int
        var buffer: Deque<ClusterRecord> = []
        var lost = 0
        var waiter: UnsafeContinuation<ClusterRecord?, Never>?
    }

    struct State {
        var subscribers: [UInt64: Subscriber] = [:]
        var nextId: UInt64 = 1
        var isClosed = false
    }

    private let state = Mutex(State())
    private let subscriberCount = Atomic<Int>(0)

    /// Cheap check that lets publishers skip building records nobody reads.
    var hasSubscribers: Bool { subscriberCount.load(ordering: .relaxed) > 0 }

    func publish(_ record: ClusterRecord) {
        guard hasSubscribers else { return }
        let woken = state.withLock { s -> [(UnsafeContinuation<ClusterRecord?, Never>, ClusterRecord)] in
            var woken: [(UnsafeContinuation<ClusterRecord?, Never>, ClusterRecord)] = []
            for id in s.subscribers.keys {
                if let waiter = s.subscribers[id]?.waiter.take() {
                    woken.append((waiter, record))
                    continue
                }
                s.subscribers[id]?.append(record)
            }
            return woken
        }
        for (waiter, record) in woken { waiter.resume(returning: record) }
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
        let waiter = state.withLock { s -> UnsafeContinuation<ClusterRecord?, Never>? in
            guard let subscriber = s.subscribers.removeValue(forKey: id) else { return nil }
            subscriberCount.subtract(1, ordering: .relaxed)
            return subscriber.waiter
        }
        waiter?.resume(returning: nil)
    }

    /// Ends every observer once it has read what is buffered.
    func close() {
        let waiters = state.withLock { s -> [UnsafeContinuation<ClusterRecord?, Never>] in
            s.isClosed = true
            return s.subscribers.keys.compactMap { s.subscribers[$0]?.waiter.take() }
        }
        for waiter in waiters { waiter.resume(returning: nil) }
    }

    func next(_ id: UInt64) async -> ClusterRecord? {
        await withTaskCancellationHandler {
            await withUnsafeContinuation { continuation in
                let immediate = state.withLock { s -> ClusterRecord?? in
                    guard s.subscribers[id] != nil else { return .some(nil) }
                    if let record = s.subscribers[id]?.take() { return .some(record) }
                    if s.isClosed || Task.isCancelled { return .some(nil) }
                    s.subscribers[id]?.waiter = continuation
                    return .none
                }
                if case .some(let record) = immediate { continuation.resume(returning: record) }
            }
        } onCancel: {
            state.withLock { s in s.subscribers[id]?.waiter.take() }?.resume(returning: nil)
        }
    }
}

extension ObservationHub.Subscriber {
    mutating func append(_ record: ClusterRecord) {
        if buffer.count >= capacity {
            buffer.removeFirst()
            lost += 1
        }
        buffer.append(record)
    }

    mutating func take() -> ClusterRecord? {
        if lost > 0 {
            defer { lost = 0 }
            return .lost(count: lost)
        }
        return buffer.popFirst()
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
        public mutating func next() async -> ClusterRecord? {
            await subscription.hub.next(subscription.id)
        }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(subscription: subscription) }

    /// Stops observing now (also happens when the sequence is released).
    public func cancel() { subscription.hub.unsubscribe(subscription.id) }
}
