import Karc
import KarcAsync
import KarcSynchronization
import Synchronization
import Tracing

/// A running tree of services with one entry point, ``send(action:)``, and
/// one stream, ``observe(bufferSize:)``, that tells everything that happened.
///
/// Built by ``Bootstrap(_:)``. Call ``shutDown()`` when done: it stops the
/// emitters and tears down the models the cluster set up.
///
/// ```
/// send(action:) ──▶ middleware, outermost first ──▶ Rewrite: pass / replace / drop
///                                                     │            └─▶ .redirected record
///                                                     ▼
///                    the services that take the action's type (stores, models, dispatchers)
///                      │ a store: its mutate handler, one at a time ──▶ .stateChanged(old, new)
///                      │ a model: its domain's send ──▶ events ──▶ .event
///                      ▼
/// the reply (or the error) ◀──┘          ObservationHub: one shared log, a cursor each
///                                           ──▶ observe(bufferSize:) (a shell, a test store)
/// ```
///
/// Every record is appended once to the observation log, whatever the number
/// of observers; an observer that falls behind its buffer skips ahead and
/// hears how many records it lost.
public final class Cluster: Sendable {
    struct Routing {
        var root: ServiceNode?
        var middlewares: [MiddlewareBox] = []
        /// What handles each action type, found once per type.
        var plans: [ObjectIdentifier: Plan] = [:]
        /// The plan used last: a run of one action type skips hashing.
        var lastPlan: (type: ObjectIdentifier, plan: Plan)?
        /// What handles each action type in one target (``send(action:to:)``).
        var targetedPlans: [TargetedPlanKey: Plan] = [:]
        var lastTargeted: (key: TargetedPlanKey, plan: Plan)?
        var targets: [ClusterTarget] = []
        var isShutDown = false
    }

    /// The services and middlewares that take one action type.
    struct Plan: Sendable {
        /// The tree pruned to the services that accept the type; `nil` when none does.
        let node: ServiceNode?
        let middlewares: [MiddlewareBox]
        /// The targets of `node`'s leaves, in declaration order, joined by `,` (a `sent` record's).
        let target: String?

        init(node: ServiceNode?, middlewares: [MiddlewareBox]) {
            self.node = node
            self.middlewares = middlewares
            let targets = node?.targets ?? []
            self.target = targets.isEmpty ? nil : targets.joined(separator: ",")
        }
    }

    /// Entries ``history`` keeps unless ``Bootstrap(historyCapacity:_:)`` says otherwise.
    public static let defaultHistoryCapacity = 1_000

    package let hub: ObservationHub
    let activity = ActivityGauge()
    /// The models this cluster set up, apart from any other cluster's (`Domain.get` inside its work finds them).
    let pool = ModelPool()
    let routing = KarcMutex(Routing())
    let sequence = Atomic<UInt64>(0)
    let actionHistory: KarcMutex<ActionHistory>
    /// Sends made with a completion handler, in the order of the calls.
    let callbackSends = SerialJobs()
    /// The app's tracer, when one was bootstrapped (`InstrumentationSystem`) before the
    /// cluster was built: every send is then one of its spans too.
    let tracer: (any Tracer)?
    /// `tracer != nil`, read on every send without copying the existential.
    let hasTracer: Bool
    private let teardowns = KarcMutex<[@Sendable () async -> Void]>([])
    /// How each service resets (``reset()``), in declaration order, with the target it puts back.
    let resets = KarcMutex<[(target: String, step: @Sendable () async throws -> Void)]>([])
    /// How each target that can be restored takes its state back (``restore(_:)``).
    let restorers = KarcMutex<[String: Restorer]>([:])
    private let tasks = KarcMutex<[Task<Void, Never>]>([])
    private let startUp = KarcMutex<[StartUpStep]>([])

    init(historyCapacity: Int = Cluster.defaultHistoryCapacity, tracer: any Tracer = InstrumentationSystem.tracer) {
        actionHistory = KarcMutex(ActionHistory(capacity: historyCapacity))
        // Read once: looking the tracer up takes a lock and a cast, too much for every send.
        self.tracer = tracer is NoOpTracer ? nil : tracer
        hasTracer = self.tracer != nil
        hub = ObservationHub(tracerSet: hasTracer)
    }

    deinit {
        // Emitters hold the cluster weakly; stopping them here keeps a dropped cluster from being fed.
        for task in tasks.withLock({ $0 }) { task.cancel() }
    }

    /// The records of this cluster from now on. A slow observer never slows
    /// the cluster down: past `bufferSize` unread records it loses the oldest
    /// and reads a ``ClusterRecord/Kind-swift.enum/lost(count:)`` in their place.
    public func observe(bufferSize: Int = ClusterObservationDefaults.bufferSize) -> ClusterObservation {
        observe(bufferSize: bufferSize, tracing: false)
    }

    /// ``observe(bufferSize:)``, with each record's ``ClusterRecord/link``
    /// (the span that made it, in its causal trace) and time when `tracing`.
    /// While one observer traces, every send binds its link and publishes
    /// one more record (its end): a tool that draws flows asks for this, a
    /// plain observer does not pay for it.
    public func observe(bufferSize: Int = ClusterObservationDefaults.bufferSize, tracing: Bool) -> ClusterObservation {
        ClusterObservation(subscription: .init(hub: hub, id: hub.subscribe(capacity: bufferSize, tracing: tracing)))
    }

    /// The records from now on, for an observer that keeps its own picture of
    /// each target's last state: a store's report carries only the new state
    /// (``StateNotKept`` in place of the old one), except its first, so the
    /// store's change is made in place (``OldStateDemand``).
    /// `roots`: each record says which root started its trace (a link made by
    /// the root's send, carried as it is by the work under it), and a send made as a span of
    /// its own (``send(action:to:span:)``, a shell's command) is traced in
    /// full with everything it causes: what a shell draws trees of.
    /// `wakeBatch`: records that wake the observer at once when it waits
    /// (at most half `bufferSize`); one that shows what it takes at a pace
    /// of its own asks for more, so an app under load wakes it less often.
    package func observe(
        bufferSize: Int, keepingOldStates: Bool, tracing: Bool = false, roots: Bool = false, wakeBatch: Int = ObservationHub.wakeBatch
    ) -> ClusterObservation {
        ClusterObservation(
            subscription: .init(
                hub: hub,
                id: hub.subscribe(capacity: bufferSize, keepingOldStates: keepingOldStates, tracing: tracing, roots: roots, batch: wakeBatch)))
    }

    /// Waits until no send, reduction or pipe track is in flight, so that the
    /// effects of what was sent are complete; `false` if that took longer than
    /// `timeout`. Timers and periodic pipes do not count as work in flight.
    @discardableResult
    public func settled<C: Clock>(timeout: C.Duration, clock: C) async -> Bool {
        if activity.count == 0 { return true }
        let activity = self.activity
        // The deadline is taken now: the child that sleeps may start later than this call.
        let deadline = clock.now.advanced(by: timeout)
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask { await activity.untilIdle() }
            group.addTask {
                try? await clock.sleep(until: deadline, tolerance: nil)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }

    /// ``settled(timeout:clock:)`` on the continuous clock, where the timeout
    /// is an alarm instead of a sleeping task: a shell settles after every command.
    @discardableResult
    public func settled(timeout: Duration = .seconds(5)) async -> Bool {
        if activity.count == 0 { return true }
        return await activity.untilIdle(deadline: .now + timeout)
    }

    /// Sends, reductions and pipe tracks in flight now.
    public var workInFlight: Int { activity.count }

    /// Waits until at most `baseline` units of work are in flight: the work
    /// started after ``workInFlight`` read `baseline` is done, while work
    /// that was running then (a send someone stopped waiting for) may go on.
    /// `false` if that took longer than `timeout`.
    @discardableResult
    public func settled(timeout: Duration, beyond baseline: Int) async -> Bool {
        if activity.count <= baseline { return true }
        return await activity.until(atMost: baseline, deadline: .now + timeout)
    }

    /// What the cluster is made of, in declaration order.
    public var targets: [ClusterTarget] { routing.withLock { $0.targets } }

    /// The target named `name`.
    public func target(named name: String) -> ClusterTarget? {
        targets.first { $0.name == name }
    }

    /// Stops emitters, tears down the models the cluster set up (in reverse
    /// order) and ends observers. Later sends throw ``TrellisError/shutDown``.
    public func shutDown() async {
        let alreadyDown = routing.withLock { r in
            defer { r.isShutDown = true }
            return r.isShutDown
        }
        guard !alreadyDown else { return }
        for task in tasks.withLock({ $0 }) { task.cancel() }
        await pool.makeCurrent {
            for teardown in teardowns.withLock({ $0 }).reversed() { await teardown() }
        }
        hub.close()
    }

    // MARK: Building

    func install(root: ServiceNode) {
        routing.withLock { $0.root = root }
    }

    /// Registers a target; returns its unique name (`name`, or `name#2`… for repeats).
    package func register(
        name: String, kind: ClusterTarget.Kind, accepts: [Any.Type], events: [Any.Type] = [], commands: [TargetCommand] = [],
        invariants: [Invariant] = [], state: (@Sendable () async -> any Sendable)?
    ) -> String {
        // A state read from outside the cluster (the shell, a test) looks its model up in the cluster's pool.
        let state = state.map { read in { @Sendable [pool] () async -> any Sendable in await pool.makeCurrent { await read() } } }
        return routing.withLock { r in
            var unique = name
            var n = 1
            while r.targets.contains(where: { $0.name == unique }) {
                n += 1
                unique = "\(name)#\(n)"
            }
            r.targets.append(
                ClusterTarget(name: unique, kind: kind, accepts: accepts, state: state, events: events, commands: commands, invariants: invariants))
            return unique
        }
    }

    func add(_ middleware: MiddlewareBox) {
        routing.withLock { $0.middlewares.append(middleware) }
    }

    package func onShutDown(_ teardown: @escaping @Sendable () async -> Void) {
        teardowns.withLock { $0.append(teardown) }
    }

    func atStartUp(_ step: StartUpStep) {
        startUp.withLock { $0.append(step) }
    }

    /// Runs the bootstrap handlers and consuming emitters in declaration order, then starts the background emitters.
    func runStartUp() async throws {
        let steps = startUp.withLock { steps in
            defer { steps = [] }
            return steps
        }
        for step in steps { try await step.run?() }
        for step in steps {
            guard let background = step.background else { continue }
            // Long-lived: outside whatever trace built the cluster.
            let task = Task { await TraceCarrier.none.run { await background() } }
            tasks.withLock { $0.append(task) }
        }
    }
}

/// An action type sent to one target.
struct TargetedPlanKey: Hashable {
    let type: ObjectIdentifier
    let target: String
}

/// Defaults of ``Cluster/observe(bufferSize:)``.
public enum ClusterObservationDefaults {
    /// Unread records an observer may hold before it loses the oldest.
    public static let bufferSize = 10_000
}

/// Work a cluster does once it is built: `.bootstrap` handlers and emitters.
struct StartUpStep: Sendable {
    var run: (@Sendable () async throws -> Void)?
    var background: (@Sendable () async -> Void)?

    init(run: (@Sendable () async throws -> Void)?, background: (@Sendable () async -> Void)? = nil) {
        self.run = run
        self.background = background
    }
}
