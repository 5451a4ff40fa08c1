import Dispatch
import KarcAsync
import Synchronization

/// Where a session lets go of the records it has printed.
///
/// A record of a change holds the state before it, and after an append to
/// a list that state is a list of its own (the store's append copied it),
/// freed element by element when the record goes: for 10,000 elements, a
/// fifth of a command. Let go on a thread of its own, that work runs beside
/// the next command instead of before it. A backlog of more than a few
/// batches is freed where it is (memory stays bounded when the thread falls
/// behind). Nothing here is observable but the time: what is freed and when
/// it is freed relative to the output does not matter.
enum RecordDisposal {
    private static let queue = DispatchQueue(label: "karc.session.disposal", qos: .utility)
    private static let backlog = Atomic<Int>(0)
    private static let limit = 4

    /// Lets go of `records` and the changes folded from them, elsewhere when it can.
    static func drop(_ records: consuming [ShellRecord], _ changes: consuming FoldedChanges) {
        guard backlog.add(1, ordering: .relaxed).newValue <= limit else {
            backlog.subtract(1, ordering: .relaxed)
            return  // freed here, as the caller goes on
        }
        // The box is the only holder: what the closure takes out is the last reference, let go on the queue.
        let doomed = KarcMutex<([ShellRecord], FoldedChanges)?>((records, changes))
        queue.async {
            _ = doomed.withLock { $0.take() }
            backlog.subtract(1, ordering: .relaxed)
        }
    }
}
