import DequeModule
import KarcAsync
import KarcSynchronization
import Synchronization

/// The queue of a ``Dispatcher``: dispatched actions wait here and run one at
/// a time, first in first out.
///
/// A dispatcher keeps one as `let pipeline = Pipeline()`. It is a locked
/// reference, so ``Dispatcher/enqueue(_:)`` appends to it without waiting for
/// the dispatcher's actor.
public final class Pipeline: Sendable {
    /// A queued action, with the trace (`TraceCarrier`) of whoever queued it:
    /// it runs inside that trace, whichever task drains the queue.
    struct Job: Sendable {
        let run: @Sendable () async -> Void
        let carried: TraceCarrier?

        init(run: @escaping @Sendable () async -> Void) {
            self.run = run
            self.carried = TraceCarrier.ifAny
        }

        func callAsFunction() async {
            await TraceCarrier.run(carried) { await run() }
        }
    }

    struct State {
        var jobs: Deque<Job> = []
        var isActive = true
        /// Someone (an inline dispatch or the drainer task) owns running the queue.
        var isDispatching = false
        /// The task that owns it: a dispatch from that task would wait for itself.
        var runner: Int?
    }

    private let state = KarcMutex(State())

    /// An empty pipeline: actions pass through unchanged.
    public init() {}

    /// Actions waiting to run.
    public var count: Int { state.withLock { $0.jobs.count } }
    /// Whether the pipeline has no middleware.
    public var isEmpty: Bool { count == 0 }
    /// Whether queued actions run; see ``Dispatcher/deactivate()``.
    public var isActive: Bool { state.withLock { $0.isActive } }
    /// Whether an action dispatched through the pipeline is running.
    public var isDispatching: Bool { state.withLock { $0.isDispatching } }

    /// What a `dispatch` from `task` may do.
    enum Claim {
        /// Run the action now, in the calling task: the pipeline was active, idle and empty.
        case claimed
        /// Queue it behind the others.
        case busy
        /// `task` is running the pipeline's current action: waiting would wait for itself.
        case reentrant
    }

    /// Takes the right to run an action now when nothing runs or waits ahead of it.
    func claim(task: Int?) -> Claim {
        state.withLock { s in
            if s.isActive, !s.isDispatching, s.jobs.isEmpty {
                s.isDispatching = true
                s.runner = task
                return .claimed
            }
            if let task, s.runner == task { return .reentrant }
            return .busy
        }
    }

    /// Queues `job`; `true` when the caller must start a drainer.
    func append(_ job: Job) -> Bool {
        state.withLock { s in
            s.jobs.append(job)
            guard s.isActive, !s.isDispatching else { return false }
            s.isDispatching = true
            s.runner = nil
            return true
        }
    }

    /// Gives up the right to run (after an inline run); `true` when queued jobs
    /// need a drainer, which then keeps the right.
    func release() -> Bool {
        state.withLock { s in
            s.runner = nil
            if s.isActive, !s.jobs.isEmpty { return true }
            s.isDispatching = false
            return false
        }
    }

    /// The drainer's next job; `nil` (and the right given up) when there is none or the pipeline is inactive.
    func next(runner task: Int?) -> Job? {
        state.withLock { s in
            if s.isActive, let job = s.jobs.popFirst() {
                s.runner = task
                return job
            }
            s.isDispatching = false
            s.runner = nil
            return nil
        }
    }

    /// `true` when activating found queued jobs and nobody running them.
    func setActive(_ active: Bool) -> Bool {
        state.withLock { s in
            s.isActive = active
            guard active, !s.isDispatching, !s.jobs.isEmpty else { return false }
            s.isDispatching = true
            return true
        }
    }
}

/// Identifies the current task, to catch a dispatch that would wait for itself.
func currentTaskId() -> Int? {
    withUnsafeCurrentTask { $0?.hashValue }
}
