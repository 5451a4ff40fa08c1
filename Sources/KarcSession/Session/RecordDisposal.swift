import Dispatch
import KarcAsync
import KarcSynchronization
import Synchronization

/// Where a session lets go of the records it has printed.
///
/// A record of a change holds the state before it, and after an append to
/// a list that state is a list of its own (the store's append copied it),
/// freed element by element when the record goes: for 10,000 elements, a
/// fifth of a command. Let go on a queue of its own, that work runs beside
/// the next command instead of before it. A backlog of more than a few
/// batches is freed where it is (memory stays bounded when the queue falls
/// behind). Nothing here is observable but the time: what is freed, and
/// when relative to the output, does not matter.
package final class RecordDisposal: Sendable {
    /// The process's: one utility queue for every session (``ShellRuntime``'s default).
    package static let shared = RecordDisposal()

    private let queue: DispatchQueue
    private let backlog = Atomic<Int>(0)
    private let limit: Int

    /// Records are let go on `queue` (a utility queue of its own unless given);
    /// past `limit` batches waiting there, by their caller.
    package init(limit: Int = 4, queue: DispatchQueue = DispatchQueue(label: "karc.session.disposal", qos: .utility)) {
        self.queue = queue
        self.limit = limit
    }

    /// Lets go of `records` and the changes folded from them, on the queue when it can.
    func drop(_ records: consuming [ShellRecord], _ changes: consuming [FoldedChanges]) {
        guard backlog.add(1, ordering: .relaxed).newValue <= limit else {
            backlog.subtract(1, ordering: .relaxed)
            return  // freed here, as the caller goes on
        }
        // The box is the only holder: what the closure takes out is the last reference, let go on the queue.
        let doomed = KarcMutex<([ShellRecord], [FoldedChanges])?>((records, changes))
        queue.async { [self] in
            _ = doomed.withLock { $0.take() }
            backlog.subtract(1, ordering: .relaxed)
        }
    }
}
