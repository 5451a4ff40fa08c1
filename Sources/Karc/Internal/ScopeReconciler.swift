import KarcAsync
import KarcSynchronization
import Synchronization

/// Starts and stops a model's scopes so they match its latest desired scopes.
///
/// One worker task per model does all transitions, one after another; callers
/// only wait for a generation to be reached. The wait is cancellable: a pipe
/// whose own pipeline is being stopped gets cancelled and returns, so a track
/// that deactivates its own scope never deadlocks.
final class ScopeReconciler: Sendable {
    struct Waiter {
        let generation: UInt64
        let continuation: UnsafeContinuation<Void, Never>
    }

    struct State {
        var requested: UInt64 = 0
        var reached: UInt64 = 0
        var waiters: [UInt64: Waiter] = [:]
        var nextWaiter: UInt64 = 0
        var wake: UnsafeContinuation<Bool, Never>?
        var stopping = false
    }

    private let state = KarcMutex(State())
    /// `State.reached`, readable without the lock: most waits find it reached already.
    private let reached = Atomic<UInt64>(0)
    private let worker = Locked<Task<Void, Never>?>(nil)
    private let context: ScopeContext
    private let desired: @Sendable () -> (scopes: [Scope], generation: UInt64)

    init(context: ScopeContext, desired: @escaping @Sendable () -> (scopes: [Scope], generation: UInt64)) {
        self.context = context
        self.desired = desired
    }

    func start() {
        worker.set(Task { await self.work() })
    }

    /// Asks the worker to reach at least `generation`.
    func request(_ generation: UInt64) {
        state.withLock { s in
            s.requested = max(s.requested, generation)
            s.wake.take()?.resume(returning: true)
        }
    }

    /// Waits until `generation` is reached, or (when `cancellable`) the task is cancelled.
    nonisolated(nonsending) func wait(for generation: UInt64, cancellable: Bool) async {
        if reached.load(ordering: .acquiring) >= generation { return }
        let id = state.withLock { s -> UInt64? in
            guard s.reached < generation else { return nil }
            s.nextWaiter += 1
            return s.nextWaiter
        }
        guard let id else { return }
        let body = {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
                self.state.withLock { s in
                    if s.reached >= generation || (cancellable && Task.isCancelled) { return continuation.resume() }
                    s.waiters[id] = Waiter(generation: generation, continuation: continuation)
                }
            }
        }
        guard cancellable else { return await body() }
        await withTaskCancellationHandler(operation: body) {
            self.state.withLock { s in s.waiters.removeValue(forKey: id)?.continuation.resume() }
        }
    }

    /// Stops every active scope and the worker.
    func stop() async {
        state.withLock { s in
            s.stopping = true
            s.wake.take()?.resume(returning: false)
        }
        await worker.value?.value
    }

    private func nextRequest() async -> Bool {
        await withUnsafeContinuation { continuation in
            state.withLock { s in
                if s.stopping { return continuation.resume(returning: false) }
                if s.requested > s.reached { return continuation.resume(returning: true) }
                s.wake = continuation
            }
        }
    }

    private func work() async {
        var active: [(key: ScopeKey, runner: any ScopeRunner)] = []
        while await nextRequest() {
            let (scopes, generation) = desired()
            let wanted = Set(scopes.map(\.key))
            // Stop in reverse start order, so a pipeline stops before the injector it relies on.
            for entry in active.reversed() where !wanted.contains(entry.key) { await entry.runner.stop() }
            active.removeAll { !wanted.contains($0.key) }
            var running = Set(active.map(\.key))
            for scope in scopes where !running.contains(scope.key) {
                let runner = scope.makeRunner()
                await runner.start(context)
                active.append((scope.key, runner))
                running.insert(scope.key)
            }
            reach(generation)
        }
        for entry in active.reversed() { await entry.runner.stop() }
    }

    private func reach(_ generation: UInt64) {
        state.withLock { s in
            s.reached = max(s.reached, generation)
            reached.store(s.reached, ordering: .releasing)
            let done = s.waiters.filter { $0.value.generation <= s.reached }
            for (id, waiter) in done {
                s.waiters[id] = nil
                waiter.continuation.resume()
            }
        }
    }
}
