import DequeModule

/// A value waiting for, or travelling to, a consumer.
struct Supply<Input: Sendable>: Sendable {
    let ticket: UInt64
    let producerId: UInt64
    let input: Input
}

struct ConsumerRecord<Input: Sendable, Output: Sendable> {
    let userId: UInt64
    let spec: Spec<Input>
    let instantOutput: Output?
    var isReady = false
    var waiter: UnsafeContinuation<Delivery<Input>?, any Error>?
    var inbox: Deque<Delivery<Input>> = []
}

struct ProducerRecord<Output: Sendable> {
    let continuation: UnsafeContinuation<Output, any Error>
    let inputType: String
    /// Replies still expected; `nil` while the value waits in the queue.
    var pending: Int?
    var outputs: [(consumer: UInt64, output: Output)] = []
}

/// Everything a gate guards with its mutex.
struct GateState<Input: Sendable, Output: Sendable> {
    var sealError: (any Error)?
    var consumers: [UInt64: ConsumerRecord<Input, Output>] = [:]
    /// Consumers that are ready, oldest first; entries of detached or busy consumers are skipped lazily.
    var readyQueue: Deque<UInt64> = []
    var supplies: Deque<Supply<Input>> = []
    var producers: [UInt64: ProducerRecord<Output>] = [:]
    var nextToken: UInt64 = 1
}
