/// What happened to an action the cluster processed.
public struct HistoryEntry: Sendable {
    /// How an action ended.
    public enum Outcome: Sendable {
        /// Every service that accepts it handled it.
        case handled
        /// A middleware (named by its type) replaced it with these actions.
        case redirected(by: String, to: [any Sendable])
        /// A middleware's `pre` or a service threw.
        case failed(any Error)
    }

    /// The action's number in the cluster's records (``ClusterRecord/Kind-swift.enum/sent(sequence:action:target:)``).
    public let sequence: UInt64
    /// The action sent.
    public let action: any Sendable
    /// How it ended.
    public let outcome: Outcome
}

/// The last actions of a cluster, oldest first; a ring buffer.
struct ActionHistory {

    let capacity: Int
    private var entries: [HistoryEntry] = []
    /// Where the next entry goes once the buffer is full.
    private var head = 0

    init(capacity: Int) {
        self.capacity = max(0, capacity)
        entries.reserveCapacity(min(self.capacity, 4_096))
    }

    mutating func record(_ entry: HistoryEntry) {
        guard capacity > 0 else { return }
        if entries.count < capacity {
            entries.append(entry)
        } else {
            entries[head] = entry
            head = (head + 1) % capacity
        }
    }

    var ordered: [HistoryEntry] { Array(entries[head...] + entries[..<head]) }

    mutating func clear() {
        entries.removeAll(keepingCapacity: true)
        head = 0
    }
}
