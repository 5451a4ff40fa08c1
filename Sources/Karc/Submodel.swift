import KarcSynchronization

/// A scope that sets up a child model while it is active and tears it down
/// after: `ChildModel.submodel()` inside ``Model/scopes(_:_:)``.
///
/// The child shares the parent's ``Environ``.
public struct Submodel: Sendable {
    let key: ScopeKey
    let setUp: @Sendable (Environ) async throws -> Void
    let tearDown: @Sendable () async -> Void

    init(
        key: ScopeKey,
        setUp: @escaping @Sendable (Environ) async throws -> Void,
        tearDown: @escaping @Sendable () async -> Void
    ) {
        self.key = key
        self.setUp = setUp
        self.tearDown = tearDown
    }

    var scope: Scope {
        let submodel = self
        return Scope(key: key) { SubmodelRunner(submodel) }
    }
}

final class SubmodelRunner: ScopeRunner {
    let submodel: Submodel
    private let started = Locked(false)

    init(_ submodel: Submodel) { self.submodel = submodel }

    func start(_ context: ScopeContext) async {
        do {
            try await submodel.setUp(context.environ)
            started.set(true)
        } catch {
            context.logger.error("[\(context.modelUid)] \(submodel.key) could not be set up: \(error)")
        }
    }

    func stop() async {
        let wasStarted = started.withLock { value -> Bool in
            defer { value = false }
            return value
        }
        if wasStarted { await submodel.tearDown() }
    }
}
