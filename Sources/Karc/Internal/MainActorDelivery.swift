import KarcSynchronization

/// The states of one model on their way to its ``MainActorObserver``
/// domain: queued in order under the model's lock, observed one by one on
/// the main actor, each numbered by the model's state version so a sender
/// can wait until the state it made was observed.
final class MainActorDelivery<State: Sendable>: Sendable {
    private struct Progress: Sendable {
        var delivered: UInt64?
        var finished = false
        var waiters: [(version: UInt64, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let continuation: AsyncStream<(State, UInt64)>.Continuation
    private let progress = Locked(Progress())
    private let task: Task<Void, Never>

    init(observer: any MainActorObserver<State>) {
        let (stream, continuation) = AsyncStream.makeStream(of: (State, UInt64).self)
        self.continuation = continuation
        let progress = self.progress
        task = Task { @MainActor in
            for await (state, version) in stream {
                await DeliveryContext.$observing.withValue(ObjectIdentifier(observer)) {
                    await observer.observe(state: state)
                }
                let ready = progress.withLock { p in
                    p.delivered = version
                    let (ready, waiting) = (p.waiters.filter { $0.version <= version }, p.waiters.filter { $0.version > version })
                    p.waiters = waiting
                    return ready
                }
                for waiter in ready { waiter.continuation.resume() }
            }
            let rest = progress.withLock { p in
                p.finished = true
                defer { p.waiters = [] }
                return p.waiters
            }
            for waiter in rest { waiter.continuation.resume() }
        }
        self.observer = ObjectIdentifier(observer)
    }

    private let observer: ObjectIdentifier

    /// Queues `state`; called under the model's lock, so states queue in the order they were made.
    func deliver(_ state: State, version: UInt64) {
        continuation.yield((state, version))
    }

    /// Returns once the state numbered `version` (or a later one) was observed,
    /// or at once when called from the observer itself (waiting there would wait for itself).
    func waitUntilObserved(_ version: UInt64) async {
        guard DeliveryContext.observing != observer else { return }
        await withCheckedContinuation { continuation in
            let now = progress.withLock { p -> Bool in
                if p.finished || (p.delivered.map { $0 >= version } ?? false) { return true }
                p.waiters.append((version, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Observes what is queued, then stops.
    func finish() async {
        continuation.finish()
        guard DeliveryContext.observing != observer else { return }
        await task.value
    }
}

/// Which observer the current task is delivering to, if any.
enum DeliveryContext {
    @TaskLocal static var observing: ObjectIdentifier?
}
