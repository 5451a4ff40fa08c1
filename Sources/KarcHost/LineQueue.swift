import Dispatch
import KarcAsync
import KarcSynchronization

/// Lines handed over by a producer (a thread reading a file, a connection)
/// to the one task that runs them, in batches: the consumer waits only
/// when it has taken every line there is. A producer on a thread of its own
/// (``appendWaiting(_:finished:)``) waits while the lines not taken yet hold
/// ``capacity`` bytes of memory, so a script of a million lines is held a
/// few MiB at a time.
package final class LineQueue: LineSource {
    private struct State {
        var lines: [String] = []
        var next = 0
        /// The memory the lines not taken yet hold (``cost(of:)``).
        var bytes = 0
        var isFinished = false
        var waiting: CheckedContinuation<Void, Never>?
        /// A producer blocked in ``appendWaiting(_:finished:)``.
        var producerWaits = false
        /// Nobody reads any more (``abandon()``): lines appended are dropped.
        var isAbandoned = false
    }

    private let state = KarcMutex(State())
    /// Wakes a producer blocked in ``appendWaiting(_:finished:)``.
    private let space = DispatchSemaphore(value: 0)
    /// How many bytes of memory the lines a blocking producer has waiting may hold.
    let capacity: Int

    /// What a line holds while it waits: its bytes, and about 64 more (its
    /// storage's header and the list's slot), which for a script of short
    /// lines is most of it. The attach protocol charges a line the same
    /// (`LineCredit.cost(of:)`).
    package static func cost(of line: String) -> Int {
        line.utf8.count + 64
    }

    package init(capacity: Int = 4 << 20) {
        self.capacity = capacity
    }

    /// Whether a producer is blocked in ``appendWaiting(_:finished:)``.
    package var producerIsWaiting: Bool {
        state.withLock { $0.producerWaits }
    }

    /// Whether ``next()`` would return without waiting.
    package var hasLineReady: Bool {
        state.withLock { $0.next < $0.lines.count || $0.isFinished }
    }

    /// The next line; nil once the queue is finished and empty.
    package func next() async -> String? {
        while true {
            let line = state.withLock { s -> String?? in
                if s.next < s.lines.count {
                    let line = s.lines[s.next]
                    s.next += 1
                    s.bytes -= Self.cost(of: line)
                    // The producer goes on once half the room is free (not after every line).
                    if s.producerWaits, s.bytes <= capacity / 2 {
                        s.producerWaits = false
                        space.signal()
                    }
                    return line
                }
                return s.isFinished ? .some(nil) : nil
            }
            if let line { return line }
            await withCheckedContinuation { continuation in
                let ready = state.withLock { s in
                    guard s.next >= s.lines.count, !s.isFinished else { return true }
                    s.waiting = continuation
                    return false
                }
                if ready { continuation.resume() }
            }
        }
    }

    /// Adds `batch`; with `finished`, nothing comes after it.
    package func append(_ batch: [String], finished: Bool = false) {
        update { s in
            guard !s.isAbandoned else { return }
            // Lines taken are dropped once there are enough of them to be worth moving the rest.
            if s.next > 0, s.next >= s.lines.count / 2 {
                s.lines.removeFirst(s.next)
                s.next = 0
            }
            s.lines += batch
            for line in batch { s.bytes += Self.cost(of: line) }
            if finished { s.isFinished = true }
        }
    }

    /// ``append(_:finished:)`` for a producer on a thread of its own: first
    /// blocks that thread while lines holding ``capacity`` bytes wait to be taken (or until
    /// the queue is abandoned).
    /// False once nobody reads any more: the producer can stop.
    @discardableResult
    package func appendWaiting(_ batch: [String], finished: Bool = false) -> Bool {
        let full = state.withLock { s in
            guard s.bytes >= capacity, !s.isAbandoned else { return false }
            s.producerWaits = true
            return true
        }
        if full { space.wait() }
        append(batch, finished: finished)
        return !state.withLock { $0.isAbandoned }
    }

    /// Nothing more comes.
    package func finish() {
        update { $0.isFinished = true }
    }

    /// Nothing more comes, and the lines not taken yet are dropped.
    package func abandon() {
        update { s in
            s.lines = []
            s.next = 0
            s.bytes = 0
            s.isFinished = true
            s.isAbandoned = true
            if s.producerWaits {
                s.producerWaits = false
                space.signal()
            }
        }
    }

    private func update(_ change: (inout State) -> Void) {
        let waiting = state.withLock { s in
            change(&s)
            defer { s.waiting = nil }
            return s.waiting
        }
        waiting?.resume()
    }
}
