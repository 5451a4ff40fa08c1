import DequeModule
import KarcAsync
import KarcSynchronization

/// Records the session took from the cluster and has not printed yet:
/// those a wait took after it had given up, and those taken while the
/// shell's output had no room (an attached shell that stopped reading).
///
/// Bounded, whatever the cluster does meanwhile: a target's state changes
/// fold into one (its first old state, its last new one: the diff the
/// session prints for them anyway), and past `limit` the oldest of the
/// other records (events, redirects, failures) are dropped and counted, to
/// be printed as one ``ShellRecord/Kind-swift.enum/lost(count:)`` first. So the cluster
/// keeps nothing for a session that stalls (the session takes its records
/// as they come), and the session keeps at most `limit` records and one
/// state change a target.
struct RecordBacklog {
    private var others: Deque<ShellRecord> = []
    /// What only tells a trace (a send began or ended): bounded apart, so it never crowds out what is printed.
    private var hops: Deque<ShellRecord> = []
    private var changes = FoldedChanges()
    private var dropped = 0
    let limit: Int

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    var isEmpty: Bool { others.isEmpty && hops.isEmpty && changes.all.isEmpty && dropped == 0 }

    mutating func append(contentsOf records: [ShellRecord]) {
        for record in records {
            switch record.kind {
            case .stateChanged(let target, let old, let new):
                changes.add(target: target, old: old, new: new, link: record.link, time: record.traceTime)
            case .stateReported(let target, let state):
                changes.add(target: target, old: nil, new: state, link: record.link, time: record.traceTime)
            case .lost(let count):
                dropped += count
            case let kind where kind.isHop:
                // A trace that loses hops here shows the sends it kept.
                if hops.count == limit { hops.removeFirst() }
                hops.append(record)
            default:
                if others.count == limit {
                    others.removeFirst()
                    dropped += 1
                }
                others.append(record)
            }
        }
    }

    /// What is held, oldest first (what was dropped counted first, each target's change last), and empties it.
    mutating func take() -> [ShellRecord] {
        guard !isEmpty else { return [] }
        var records: [ShellRecord] = []
        records.reserveCapacity(others.count + hops.count + changes.all.count + 1)
        if dropped > 0 { records.append(.lost(count: dropped)) }
        records.append(contentsOf: hops)
        records.append(contentsOf: others)
        records.append(contentsOf: changes.records)
        self = RecordBacklog(limit: limit)
        return records
    }
}

/// Changes of state folded into one a target: its first old state (nil
/// when the cluster kept none), its last new one (the diff the session
/// prints for them), in the order the targets first changed.
struct FoldedChanges: Sendable {
    /// Each target's change, with the span of the last record folded in (who made it).
    private(set) var all: [(target: String, old: (any Sendable)?, new: any Sendable, link: TraceLink?, time: TraceTime)] = []
    private var index: [String: Int] = [:]

    mutating func add(
        target: String, old: (any Sendable)?, new: any Sendable, link: TraceLink? = nil, time: TraceTime = .none
    ) {
        if let at = index[target] {
            all[at].new = new
            all[at].link = link
            all[at].time = time
        } else {
            index[target] = all.count
            all.append((target, old, new, link, time))
        }
    }

    /// Whether a change holds the state before it: freeing it frees what the change copied.
    var holdsOldStates: Bool { all.contains { $0.old != nil } }

    /// The folded changes as records again.
    var records: [ShellRecord] {
        all.map { change in
            let kind: ShellRecord.Kind =
                change.old.map { .stateChanged(target: change.target, old: $0, new: change.new) }
                ?? .stateReported(target: change.target, state: change.new)
            return ShellRecord(kind, link: change.link, traceTime: change.time)
        }
    }
}

/// A session's ``RecordBacklog``, shared with the waits that take records for it.
final class HeldRecords: Sendable {
    private let backlog: KarcMutex<RecordBacklog>

    init(limit: Int) {
        backlog = KarcMutex(RecordBacklog(limit: limit))
    }

    func append(_ records: [ShellRecord]) {
        guard !records.isEmpty else { return }
        backlog.withLock { $0.append(contentsOf: records) }
    }

    func take() -> [ShellRecord] {
        backlog.withLock { $0.take() }
    }
}
