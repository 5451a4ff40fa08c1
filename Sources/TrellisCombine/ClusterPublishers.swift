import Trellis

#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

extension Cluster {
    /// Sends `action` (``Cluster/send(action:)``) and publishes its reply, or
    /// fails with its error: the send starts at once, as a `Future`'s work does.
    ///
    /// ```swift
    /// cluster.sendFuture(action: GatekeeperAction.logout)
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { _ in })
    ///     .store(in: &cancellables)
    /// ```
    public func sendFuture(action: any Sendable) -> Future<(any Sendable)?, any Error> {
        Future { promise in
            let fulfil = PromiseBox(promise)
            self.send(action: action) { fulfil.complete($0) }
        }
    }

    /// Every record of the cluster (``ClusterRecord``), in order, as a
    /// publisher that never fails: each subscriber observes from when it
    /// subscribes (``Cluster/observe(bufferSize:)``) until it cancels, or the
    /// cluster shuts down (the publisher finishes).
    public func recordsPublisher(bufferSize: Int = ClusterObservationDefaults.bufferSize) -> AnyPublisher<ClusterRecord, Never> {
        Deferred {
            let subject = RecordSubject()
            let observation = self.observe(bufferSize: bufferSize)
            let task = Task {
                for await record in observation { subject.send(record) }
                subject.finish()
            }
            return subject.subject.handleEvents(receiveCancel: { task.cancel() })
        }
        .eraseToAnyPublisher()
    }
}

/// A Future's promise, completed from the callback send's task.
// Proof for @unchecked: the promise is a `let` called once, by the one completion of the send;
// a Future's promise locks around its state (Combine and OpenCombine both).
final class PromiseBox: @unchecked Sendable {
    let promise: (Result<(any Sendable)?, any Error>) -> Void
    init(_ promise: @escaping (Result<(any Sendable)?, any Error>) -> Void) { self.promise = promise }
    func complete(_ result: Result<(any Sendable)?, any Error>) { promise(result) }
}

/// The subject a cluster's records go through, fed from the observing task.
// Proof for @unchecked: `subject` is a `let`, and `PassthroughSubject.send` locks around its subscribers.
final class RecordSubject: @unchecked Sendable {
    let subject = PassthroughSubject<ClusterRecord, Never>()
    func send(_ record: ClusterRecord) { subject.send(record) }
    func finish() { subject.send(completion: .finished) }
}
