import DequeModule
import KarcAsync
import KarcSynchronization
import Synchronization

/// Fans the cluster's records out to its observers, in order.
///
/// One log (``RecordLog``), a cursor per observer: a record is kept once,
/// whatever the number of observers, and each takes what lies past its
/// cursor, one observer alone by being handed the log whole, several by
/// reading the chunks they share. Publishing never waits: an observer is at
/// most its buffer's size behind; past that its cursor skips the oldest
/// records and it is told how many it lost (a
/// ``ClusterRecord/Kind-swift.enum/lost(count:)`` record in their place). So an observer
/// that stopped reading (an attached shell that stalled) costs a publish a
/// counter, not a copy of every record. The log keeps what the slowest
/// observer has not taken.
///
/// An observer gets its records in batches, not one by one: at once when
/// ``wakeBatch`` records (at most half its buffer) are buffered for it (or some were lost, or the hub
/// closed), else once that many have come or the wake delay
/// (``defaultWakeDelay``) has passed since the first, whichever is first.
/// Waking a task on the other core for every record made publishing (and the
/// send that publishes) several times slower, and an observer that took what
/// was there went in lockstep with the publisher, contending for the lock on
/// every record. ``takeBuffered(_:)`` never waits.
package final class ObservationHub: Sendable {
    /// An observer's place in the log. A class mutated in place, inside the hub's lock.
    // Proof for @unchecked: only read and written inside `state.withLock`.
    final class Subscriber: @unchecked Sendable {
        let id: UInt64
        let capacity: Int
        /// Whether it wants the state before each change (``OldStateDemand``).
        var keepsOldStates = true
        /// Whether it wants each record's trace link and time.
        var traces = false
        /// Whether it wants each record's trace root, at least (`TraceLink.isRootOnly`).
        var roots = false
        /// Records that make a batch for this observer: ``wakeBatch``, or half
        /// its buffer when that is smaller, so a small buffer does not overflow
        /// while its observer waits for the delay.
        let batchSize: Int
        /// The sequence number of the next record it takes.
        var cursor: UInt64
        var lost = 0
        /// Resumed with true when its records are ready to take, false at its end.
        var waiter: UnsafeContinuation<Bool, Never>?
        /// A delayed wake is armed for the waiter.
        var wakeArmed = false

        init(id: UInt64, capacity: Int, cursor: UInt64, batch: Int) {
            self.id = id
            self.capacity = capacity
            self.cursor = cursor
            self.batchSize = max(1, min(batch, capacity / 2))
        }
    }

    struct State {
        /// The records some observer has not taken, oldest first.
        var log = RecordLog()
        /// In subscription order; publishing walks them all.
        var subscribers: [Subscriber] = []
        var nextId: UInt64 = 1
        var isClosed = false
        /// Tests waiting for a subscriber to wait for its next batch (``untilWaiting(_:)``), checked as one does.
        var watchers = StateWatchers()

        /// The sequence number the next record gets.
        var head: UInt64 { log.head }

        func subscriber(_ id: UInt64) -> Subscriber? { subscribers.first { $0.id == id } }

        /// Records waiting for `subscriber`.
        func pending(_ subscriber: Subscriber) -> Int { Int(head - subscriber.cursor) }

        /// What lies past `subscriber`'s cursor (after a `lost` record when
        /// some were skipped), taken; nil when there is nothing. The chunks
        /// the log lets go of go to `dropped`, to be released outside the
        /// lock, before the batch is read (so the batch can move records out).
        mutating func take(_ subscriber: Subscriber, dropping dropped: inout [RecordChunk]) -> RecordBatch? {
            if pending(subscriber) == 0 && subscriber.lost == 0 { return nil }
            // One observer alone is handed its records whole; several read the chunks they share.
            let batch =
                log.isShared
                ? RecordBatch(runs: log.runs(from: subscriber.cursor), lost: subscriber.lost)
                : RecordBatch(whole: log.takeLone(from: subscriber.cursor), lost: subscriber.lost)
            subscriber.lost = 0
            subscriber.cursor = head
            if log.isShared { dropped = trim() }
            return batch
        }

        /// Drops the chunks every observer has passed; they are released
        /// (their records destroyed) by the caller, outside the lock.
        mutating func trim() -> [RecordChunk] {
            let dropped = log.drop(below: subscribers.reduce(head) { min($0, $1.cursor) })
            if subscribers.count <= 1 { log.unshareIfEmpty() }
            return dropped
        }
    }

    /// Records that wake a waiting observer at once.
    static let wakeBatch = 256
    /// The longest a waiting observer waits for a record that was published.
    static let defaultWakeDelay = Duration.microseconds(200)

    let state = KarcMutex(State())
    private let subscriberCount = Atomic<Int>(0)
    private let tracingCount = Atomic<Int>(0)
    /// Observers that want links: those that trace and those that want roots.
    private let linkingCount = Atomic<Int>(0)
    private let clock: any Alarms
    private let wakeDelay: Duration

    /// The cluster's sends are spans of an app's tracer: records carry links whoever observes.
    private let tracerSet: Bool

    init(clock: any Alarms = AlarmClock.shared, wakeDelay: Duration = ObservationHub.defaultWakeDelay, tracerSet: Bool = false) {
        self.clock = clock
        self.wakeDelay = wakeDelay
        self.tracerSet = tracerSet
    }

    /// Whether state reports must carry the state before the change.
    package let oldStates = OldStateDemand()

    /// Cheap check that lets publishers skip building records nobody reads.
    package var hasSubscribers: Bool { subscriberCount.load(ordering: .relaxed) > 0 }

    /// Whether an observer wants traces: only then is every send a span of
    /// its own (its link bound, a link and a time on each record).
    package var wantsTraces: Bool { tracingCount.load(ordering: .relaxed) > 0 }

    /// Whether an observer wants links, full or a root's: only then does a
    /// root make one (`TraceLink.isRootOnly` unless ``wantsTraces``).
    package var wantsLinks: Bool { linkingCount.load(ordering: .relaxed) > 0 }

    /// Publishes what happened as the work running now did it (its trace link is the current one).
    package func publish(_ kind: consuming ClusterRecord.Kind) {
        guard hasSubscribers else { return }
        // The task-local is read only when links are made: a plain observer's record costs what it did.
        guard wantsLinks || tracerSet else { return publish(ClusterRecord(kind)) }
        // With an app's tracer, a context the app carried itself holds the link.
        publish(ClusterRecord(kind, by: tracerSet ? TraceLink.currentOrCarried : TraceLink.current))
    }

    /// Publishes what happened as the work of `link`, a link not bound in
    /// the task (a store's handler is given it), else as ``publish(_:)-(ClusterRecord.Kind)``.
    func publish(_ kind: consuming ClusterRecord.Kind, unbound link: TraceLink?) {
        guard let link else { return publish(kind) }
        publish(ClusterRecord(kind, by: link))
    }

    package func publish(_ record: consuming ClusterRecord) {
        guard hasSubscribers else { return }
        var wakes = BatchWakes()
        let dropped = state.withLock { s -> [RecordChunk] in
            s.log.append(moving: &record)
            var skipped = false
            for subscriber in s.subscribers {
                var pending = s.pending(subscriber)
                if pending > subscriber.capacity {
                    // Too far behind: the oldest record it has not taken is dropped for it.
                    subscriber.cursor += 1
                    subscriber.lost += 1
                    pending -= 1
                    skipped = true
                }
                guard subscriber.waiter != nil else { continue }
                if pending >= subscriber.batchSize {
                    wakes.resume(subscriber)
                } else if !subscriber.wakeArmed {
                    subscriber.wakeArmed = true
                    wakes.arm(subscriber.id)
                }
            }
            return skipped ? s.trim() : []
        }
        // The chunks a skipping observer passed are destroyed here, after the lock.
        _ = consume dropped
        for id in wakes.toArm { armWake(id) }
        wakes.run()
    }

    /// The delayed wake: a waiting observer takes what is buffered.
    private func wake(_ id: UInt64) {
        var wakes = BatchWakes()
        state.withLock { s in
            guard let subscriber = s.subscriber(id) else { return }
            subscriber.wakeArmed = false
            wakes.resume(subscriber)
        }
        wakes.run()
    }

    /// A new observer; `roots`: it wants each record's trace root (a shell
    /// saying who made a change), `tracing`: its full link and time;
    /// `batch`: records that wake it at once (``wakeBatch`` unless it asks
    /// for more, at most half its capacity).
    func subscribe(
        capacity: Int, keepingOldStates: Bool = true, tracing: Bool = false, roots: Bool = false, batch: Int = ObservationHub.wakeBatch
    ) -> UInt64 {
        state.withLock { s in
            let id = s.nextId
            s.nextId += 1
            if !s.isClosed {
                let subscriber = Subscriber(id: id, capacity: max(1, capacity), cursor: s.head, batch: batch)
                subscriber.keepsOldStates = keepingOldStates
                subscriber.traces = tracing
                subscriber.roots = roots || tracing
                s.subscribers.append(subscriber)
                // Two observers read the records from shared chunks.
                if s.subscribers.count > 1 { s.log.share() }
                oldStates.subscribed(keepingOldStates: keepingOldStates)
                subscriberCount.add(1, ordering: .relaxed)
                if tracing { tracingCount.add(1, ordering: .relaxed) }
                if subscriber.roots { linkingCount.add(1, ordering: .relaxed) }
            }
            return id
        }
    }

    func unsubscribe(_ id: UInt64) {
        var watchers: [UnsafeContinuation<Void, Never>] = []
        var dropped: [RecordChunk] = []
        let waiter = state.withLock { s -> UnsafeContinuation<Bool, Never>? in
            guard let index = s.subscribers.firstIndex(where: { $0.id == id }) else { return nil }
            let subscriber = s.subscribers.remove(at: index)
            oldStates.unsubscribed(keepingOldStates: subscriber.keepsOldStates)
            subscriberCount.subtract(1, ordering: .relaxed)
            if subscriber.traces { tracingCount.subtract(1, ordering: .relaxed) }
            if subscriber.roots { linkingCount.subtract(1, ordering: .relaxed) }
            // The slowest observer leaving may free what the hub held (``untilNothingHeld()``).
            dropped = s.trim()
            if !s.watchers.isEmpty { watchers = StateWatchers.satisfied(in: &s, \.watchers) }
            return subscriber.waiter.take()
        }
        dropped.removeAll()
        for watcher in watchers { watcher.resume() }
        waiter?.resume(returning: false)
    }

    /// Ends every observer once it has read what is buffered.
    func close() {
        var wakes = BatchWakes()
        var ended: [UnsafeContinuation<Bool, Never>] = []
        state.withLock { s in
            s.isClosed = true
            for subscriber in s.subscribers where subscriber.waiter != nil {
                // A waiter may have records pending its delayed wake: those first, then the end.
                if s.pending(subscriber) == 0 && subscriber.lost == 0, let waiter = subscriber.waiter.take() {
                    ended.append(waiter)
                } else {
                    wakes.resume(subscriber)
                }
            }
        }
        wakes.run()
        for waiter in ended { waiter.resume(returning: false) }
    }

    /// The records some observer has not taken yet: what the slowest observer costs the app's memory.
    package var heldRecords: Int { state.withLock { $0.log.count } }

    /// Whether the observer `id` waits in ``nextBatch(_:)`` (for tests).
    func isWaiting(_ id: UInt64) -> Bool {
        state.withLock { $0.subscriber(id)?.waiter != nil }
    }

    /// Everything buffered for `id` now, without waiting (empty when nothing is).
    func takeBuffered(_ id: UInt64) -> RecordBatch {
        var watchers: [UnsafeContinuation<Void, Never>] = []
        var dropped: [RecordChunk] = []
        let taken = state.withLock { s in
            let taken = s.subscriber(id).flatMap { s.take($0, dropping: &dropped) }
            if !s.watchers.isEmpty { watchers = StateWatchers.satisfied(in: &s, \.watchers) }
            return taken
        }
        dropped.removeAll()
        for watcher in watchers { watcher.resume() }
        return taken ?? .empty
    }

    /// Everything buffered for `id` (with a `lost` record first when some were
    /// dropped), waiting for a batch as the type describes; `nil` once the hub
    /// closed and the buffer is read, or the subscription ended.
    ///
    /// A publisher that completes a batch only resumes the waiter; the waiter
    /// takes (copies, when other observers still need the records) on its own
    /// thread, so the sends that publish do not pay for it.
    func nextBatch(_ id: UInt64) async -> RecordBatch? {
        while true {
            let woken = await withTaskCancellationHandler {
                await withUnsafeContinuation { continuation in
                    var watchers: [UnsafeContinuation<Void, Never>] = []
                    let (now, arm) = state.withLock { s -> (Bool?, Bool) in
                        guard let subscriber = s.subscriber(id) else { return (false, false) }
                        // A full batch, a loss or the end is taken at once; a few records wait
                        // for more, as for a woken observer: taking them one by one would put
                        // the observer in lockstep with the publishers.
                        if s.isClosed || subscriber.lost > 0 || s.pending(subscriber) >= subscriber.batchSize { return (true, false) }
                        if Task.isCancelled { return (false, false) }
                        subscriber.waiter = continuation
                        if !s.watchers.isEmpty { watchers = StateWatchers.satisfied(in: &s, \.watchers) }
                        guard s.pending(subscriber) > 0, !subscriber.wakeArmed else { return (nil, false) }
                        subscriber.wakeArmed = true
                        return (nil, true)
                    }
                    for watcher in watchers { watcher.resume() }
                    if arm { armWake(id) }
                    if let now { continuation.resume(returning: now) }
                }
            } onCancel: {
                state.withLock { s in s.subscriber(id)?.waiter.take() }?.resume(returning: false)
            }
            guard woken else { return nil }
            var watchers: [UnsafeContinuation<Void, Never>] = []
            var dropped: [RecordChunk] = []
            let taken = state.withLock { s -> (batch: RecordBatch?, ended: Bool) in
                guard let subscriber = s.subscriber(id) else { return (nil, true) }
                let batch = s.take(subscriber, dropping: &dropped)
                if !s.watchers.isEmpty { watchers = StateWatchers.satisfied(in: &s, \.watchers) }
                return (batch, s.isClosed)
            }
            dropped.removeAll()
            for watcher in watchers { watcher.resume() }
            if let batch = taken.batch { return batch }
            if taken.ended { return nil }
        }
    }

    private func armWake(_ id: UInt64) {
        _ = clock.arm(after: wakeDelay) { [weak self] in self?.wake(id) }
    }
}

/// The waiters a publish (or a wake) resumes once the hub's lock is
/// released (each then takes its batch), and the delayed wakes it must arm.
private struct BatchWakes {
    private var resumes: [UnsafeContinuation<Bool, Never>] = []
    private(set) var toArm: [UInt64] = []

    mutating func resume(_ subscriber: ObservationHub.Subscriber) {
        guard let waiter = subscriber.waiter.take() else { return }
        resumes.append(waiter)
    }

    mutating func arm(_ id: UInt64) { toArm.append(id) }

    func run() {
        for waiter in resumes { waiter.resume(returning: true) }
    }
}
