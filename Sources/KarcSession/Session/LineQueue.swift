import KarcAsync

/// Lines handed over by a producer (a thread reading a file, a connection)
/// to the one task that runs them, in batches: the consumer waits only
/// when it has taken every line there is.
package final class LineQueue: LineSource {
    private struct State {
        var lines: [String] = []
        var next = 0
        var isFinished = false
        var waiting: CheckedContinuation<Void, Never>?
    }

    private let state = KarcMutex(State())

    package init() {}

    /// Whether ``next()`` would return without waiting.
    package var hasLineReady: Bool {
        state.withLock { $0.next < $0.lines.count || $0.isFinished }
    }

    /// The next line; nil once the queue is finished and empty.
    package func next() async -> String? {
        while true {
            let line = state.withLock { s -> String?? in
                if s.next < s.lines.count {
                    defer { s.next += 1 }
                    return s.lines[s.next]
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
            // Lines taken are dropped once there are enough of them to be worth moving the rest.
            if s.next > 0, s.next >= s.lines.count / 2 {
                s.lines.removeFirst(s.next)
                s.next = 0
            }
            s.lines += batch
            if finished { s.isFinished = true }
        }
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
            s.isFinished = true
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
