import KarcAsync

/// An action that knows its dispatcher, so it dispatches itself:
/// `try await Increment().dispatch()`, or `Increment().schedule()` from code
/// that cannot wait.
///
/// ```swift
/// extension CounterStore {
///     struct Increment: DispatchingAction {
///         var defaultDispatcher: CounterStore { .shared }
///         func execute(with store: isolated CounterStore) async { store.count += 1 }
///     }
/// }
/// Increment().schedule { print("done") }
/// ```
public protocol DispatchingAction: Action where Dispatcher: ActingDispatcher {
    /// The dispatcher ``dispatch()`` and the `schedule` methods use.
    var defaultDispatcher: Dispatcher { get }
}

extension DispatchingAction {
    /// Runs the action on ``defaultDispatcher`` and returns when it has run.
    ///
    /// - Throws: the error the action threw.
    public func dispatch() async throws {
        try await defaultDispatcher.schedule(self)
    }

    /// Schedules the action on ``defaultDispatcher`` from code that cannot
    /// wait; `completion` runs once it has run (or failed: the error also
    /// reaches the dispatcher's middlewares through `didFail`).
    ///
    /// - Returns: the task that runs it, for a caller that wants to wait after all.
    @discardableResult
    public func schedule(completion: (@Sendable () -> Void)? = nil) -> Task<Void, Never> {
        // The action belongs to the trace of whoever scheduled it.
        let carried = TraceCarrier.current
        return Task {
            await carried.run {
                try? await defaultDispatcher.schedule(self)
                completion?()
            }
        }
    }

    /// Schedules the action on ``defaultDispatcher`` once `delay` has passed
    /// on `clock`, counted from this call (not from when the task that waits
    /// gets to run: under load that can be later); `completion` runs once it
    /// has run. A test passes a test clock and advances it instead of waiting.
    ///
    /// - Returns: the task that waits and runs it; cancelling it before the
    ///   delay has passed drops the action (`completion` does not run).
    @discardableResult
    public func schedule<C: Clock>(
        after delay: C.Instant.Duration, clock: C = ContinuousClock(), completion: (@Sendable () -> Void)? = nil
    ) -> Task<Void, Never> {
        let deadline = clock.now.advanced(by: delay)
        let carried = TraceCarrier.current
        return Task {
            do {
                try await clock.sleep(until: deadline, tolerance: nil)
            } catch {
                return
            }
            await carried.run {
                try? await defaultDispatcher.schedule(self)
                completion?()
            }
        }
    }
}
