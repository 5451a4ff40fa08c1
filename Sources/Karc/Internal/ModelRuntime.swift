import KarcSynchronization
import Logging
import Synchronization

/// The live part of a set-up model: its state, gates and scopes.
///
/// Effects are reduced inline, in the sending task, under one mutex: no hop to
/// another task, and the events of concurrent reductions reach every receiver
/// in one global order (the order the reducer emitted them). Scopes are
/// re-evaluated after each change of state, outside the lock; when their keys
/// differ, the ``ScopeReconciler`` starts and stops scopes, and a sender whose
/// effects changed the state returns once the scopes match it.
@usableFromInline
final class ModelRuntime<State: Equatable & Sendable, Command: Sendable, Effect: Sendable, Event: Sendable>: Sendable {
    struct Hooks: Sendable {
        let reducer: @Sendable (State, Effect) -> (State, [Event])
        let willReduce: @Sendable (State, [Effect]) -> Void
        let didReduce: @Sendable (State, [Event]) -> Void
        let observe: @Sendable (State) -> Void
        let scopes: @Sendable (ModelRuntime, State) -> [Scope]
        /// The model's own error for a command no running pipe takes (``Model/refusal(of:in:)``).
        let refusal: @Sendable (Command, State) -> (any Error)?
    }

    struct Core: Sendable {
        var state: State
        /// The model's code; dropped at tear-down, which breaks the runtime ↔ model cycle.
        var hooks: Hooks?
        var isRunning = true
        var desired: [Scope] = []
        var generation: UInt64 = 0
        /// Counts changes of state; scopes evaluated for an older one are discarded.
        var version: UInt64 = 0
        var evaluatedVersion: UInt64 = 0

        /// Makes `scopes` the desired set; returns the generation the reconciler must reach.
        mutating func desire(_ scopes: [Scope]) -> UInt64 {
            desired = scopes
            generation += 1
            return generation
        }
    }

    /// A reduction's new state, its version and what evaluates its scopes.
    typealias Change = (State, UInt64, @Sendable (ModelRuntime, State) -> [Scope])

    let uid: String
    let logger: Logger
    let commands: Gate<Command, any Sendable>
    let events: EventGate<Event>
    /// The cluster's gauge and monitor when a cluster mounted this model.
    let mount: ModelMount?
    private let core: Locked<Core>
    private let reconciler: ScopeReconciler
    /// The states on their way to a ``MainActorObserver`` domain.
    let delivery: MainActorDelivery<State>?

    init(uid: String, environ: Environ, logger: Logger, state: State, hooks: Hooks, delivery: MainActorDelivery<State>? = nil) {
        self.uid = uid
        self.delivery = delivery
        self.logger = logger
        self.commands = Gate(mode: .transient, scheme: .anycast, label: "commands of \(uid)")
        self.events = EventGate(label: "events of \(uid)")
        let core = Locked(Core(state: state, hooks: hooks))
        self.core = core
        let mount = ModelMount.current
        self.mount = mount
        self.reconciler = ScopeReconciler(
            context: ScopeContext(
                environ: environ, logger: logger, modelUid: uid, activity: mount?.activity, traceName: mount?.monitor.name(of: uid) ?? uid,
                monitor: mount?.monitor),
            desired: { core.withLock { ($0.desired, $0.generation) } }
        )
    }

    var state: State { core.withLock { $0.state } }

    /// What a sender of `command` is told when no running pipe takes it:
    /// the model's own words for its state, or ``ModelError/notTaken(model:command:)``.
    func refusal(of command: Command) -> any Error {
        let (hooks, state) = core.withLock { ($0.hooks, $0.state) }
        return hooks?.refusal(command, state) ?? ModelError.notTaken(model: uid, command: "\(type(of: command as Any))")
    }

    /// Activates the scopes of the initial state; returns when they are running.
    func start() async {
        let generation = core.withLock { c -> UInt64 in
            delivery?.deliver(c.state, version: c.version)
            let scopes = c.hooks?.scopes(self, c.state) ?? []
            return c.desire(scopes)
        }
        await delivery?.waitUntilObserved(0)
        reconciler.start()
        reconciler.request(generation)
        await reconciler.wait(for: generation, cancellable: false)
    }

    /// Fails pending and future sends, stops every scope, and ends event receivers.
    func tearDown() async {
        let generation = core.withLock { c -> UInt64 in
            c.isRunning = false
            return c.desire([])
        }
        commands.seal(ModelError.tornDown(model: uid))
        reconciler.request(generation)
        await reconciler.wait(for: generation, cancellable: false)
        await reconciler.stop()
        await delivery?.finish()
        events.seal()
        core.withLock { $0.hooks = nil }
    }

    /// Reduces `effects` and publishes their events, then waits (cancellably)
    /// until the scopes match the new state.
    ///
    /// Nonsending, like the rest of the effect path: it runs on the caller's
    /// executor (the reduction is a lock, the wait a continuation), so a track
    /// pays no executor switch to enter it or to come back.
    @usableFromInline
    nonisolated(nonsending) func send(effects: [Effect]) async throws -> [Event] {
        let (events, changed) = try reduce(effects)
        guard let changed else { return events }
        await reconcile(changed)
        return events
    }

    /// Puts `state` in place of the model's state, as a reduction would have
    /// made it (its observers, the cluster's monitor and its scopes see a
    /// change of state; no event), and returns once the scopes match it.
    ///
    /// - Throws: ``ModelError/tornDown(model:)`` when the model is torn down.
    func restore(_ state: State) async throws {
        let changed = try core.withLock { c -> Change? in
            guard c.isRunning, let hooks = c.hooks else { throw ModelError.tornDown(model: uid) }
            let old = c.state
            guard old != state else { return nil }
            c.state = state
            c.version += 1
            hooks.observe(state)
            delivery?.deliver(state, version: c.version)
            mount?.monitor.stateChanged(model: uid, old: old, new: state)
            return (state, c.version, hooks.scopes)
        }
        if let changed { await reconcile(changed) }
    }

    /// Evaluates the scopes of a new state (outside the lock: concurrent
    /// reductions do not queue behind it) and waits, cancellably, until they run.
    // Inlined: it is the tail of every reduction that changed the state.
    @inline(__always)
    nonisolated(nonsending) private func reconcile(_ changed: Change) async {
        let (state, version, scopesOf) = changed
        // Evaluated outside the lock: concurrent reductions do not queue behind it.
        let scopes = scopesOf(self, state)
        let (generation, isNew) = core.withLock { c -> (UInt64, Bool) in
            // A newer state's scopes were evaluated already: they stand.
            guard version > c.evaluatedVersion, c.isRunning else { return (c.generation, false) }
            c.evaluatedVersion = version
            guard !Scope.haveSameKeys(scopes, c.desired) else { return (c.generation, false) }
            return (c.desire(scopes), true)
        }
        if isNew { reconciler.request(generation) }
        await reconciler.wait(for: generation, cancellable: true)
        if let delivery { await delivery.waitUntilObserved(version) }
    }

    /// Reduces under the lock; returns the events and, when the state changed, the new state,
    /// its version and what evaluates its scopes.
    func reduce(_ effects: [Effect]) throws -> (events: [Event], changed: Change?) {
        try core.withLock { c in
            guard c.isRunning, let hooks = c.hooks else { throw ModelError.tornDown(model: uid) }
            let old = c.state
            hooks.willReduce(old, effects)
            var state = old
            var events: [Event] = []
            for effect in effects {
                let (next, emitted) = hooks.reducer(state, effect)
                state = next
                // The usual single effect's events are the reducer's own array: no copy.
                if events.isEmpty { events = emitted } else { events.append(contentsOf: emitted) }
            }
            let changed = state != old
            if changed {
                c.state = state
                c.version += 1
                hooks.observe(state)
                delivery?.deliver(state, version: c.version)
            }
            hooks.didReduce(state, events)
            // Published under the lock: every receiver sees one global order.
            for event in events { self.events.publish(event) }
            if let monitor = mount?.monitor {
                for event in events { monitor.emitted(model: uid, event: event) }
                if changed { monitor.stateChanged(model: uid, old: old, new: state) }
            }
            return (events, changed ? (state, c.version, hooks.scopes) : nil)
        }
    }
}

/// A model's effect drain: reduces inline and answers with the emitted events.
@usableFromInline
struct ReducerDrain<State: Equatable & Sendable, Command: Sendable, Effect: Sendable, Event: Sendable>: Drain {
    @usableFromInline let runtime: ModelRuntime<State, Command, Effect, Event>

    @usableFromInline init(runtime: ModelRuntime<State, Command, Effect, Event>) { self.runtime = runtime }

    @usableFromInline var isSealed: Bool { false }

    @inlinable @discardableResult
    nonisolated(nonsending) func send(producerId: UInt64, _ effects: [Effect]) async throws -> [Event] {
        try await runtime.send(effects: effects)
    }
}
