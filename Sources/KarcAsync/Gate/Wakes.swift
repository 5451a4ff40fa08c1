/// Continuations to resume once a lock is released.
///
/// Resuming under the lock lets the woken task start on another core and
/// contend for the lock that is still held; measured on two cores, that made
/// a gate round trip ~10x slower. The first wake is stored inline, so the
/// common one-wake case allocates nothing.
struct Wakes<Input: Sendable, Output: Sendable> {
    enum Wake {
        case producer(UnsafeContinuation<Output, any Error>, Result<Output, any Error>)
        case consumer(UnsafeContinuation<Delivery<Input>?, any Error>, Result<Delivery<Input>?, any Error>)
        /// An inline run whose consumer was stopped (cancelling runs the track's handlers).
        case cancel(Task<Result<Output, any Error>, Never>)
    }

    private var first: Wake?
    private var rest: [Wake] = []

    init() {}

    mutating func add(_ wake: Wake) {
        if first == nil { first = wake } else { rest.append(wake) }
    }

    /// Resumes every collected continuation; call once.
    func run() {
        if let first { Self.perform(first) }
        for wake in rest { Self.perform(wake) }
    }

    private static func perform(_ wake: Wake) {
        switch wake {
        case .producer(let continuation, let result): continuation.resume(with: result)
        case .consumer(let continuation, let result): continuation.resume(with: result)
        case .cancel(let task): task.cancel()
        }
    }
}
