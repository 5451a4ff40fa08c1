import KarcAsync

/// A service with a modifier applied; what the modifier methods of ``Service`` return.
public struct ModifiedService<Content: Service>: PrimitiveService {
    let content: Content
    let modify: @Sendable (BuildContext, Content) async throws -> ServiceNode

    func build(_ context: BuildContext) async throws -> ServiceNode {
        try await modify(context, content)
    }
}

extension Service {
    func modified(_ modify: @escaping @Sendable (BuildContext, Self) async throws -> ServiceNode) -> ModifiedService<Self> {
        ModifiedService(content: self, modify: modify)
    }

    func withContext(_ change: @escaping @Sendable (inout BuildContext) -> Void) -> ModifiedService<Self> {
        modified { context, content in
            var context = context
            change(&context)
            return try await buildService(content, context)
        }
    }

    /// Runs the services under it one after another, in declaration order; the
    /// first one that throws stops the rest.
    public func serial() -> ModifiedService<Self> { withContext { $0.serial = true } }

    /// Runs the services under it concurrently (the default).
    public func concurrent() -> ModifiedService<Self> { withContext { $0.serial = false } }

    /// Gives `model` to every `Store(model: M.self)` under it.
    public func with<M: Sendable>(model: M) -> ModifiedService<Self> {
        withContext { $0.models[ObjectIdentifier(M.self)] = model }
    }

    /// Sets an environment value for the services under it, e.g.
    /// `.environment(\.send, recordingSend)` in a test.
    public func environment<V: Sendable>(_ keyPath: WritableKeyPath<EnvironmentValues, V> & Sendable, _ value: V) -> ModifiedService<Self> {
        withContext {
            $0.environment[keyPath: keyPath] = value
            $0.environment.isCustomized = true
        }
    }

    /// Names the target below (a store or a model) for observers and the shell.
    public func named(_ name: String) -> ModifiedService<Self> { withContext { $0.name = name } }

    /// Turns errors thrown by the services under it into an action sent to the
    /// cluster; the send succeeds when that action is handled. An action made
    /// from an error that fails again is not transformed again: the send throws.
    public func transformError(_ transform: @escaping @Sendable (any Error) -> any Sendable) -> ModifiedService<Self> {
        modified { context, content in
            .transformError(try await buildService(content, context), transform)
        }
    }

    /// Calls `handler` with each action of type `A` the services under it receive, before they handle it.
    public func observe<A: Sendable>(on _: A.Type, _ handler: @escaping @Sendable (A) async -> Void) -> ModifiedService<Self> {
        observing(
            ActionObserver(accepts: { $0 is A }) { action in
                if let action = action as? A { await handler(action) }
            })
    }

    /// Calls `handler` each time the services under it receive an action of type `A`.
    public func observe<A: Sendable>(on type: A.Type, _ handler: @escaping @Sendable () async -> Void) -> ModifiedService<Self> {
        observe(on: type) { (_: A) in await handler() }
    }

    /// Calls `handler` each time the services under it receive an action equal to `value`.
    public func observe<A: Equatable & Sendable>(on value: A, _ handler: @escaping @Sendable () async -> Void) -> ModifiedService<Self> {
        // Routing is cached per type, so the type decides the route and the value is checked on each action.
        observing(
            ActionObserver(accepts: { $0 is A }) { action in
                if (action as? A) == value { await handler() }
            })
    }

    /// Calls `handler` with every action the services under it receive.
    public func observe(_ handler: @escaping @Sendable (any Sendable) async -> Void) -> ModifiedService<Self> {
        observing(ActionObserver(accepts: { _ in true }, run: handler))
    }

    private func observing(_ observer: ActionObserver) -> ModifiedService<Self> {
        modified { context, content in
            .observed(try await buildService(content, context), [observer])
        }
    }

    /// Runs `handler` once the cluster is built, before ``Bootstrap(_:)``
    /// returns, to initialise models or send start-up actions.
    public func bootstrap(_ handler: @escaping @Sendable () async throws -> Void) -> ModifiedService<Self> {
        modified { context, content in
            let node = try await buildService(content, context)
            context.cluster.atStartUp(.init(run: handler))
            return node
        }
    }

    /// Feeds each action `actions` yields to the services under it.
    ///
    /// With `consumeAtBootstrap`, ``Bootstrap(_:)`` consumes the whole sequence
    /// before it returns (for a finite start-up sequence); otherwise the
    /// sequence is consumed in the background while the cluster lives.
    public func emit<S: AsyncSequence & Sendable>(using actions: S, consumeAtBootstrap: Bool = false) -> ModifiedService<Self>
    where S.Element: Sendable {
        modified { context, content in
            let node = try await buildService(content, context)
            let cluster = context.cluster
            // Each action is the root of a trace of its own, named after the emitter's targets.
            let origin = "emitter \(node.targets.joined(separator: ","))"
            let feed: @Sendable () async -> Void = { [weak cluster] in
                do {
                    for try await action in actions {
                        // Weak: a dropped cluster stops its emitters instead of being kept alive by them.
                        guard let cluster, !Task.isCancelled else { return }
                        _ = try? await TraceCarrier.none.run {
                            try await cluster.process(action, through: node, redirected: false, origin: origin)
                        }
                    }
                } catch {
                    cluster?.hub.publish(.failed(sequence: 0, error: error))
                }
            }
            cluster.atStartUp(.init(run: consumeAtBootstrap ? feed : nil, background: consumeAtBootstrap ? nil : feed))
            return node
        }
    }
}
