import DequeModule
import KarcAsync
import KarcSynchronization

/// Work run one job at a time, in the order it was added, by a task started
/// when the queue fills and ending when it empties: what keeps callback
/// sends (``Cluster/send(action:completion:)``) in the order of the calls.
final class SerialJobs: Sendable {
    private struct Queue: Sendable {
        var jobs: Deque<@Sendable () async -> Void> = []
        var draining = false
    }

    private let queue = KarcMutex(Queue())

    func append(_ job: @escaping @Sendable () async -> Void) {
        let start = queue.withLock { q in
            q.jobs.append(job)
            defer { q.draining = true }
            return !q.draining
        }
        // Each job brings its own trace; the queue's task is in none.
        if start { Task { await TraceCarrier.none.run { await drain() } } }
    }

    private func drain() async {
        while let job = queue.withLock({ q -> (@Sendable () async -> Void)? in
            guard let job = q.jobs.popFirst() else {
                q.draining = false
                return nil
            }
            return job
        }) {
            await job()
        }
    }
}
