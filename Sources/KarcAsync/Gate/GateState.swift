import DequeModule
import Synchronization

/// A value waiting for, or travelling to, a consumer.
struct Supply<Input: Sendable>: Sendable {
    let ticket: UInt64
    let producerId: UInt64
    let input: Input
    /// The producer's trace, for a consumer in another task; `nil` on the inline path, which inherits it.
    var context: TraceCarrier? = nil
}

/// One attached consumer. A class, so the gate mutates it in place instead of
/// copying it out of the dictionary (which cost retains on every hop); it is
/// only ever touched with the gate's mutex held.
// Proof for @unchecked: every read and write of a `var` happens inside `Gate.locked`, under the
// gate's mutex; the one field read outside it, `finishedRuns`, is atomic.
final class ConsumerRecord<Input: Sendable, Output: Sendable>: @unchecked Sendable {
    /// The gate's key for this consumer.
    let token: UInt64
    let userId: UInt64
    let spec: Spec<Input>
    let instantOutput: Output?
    var isReady = false
    /// False once detached (an entry of the ready queue may outlive it).
    var isAttached = true
    var waiter: UnsafeContinuation<Delivery<Input>?, any Error>?
    var inbox: Deque<Delivery<Input>> = []
    /// Counts each delivery as work in flight until the consumer is done with it.
    var gauge: ActivityGauge?
    /// Answers a delivery in its producer's task while the consumer is parked (see `GateInline.swift`).
    var inline: InlineHandler<Input, Output>?
    /// Inline runs claimed so far; each run's number.
    var inlineRuns: UInt64 = 0
    /// The inline run going on now, if any (this consumer is then busy).
    var inlineRun: UInt64?
    /// That run's task, once its producer saw it suspend.
    var inlineTask: Task<Result<Output, any Error>, Never>?
    /// The number of the last inline run that ended; read without the lock by
    /// the producer, to skip keeping the task of a run that is already over.
    let finishedRuns = Atomic<UInt64>(0)
    /// Why the consumer must stop once its inline run is over.
    var stopPending: (any Error)?

    init(token: UInt64, userId: UInt64, spec: Spec<Input>, instantOutput: Output?) {
        self.token = token
        self.userId = userId
        self.spec = spec
        self.instantOutput = instantOutput
    }
}

struct ProducerRecord<Output: Sendable> {
    let continuation: UnsafeContinuation<Output, any Error>
    /// The value's dynamic type; turned into a name only when an error needs it.
    let inputType: Any.Type
    /// Replies still expected; `nil` while the value waits in the queue.
    var pending: Int?
    var outputs: [(consumer: UInt64, output: Output)] = []
}

/// Everything a gate guards with its mutex.
struct GateState<Input: Sendable, Output: Sendable> {
    var sealError: (any Error)?
    var consumers: [UInt64: ConsumerRecord<Input, Output>] = [:]
    /// Consumers that are ready, oldest first; entries of detached or busy consumers are skipped lazily.
    var readyQueue: Deque<ConsumerRecord<Input, Output>> = []
    var supplies: Deque<Supply<Input>> = []
    var producers: [UInt64: ProducerRecord<Output>] = [:]
    var nextToken: UInt64 = 1
    /// Attached consumers with an inline handler; when none, sends skip looking for one.
    var inlineConsumers = 0
    /// Tests waiting for the state to hold something (``Gate/until(_:)``).
    var watchers = StateWatchers()
}
