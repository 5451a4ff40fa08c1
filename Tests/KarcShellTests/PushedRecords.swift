import KarcAsync
import KarcLanguage
import KarcSession
import KarcSynchronization

/// A cluster whose records the test pushes one batch at a time, as an app's
/// work makes them, and which says each time the session waits for more
/// (`waits`): a test knows the session took a batch when it waits again.
final class PushedRecords: ShellCluster {
    struct Counter: Sendable, Equatable {
        var count: Int
    }

    private struct Queue {
        var records: [ShellRecord] = []
        var waiter: CheckedContinuation<[ShellRecord]?, Never>?
        var cancelled = false
    }

    private let queue = KarcMutex(Queue())
    private let waiting: AsyncStream<Void>.Continuation
    /// One element each time the session waits for records.
    let waits: AsyncStream<Void>

    init() {
        (waits, waiting) = AsyncStream<Void>.makeStream()
    }

    var name: String { "pushed" }
    var catalog: Catalog { Catalog(targets: [TargetSchema(name: "counter", kind: "store", commands: [])]) }
    func send(_ command: any Sendable, to target: String) async throws -> (any Sendable)? { nil }
    func settled(timeout: Duration) async -> Bool { true }
    func state(of target: String) async -> (any Sendable)? { nil }

    func takeRecords() -> [ShellRecord] {
        queue.withLock { queue in
            defer { queue.records = [] }
            return queue.records
        }
    }

    func nextRecords() async -> [ShellRecord]? {
        queue.withLock { $0.cancelled = false }
        waiting.yield()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: CheckedContinuation<[ShellRecord]?, Never>) in
                let ready = queue.withLock { queue -> [ShellRecord]? in
                    if queue.cancelled || !queue.records.isEmpty {
                        defer { queue.records = [] }
                        return queue.records
                    }
                    queue.waiter = waiter
                    return nil
                }
                if let ready { waiter.resume(returning: ready) }
            }
        } onCancel: {
            let waiter = queue.withLock { queue in
                queue.cancelled = true
                defer { queue.waiter = nil }
                return queue.waiter
            }
            waiter?.resume(returning: [])
        }
    }

    /// The app changed `counter` from `old` to `new`.
    func change(_ old: Int, to new: Int) {
        push([ShellRecord.stateChanged(target: "counter", old: Counter(count: old), new: Counter(count: new))])
    }

    /// What the app did, taken by the session in one batch.
    func push(_ records: [ShellRecord]) {
        let waiter = queue.withLock { queue in
            defer { queue.waiter = nil }
            if queue.waiter == nil { queue.records += records }
            return queue.waiter
        }
        waiter?.resume(returning: records)
    }
}
