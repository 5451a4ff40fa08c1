import KarcAsync

extension Emitters {
    /// Emits the elements of an `AsyncSequence` as `.success`, and its error as
    /// `.failure`; the Linux stand-in for the seed's `publisher.emitter()`.
    ///
    /// Each observation iterates the sequence in a task of its own, from the
    /// start; cancelling the observation cancels the task.
    public struct AsyncSequenceEmitter<Base: AsyncSequence & Sendable>: Emitter where Base.Element: Sendable {
        /// Each element, or the error that ended the sequence.
        public typealias Value = Result<Base.Element, any Error>

        let base: Base

        public func subscribe(_ handler: @escaping @Sendable (Value) -> Void) -> Subscription {
            let base = base
            // Fed from outside: its elements belong to no trace of whoever subscribed.
            let task = Task {
                await TraceCarrier.none.run {
                    do {
                        for try await element in base {
                            if Task.isCancelled { return }
                            handler(.success(element))
                        }
                    } catch {
                        if !Task.isCancelled { handler(.failure(error)) }
                    }
                }
            }
            return Subscription { task.cancel() }
        }
    }
}

extension AsyncSequence where Self: Sendable, Element: Sendable {
    /// An emitter of this sequence's elements (and error) as `Result`s.
    public func emitter() -> Emitters.AsyncSequenceEmitter<Self> {
        Emitters.AsyncSequenceEmitter(base: self)
    }
}

extension Emitter {
    /// The values emitted from now on, as an `AsyncStream` (buffered without
    /// limit, in delivery order); the observation stops when iteration ends.
    public var values: AsyncStream<Value> {
        AsyncStream { continuation in
            let subscription = subscribe { continuation.yield($0) }
            continuation.onTermination = { _ in subscription.cancel() }
        }
    }
}
