@_spi(KarcInternal) import KarcAsync

/// The states of a cluster's targets at one moment, for
/// ``Cluster/restore(_:)``: every target that can be restored, and the
/// names of those that cannot (their state is left as it is).
public struct ClusterSnapshot: Sendable {
    /// Each restorable target's state, by target name.
    public let states: [String: any Sendable]
    /// The targets that show a state but cannot be restored (an actor
    /// model that is not ``Restorable``), in declaration order.
    public let left: [String]

    /// A snapshot of `states`; `left` names the targets it leaves out.
    public init(states: [String: any Sendable], left: [String] = []) {
        self.states = states
        self.left = left
    }
}

extension Cluster {
    /// How one target takes a state back.
    struct Restorer: Sendable {
        /// The type of the state it takes.
        let stateType: any Sendable.Type
        /// Puts the state (of `stateType`) in place.
        let restore: @Sendable (any Sendable) async throws -> Void
    }

    /// The targets whose state ``restore(_:)`` can put back, in declaration
    /// order: value stores, Karc models, and models that are ``Restorable``.
    public var restorableTargets: [String] {
        let restorers = restorers.withLock { $0 }
        return targets.map(\.name).filter { restorers[$0] != nil }
    }

    /// The type of the state `target` takes back; nil when it cannot be restored.
    public func restorableStateType(of target: String) -> (any Sendable.Type)? {
        restorers.withLock { $0[target]?.stateType }
    }

    /// The state of every target that can be restored, and the names of
    /// those that show a state but cannot be.
    ///
    /// A value store's state is shared with the snapshot: the store's next
    /// change copies what it changes, once.
    public func snapshot() async -> ClusterSnapshot {
        let restorers = restorers.withLock { $0 }
        var states: [String: any Sendable] = [:]
        var left: [String] = []
        for target in targets {
            guard let read = target.state else { continue }
            guard restorers[target.name] != nil else {
                left.append(target.name)
                continue
            }
            states[target.name] = await read()
        }
        return ClusterSnapshot(states: states, left: left)
    }

    /// Puts each target of `snapshot` back to the state it holds, through
    /// the runtime: a value store takes the value (behind the handler it is
    /// running), a Karc model takes the state as a reduction would have
    /// made it (its scopes follow), a ``Restorable`` model its `restore`.
    /// Observers see each change of state, in a trace whose root is named
    /// `restore` (or in the trace of the work calling this).
    ///
    /// Every state is checked first: a target that does not exist, cannot be
    /// restored, or takes another type stops the restore before anything
    /// changed. Targets the snapshot does not name keep their state. What
    /// the cluster did outside itself (a message sent) is not undone.
    ///
    /// - Throws: ``TrellisError/unknownTarget(name:targets:)``,
    ///   ``TrellisError/notRestorable(target:)``,
    ///   ``TrellisError/restoreTypeMismatch(target:expected:given:)`` before
    ///   any change; ``TrellisError/shutDown``; the first error a
    ///   ``Restorable`` model threw (the targets after it keep their state).
    public func restore(_ snapshot: ClusterSnapshot) async throws {
        if routing.withLock({ $0.isShutDown }) { throw TrellisError.shutDown }
        let restorers = restorers.withLock { $0 }
        let names = targets.map(\.name)
        for (target, state) in snapshot.states.sorted(by: { $0.key < $1.key }) {
            guard names.contains(target) else { throw TrellisError.unknownTarget(name: target, targets: names) }
            guard let restorer = restorers[target] else { throw TrellisError.notRestorable(target: target) }
            guard type(of: state as Any) == restorer.stateType else {
                throw TrellisError.restoreTypeMismatch(target: target, expected: "\(restorer.stateType)", given: "\(type(of: state as Any))")
            }
        }
        let steps = names.compactMap { name in snapshot.states[name].flatMap { state in restorers[name].map { (state, $0) } } }
        let link = TraceLink.current ?? TraceLink.child(of: nil, span: TraceLink.newSpanID(), origin: "restore")
        try await link.whileCurrent {
            try await pool.makeCurrent {
                for (state, restorer) in steps { try await restorer.restore(state) }
            }
        }
    }

    /// Registers how the target `target` takes its state back (``restore(_:)``).
    func onRestore(_ target: String, _ restorer: Restorer) {
        restorers.withLock { $0[target] = restorer }
    }
}
