import KarcAsync

/// A Flux dispatcher: an actor whose state changes only through the actions
/// dispatched to it, one at a time, in the order they were dispatched.
///
/// ```swift
/// actor CounterStore: Dispatcher {
///     let pipeline = Pipeline()
///     var middlewares: [any Middleware] = []
///     var count = 0
/// }
///
/// let store = CounterStore()
/// try await store.dispatch(CounterStore.Increment())   // returns when it has run
/// await store.enqueue(CounterStore.Increment(value: 10)) // returns once queued
/// ```
///
/// Unlike the original AsyncDispatcher, ``dispatch(_:)`` returns when the
/// action has run and rethrows its error; ``enqueue(_:)`` is the
/// fire-and-forget form.
public protocol Dispatcher: Actor {
    /// The queue of dispatched actions.
    nonisolated var pipeline: Pipeline { get }
    /// Asked before and told after each action, in this order.
    var middlewares: [any Middleware] { get set }
}

extension Dispatcher {
    /// Whether a dispatched action is running now.
    public nonisolated var isDispatching: Bool { pipeline.isDispatching }

    /// Whether dispatched actions run; see ``deactivate()``.
    public nonisolated var isActive: Bool { pipeline.isActive }

    /// Runs `action` after every action dispatched before it, and returns when
    /// it has run.
    ///
    /// - Throws: the error the action threw; ``DispatcherError/reentrantDispatch(dispatcher:action:)``
    ///   when called from an action this dispatcher is running (it would wait for itself).
    public func dispatch<A: Action>(_ action: A) async throws where A.Dispatcher == Self {
        switch pipeline.claim(task: currentTaskId()) {
        case .claimed:
            // Nothing queued and nothing running: run it here, no queue, no task.
            defer { if pipeline.release() { startDrainer() } }
            try await execute(action)
            return
        case .reentrant:
            throw DispatcherError.reentrantDispatch(dispatcher: "\(Self.self)", action: "\(A.self)")
        case .busy:
            break
        }
        try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
            // Resumed exactly once, by the job; the job runs because the caller keeps this dispatcher alive.
            let job = Pipeline.Job { [weak self] in
                guard let self else { return }
                do {
                    try await self.execute(action)
                    continuation.resume()
                } catch {
                    continuation.resume(throwing: error)
                }
            }
            if pipeline.append(job) { startDrainer() }
        }
    }

    /// Queues `action` behind every action dispatched before it and returns
    /// at once; its error, if any, goes to the middlewares' `didFail`.
    public nonisolated func enqueue<A: Action>(_ action: A) where A.Dispatcher == Self {
        let job = Pipeline.Job { [weak self] in
            try? await self?.execute(action)
        }
        if pipeline.append(job) { startDrainer() }
    }

    /// Queues `action` as ``enqueue(_:)`` does, for code that cannot await
    /// (callbacks, legacy code), and calls `completion` once it has run, with
    /// its error if it threw. Actions queued this way run in the order of
    /// the calls.
    public nonisolated func dispatch<A: Action>(
        _ action: A, completion: @escaping @Sendable (Result<Void, any Error>) -> Void
    ) where A.Dispatcher == Self {
        let job = Pipeline.Job { [weak self] in
            guard let self else { return completion(.failure(CancellationError())) }
            do {
                try await self.execute(action)
                completion(.success(()))
            } catch {
                completion(.failure(error))
            }
        }
        if pipeline.append(job) { startDrainer() }
    }

    /// Runs `action` now, bypassing the queue, through the middlewares. This
    /// is how an action runs another one (composition).
    ///
    /// - Throws: the error the action threw.
    public func execute<A: Action>(_ action: A) async throws where A.Dispatcher == Self {
        let middlewares = self.middlewares
        if middlewares.isEmpty {
            try await action.execute(with: self)
            return
        }
        for middleware in middlewares where !middleware.dispatcher(self, shouldExecute: action) { return }
        for middleware in middlewares { middleware.dispatcher(self, willExecute: action) }
        do {
            try await action.execute(with: self)
        } catch {
            for middleware in middlewares { middleware.dispatcher(self, didFail: action, error: error) }
            throw error
        }
        for middleware in middlewares { middleware.dispatcher(self, didExecute: action) }
    }

    /// Starts running queued actions again, in order.
    public nonisolated func activate() {
        if pipeline.setActive(true) { startDrainer() }
    }

    /// Holds queued and newly dispatched actions until ``activate()``; the
    /// action running now finishes. A `dispatch` awaits until then.
    public nonisolated func deactivate() {
        _ = pipeline.setActive(false)
    }

    private nonisolated func startDrainer() {
        // Strong: the queue must run even if the caller lets go of the dispatcher. Each job brings its
        // own trace; the drainer is in none.
        Task { await TraceCarrier.none.run { await self.drain() } }
    }

    private func drain() async {
        let task = currentTaskId()
        while let job = pipeline.next(runner: task) {
            await job()
        }
    }
}
