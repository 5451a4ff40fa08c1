@_spi(KarcInternal) import KarcAsync
import KarcLanguage
import KarcSession
import Trellis

/// Puts the shell in front of a Trellis cluster:
///
/// ```swift
/// let cluster = try await Bootstrap {
///     Store(model: Cart.self).mutate(on: AddItem.self) { cart, add, _ in … }.with(model: Cart())
/// }
/// let status = await Shell.run(ClusterShell(name: "shop", cluster: cluster), options: ShellOptions())
/// ```
///
/// Each target's commands are the action types it accepts that are
/// `Decodable` (a `Decodable` enum gives one command per case); the others
/// cannot be typed in the shell, and `:help` says which they are.
public final class ClusterShell: ResettableShellCluster, RestorableShellCluster, InvariantCheckingShellCluster, ObservingCluster {
    public let name: String
    /// The cluster the shell drives.
    public let cluster: Cluster
    public let catalog: Catalog
    private let observation: ClusterObservation
    /// The targets that declare invariants, or whose state one of `invariants` may be about (``brokenInvariants()``).
    private let invariantTargets: [ClusterTarget]
    /// Invariants given beside the cluster's own: each about every target whose state has its type.
    private let invariants: [Invariant]
    /// How many records the shell may fall behind the cluster (its observation's buffer).
    public let recordBuffer: Int

    /// A shell cluster named `name` around `cluster`, with its catalog learned from it.
    public convenience init(name: String, cluster: Cluster) {
        self.init(name: name, cluster: cluster, catalog: Self.catalog(of: cluster))
    }

    /// The same, with `invariants` beside those the cluster's targets declare:
    /// each holds for every target whose state is of its type, and the shell
    /// and `explore` check them after every command.
    public convenience init(name: String, cluster: Cluster, invariants: [Invariant]) {
        self.init(name: name, cluster: cluster, catalog: Self.catalog(of: cluster), invariants: invariants)
    }

    /// Run once the cluster has shut down (a scratch directory removed, say).
    private let afterShutDown: @Sendable () async -> Void

    /// A shell on `cluster` whose catalog was made already (each shell that
    /// attaches to an endpoint observes the cluster itself, with one catalog).
    package init(
        name: String, cluster: Cluster, catalog: Catalog, invariants: [Invariant] = [], bufferSize: Int = 100_000,
        afterShutDown: @escaping @Sendable () async -> Void = {}
    ) {
        self.name = name
        self.cluster = cluster
        self.catalog = catalog
        recordBuffer = bufferSize
        // The shell keeps its own picture of each state (`StateSnapshot`): a store's change is made in place.
        // Roots: each record says which command (or timer, or other shell, or the app's send) caused it; its
        // commands, sent as spans of their own, are traced in full.
        // Between its commands a session shows what it took at most every 20 ms (a command takes its
        // records without waiting): woken by 2,048 records, not 256, an app under load wakes it an eighth
        // as often (a wake is a thread woken from the app's send). The first record still wakes it within
        // the hub's delay.
        observation = cluster.observe(bufferSize: bufferSize, keepingOldStates: false, roots: true, wakeBatch: 2_048)
        // Known once: targets are registered as the cluster is built.
        invariantTargets = cluster.targets.filter { !$0.invariants.isEmpty || (!invariants.isEmpty && $0.state != nil) }
        self.invariants = invariants
        self.afterShutDown = afterShutDown
    }

    /// Each target's commands: the action types it accepts that are
    /// `Decodable`, and the commands it names itself (a component tree's
    /// emitters) that take no value or a `Decodable` one.
    package static func catalog(of cluster: Cluster) -> Catalog {
        Catalog(
            targets: cluster.targets.map { target in
                let named = target.commands.filter { $0.input == nil || $0.input is any (Decodable & Sendable).Type }
                // A target's own commands stand for its action types (a component tree's EmitSignal and EmitValue).
                let typed = target.commands.isEmpty ? target.accepts : []
                return TargetSchema(
                    name: target.name, kind: target.kind.rawValue,
                    commands: typed.flatMap { type in
                        (type as? any (Decodable & Sendable).Type).map(CommandSchema.commands(for:)) ?? []
                    } + named.map(Self.schema(of:)),
                    hidden: typed.filter { !($0 is any (Decodable & Sendable).Type) }.map { "\($0)" }
                        + target.commands.filter { $0.input != nil && !($0.input is any (Decodable & Sendable).Type) }.map {
                            "\($0.name) (its \($0.input.map { "\($0)" } ?? "") values are not Decodable)"
                        },
                    events: target.events.map { "\($0)" })
            })
    }

    /// A command the target names itself, as the shell types it.
    private static func schema(of command: TargetCommand) -> CommandSchema {
        CommandSchema(
            named: command.name, typeName: command.name, input: command.input as? any (Decodable & Sendable).Type, summary: command.summary,
            action: command.action)
    }

    /// Stops observing the cluster (the shell that used this is gone); the cluster goes on.
    package func stopObserving() {
        observation.cancel()
    }

    /// Sends `command` to `target` alone: another target that accepts the same type does not see it.
    public func send(_ command: any Sendable, to target: String) async throws -> (any Sendable)? {
        try await cluster.send(action: command, to: target)
    }

    /// The send as the root span `span` of its trace: what it causes carries `span` as its trace.
    public func send(_ command: any Sendable, to target: String, span: UInt64) async throws -> (any Sendable)? {
        try await cluster.send(action: command, to: target, span: span)
    }

    public func takeRecords() -> [ShellRecord] {
        Self.shellRecords(observation.takeBatch())
    }

    /// Waits on the cluster's observation: records are pushed, not polled for.
    public func nextRecords() async -> [ShellRecord]? {
        while let batch = await observation.nextBatch() {
            if !batch.isEmpty { return Self.shellRecords(batch) }
        }
        return nil
    }

    /// Each record of `batch` as a shell record, in one pass.
    private static func shellRecords(_ batch: consuming RecordBatch) -> [ShellRecord] {
        // An empty one is `[]`, not a copy of nothing, as `ClusterObservation.takeAvailable()` makes it (ThreadSanitizer).
        if batch.isEmpty { return [] }
        var made: [ShellRecord] = []
        made.reserveCapacity(batch.count)
        // Read from the batch itself (``RecordBatch`` moves a record out of a chunk only it holds).
        while let record = batch.next() { made.append(shellRecord(record)) }
        return made
    }

    private static func shellRecord(_ record: ClusterRecord) -> ShellRecord {
        let kind: ShellRecord.Kind
        switch record.kind {
        case .sent(_, let action, let target): kind = .sent(action: action, target: target)
        case .replied(_, let reply): kind = .replied(reply: reply)
        case .handled: kind = .handled
        case .redirected(_, let action, let by, let to): kind = .redirected(by: by, action: action, to: to)
        case .failed(let sequence, let error):
            // A send's failure is its span's end; sequence 0: an emitter's own sequence failed (printed).
            kind = sequence == 0 ? .failed(error: error) : .sendFailed(error: error)
        case .emitted(let source, let event): kind = .event(source: source, event: event)
        case .stateChanged(let source, let old, let new):
            // The type's identity, not a cast: a cast per record is a dynamic cast's slow path.
            kind = type(of: old) == StateNotKept.self ? .stateReported(target: source, state: new) : .stateChanged(target: source, old: old, new: new)
        case .lost(let count): kind = .lost(count: count)
        }
        return ShellRecord(kind, link: record.link, traceTime: record.traceTime)
    }

    public func settled(timeout: Duration) async -> Bool {
        await cluster.settled(timeout: timeout)
    }

    public var workInFlight: Int? { cluster.workInFlight }

    public func sessionStarted() {
        cluster.hub.oldStates.restart()
    }

    public func settled(timeout: Duration, beyond baseline: Int) async -> Bool {
        await cluster.settled(timeout: timeout, beyond: baseline)
    }

    /// Shuts the cluster down (a `ShellApp` does when the shell ends).
    public func shutDown() async {
        await cluster.shutDown()
        await afterShutDown()
    }

    public func state(of target: String) async -> (any Sendable)? {
        guard let read = cluster.target(named: target)?.state else { return nil }
        return await read()
    }

    public var declaresInvariants: Bool { !invariantTargets.isEmpty }

    /// The cluster's own reset (Trellis' `Cluster.reset()`): each change comes as a record.
    public func reset() async throws {
        try await cluster.reset()
    }

    /// Trellis' `Cluster.unresettableTargets`: actor models that are not `ResettableModel`s.
    public var unresettableTargets: [String] { cluster.unresettableTargets }

    /// Trellis' `Cluster.snapshot()`: value stores, Karc models and `Restorable` models.
    public func snapshot() async throws -> RestorableStates {
        let snapshot = await cluster.snapshot()
        return RestorableStates(states: snapshot.states, left: snapshot.left)
    }

    /// Trellis' `Cluster.restore(_:)`, in the trace `span` (its root named `restore`).
    public func restore(_ states: [String: any Sendable], span: UInt64) async throws {
        try await TraceLink(trace: span, span: span, parent: nil, origin: "restore").whileCurrent {
            try await cluster.restore(ClusterSnapshot(states: states))
        }
    }

    public func restorableStateType(of target: String) -> (any Sendable.Type)? {
        cluster.restorableStateType(of: target)
    }

    /// Each target's invariants (Trellis' `Invariant`) checked on its state now; nothing to read when none are declared.
    public func brokenInvariants() async -> [String] {
        guard !invariantTargets.isEmpty else { return [] }
        var broken: [String] = []
        for target in invariantTargets {
            guard let read = target.state else { continue }
            let state = await read()
            for invariant in target.invariants + invariants where invariant.holds(for: state) == false {
                broken.append("'\(invariant.name)' of \(target.name)")
            }
        }
        return broken
    }
}
