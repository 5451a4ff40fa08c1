extension Cluster {
    /// Puts the cluster back as ``Bootstrap(_:)`` left it, for a logout or
    /// between test cases ("reset the dispatcher", in the classic seed's
    /// words): every value store gets back the model its `.with(model:)`
    /// gave, every actor store whose model is a ``ResettableModel`` resets it,
    /// every Karc model is torn down and set up again with its config, and
    /// the history is cleared. Observers see each change of state as usual.
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
        let steps = resets.withLock { $0 }
        try await pool.makeCurrent {
            for step in steps { try await step() }
        }
        clearHistory()
    }

    /// Registers how a service resets (``reset()``), in declaration order.
    package func onReset(_ step: @escaping @Sendable () async throws -> Void) {
        resets.withLock { $0.append(step) }
    }
}
