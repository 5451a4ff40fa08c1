extension Cluster {
    /// Puts the cluster back as ``Bootstrap(_:)`` left it, for a logout or
    /// between test cases ("reset the dispatcher", in the classic seed's
    /// words): every value store gets back the model its `.with(model:)`
    /// gave, every actor store, dispatcher or receiving service whose model
    /// is a ``ResettableModel`` resets it, every Karc model is torn down and
    /// set up again with its config, every component tree is bound again,
    /// and the history is cleared. Observers see each change of state as usual.
    ///
    /// The targets ``unresettableTargets`` names (an actor model that is not
    /// a ``ResettableModel``) keep their state: check it first when a state
    /// half reset would be one the app cannot otherwise reach.
    ///
    /// Services reset in declaration order, each behind the sends it is
    /// handling (a value store's lock); a send that arrives meanwhile sees the
    /// state before or after its service's reset. Bootstrap handlers and
    /// emitters do not run again.
    ///
    /// - Throws: ``TrellisError/shutDown`` after ``shutDown()``; the first
    ///   error a model's set-up threw (the services after it keep their state).
    public func reset() async throws {
        if routing.withLock({ $0.isShutDown }) { throw TrellisError.shutDown }
        let steps = resets.withLock { $0.map(\.step) }
        try await pool.makeCurrent {
            for step in steps { try await step() }
        }
        clearHistory()
    }

    /// The targets ``reset()`` puts back, in declaration order: value
    /// stores, Karc models, component trees, and models that are ``ResettableModel``s.
    public var resettableTargets: [String] {
        let reset = Set(resets.withLock { $0.map(\.target) })
        return targets.map(\.name).filter(reset.contains)
    }

    /// The targets that show a state ``reset()`` cannot put back (an actor
    /// model that is not a ``ResettableModel``), in declaration order: a
    /// reset leaves them as they are.
    public var unresettableTargets: [String] {
        let reset = Set(resets.withLock { $0.map(\.target) })
        return targets.filter { $0.state != nil && !reset.contains($0.name) }.map(\.name)
    }

    /// Registers how the service of the target `target` resets (``reset()``), in declaration order.
    package func onReset(_ target: String, _ step: @escaping @Sendable () async throws -> Void) {
        resets.withLock { $0.append((target, step)) }
    }
}
