@_spi(KarcInternal) import KarcAsync

/// A built service tree. Built once at bootstrap; for each action type the
/// cluster prunes it to the nodes that accept that type and caches the result,
/// so routing costs a dictionary lookup, never reflection.
indirect enum ServiceNode: Sendable {
    /// A handler: a store's `mutate(on:)`, a mounted model, a dispatcher.
    case leaf(ServiceLeaf)
    /// Children run one after another in declaration order (`serial`) or concurrently.
    case children([ServiceNode], serial: Bool)
    /// Errors from below become an action sent to the cluster.
    case transformError(ServiceNode, @Sendable (any Error) -> any Sendable)
    /// Observers called before the actions they accept go below.
    case observed(ServiceNode, [ActionObserver])

    /// The part of the tree that takes `action` (only in the target named
    /// `target`, when one is given), or `nil` when nothing does. Error
    /// transforms and observers above the leaves kept are kept too.
    func pruned(for action: any Sendable, target: String? = nil) -> ServiceNode? {
        switch self {
        case .leaf(let leaf):
            if let target, leaf.target != target { return nil }
            return leaf.accepts(action) ? self : nil
        case .children(let nodes, let serial):
            let kept = nodes.compactMap { $0.pruned(for: action, target: target) }
            if kept.isEmpty { return nil }
            return kept.count == 1 ? kept[0] : .children(kept, serial: serial)
        case .transformError(let node, let transform):
            return node.pruned(for: action, target: target).map { .transformError($0, transform) }
        case .observed(let node, let observers):
            let watching = observers.filter { $0.accepts(action) }
            let inner = node.pruned(for: action, target: target)
            if watching.isEmpty { return inner }
            return .observed(inner ?? .children([], serial: false), watching)
        }
    }

    /// The targets of the leaves, each once, in declaration order.
    var targets: [String] {
        var names: [String] = []
        func collect(_ node: ServiceNode) {
            switch node {
            case .leaf(let leaf): if !names.contains(leaf.target) { names.append(leaf.target) }
            case .children(let nodes, _): nodes.forEach(collect)
            case .transformError(let node, _), .observed(let node, _): collect(node)
            }
        }
        collect(self)
        return names
    }

    /// Runs the pruned tree: the first reply in declaration order, and the
    /// follow-up flows of every service. `unbound`: the send's link, made by
    /// the send and not bound in the task (``ServiceLeaf/runLinked``).
    nonisolated(nonsending) func execute(_ action: any Sendable, in cluster: Cluster, unbound: TraceLink? = nil) async throws -> ServiceResult {
        switch self {
        case .leaf(let leaf):
            // The link is given to a store's handler, and bound for any other.
            if let unbound, leaf.runLinked == nil {
                return try await unbound.whileCurrent { try await Self.leaf(leaf).execute(action, in: cluster) }
            }
            // Bound only where a subtree set values, and unbound again below one
            // (a send from such a handler reaches services that set none).
            if leaf.environment == nil, EnvironmentValues.current == nil { return try await leaf.run(action, given: unbound) }
            return try await EnvironmentValues.$current.withValue(leaf.environment) { try await leaf.run(action, given: unbound) }
        case .children(let nodes, let serial):
            if nodes.count == 1 { return try await nodes[0].execute(action, in: cluster, unbound: unbound) }
            if serial {
                var result = ServiceResult()
                for node in nodes { result.merge(try await node.execute(action, in: cluster, unbound: unbound)) }
                return result
            }
            return try await Self.concurrently(nodes, action, cluster, unbound)
        case .transformError(let node, let transform):
            do {
                return try await node.execute(action, in: cluster, unbound: unbound)
            } catch {
                // An action made from an error that fails again ends the send: it is not transformed twice.
                if ErrorTransform.isActive { throw error }
                let replacement = transform(error)
                let reply = try await ErrorTransform.$isActive.withValue(true) {
                    try await TraceLink.bound(unbound) { try await cluster.send(action: replacement) }
                }
                return ServiceResult(reply: reply)
            }
        case .observed(let node, let observers):
            for observer in observers { await TraceLink.bound(unbound) { await observer.run(action) } }
            return try await node.execute(action, in: cluster, unbound: unbound)
        }
    }

    /// Runs every node; waits for all of them, then rethrows the first error.
    private static func concurrently(
        _ nodes: [ServiceNode], _ action: any Sendable, _ cluster: Cluster, _ unbound: TraceLink?
    ) async throws -> ServiceResult {
        let results = await withTaskGroup(of: (Int, Result<ServiceResult, any Error>).self) { group in
            for (index, node) in nodes.enumerated() {
                group.addTask {
                    do { return (index, .success(try await node.execute(action, in: cluster, unbound: unbound))) } catch {
                        return (index, .failure(error))
                    }
                }
            }
            var firstError: (any Error)?
            var replies = [ServiceResult](repeating: ServiceResult(), count: nodes.count)
            for await (index, result) in group {
                switch result {
                case .success(let reply): replies[index] = reply
                case .failure(let error): if firstError == nil { firstError = error }
                }
            }
            return (firstError, replies)
        }
        if let error = results.0 { throw error }
        var result = ServiceResult()
        for reply in results.1 { result.merge(reply) }
        return result
    }
}

/// One handler of the tree. `accepts` must depend on the action's type only:
/// its answer is cached per type.
struct ServiceLeaf: Sendable {
    /// The target it belongs to (its name in the cluster).
    let target: String
    let accepts: @Sendable (any Sendable) -> Bool
    /// What `@Environment` reads while `run` runs (nil: the defaults).
    var environment: EnvironmentValues? = nil
    let run: nonisolated(nonsending) @Sendable (any Sendable) async throws -> ServiceResult
    /// ``run`` for the handler of a send whose link is not bound in the
    /// task: a store's reports and sends take it as given. A leaf without
    /// one runs with the link bound.
    var runLinked: (nonisolated(nonsending) @Sendable (any Sendable, TraceLink) async throws -> ServiceResult)? = nil

    /// Runs the handler, given `link` when it takes one (``runLinked``).
    @inline(__always)
    nonisolated(nonsending) func run(_ action: any Sendable, given link: TraceLink?) async throws -> ServiceResult {
        if let link, let runLinked { return try await runLinked(action, link) }
        return try await run(action)
    }
}

/// What the services that handled an action gave back.
struct ServiceResult: Sendable {
    /// The first reply in declaration order (a model's duplex answer).
    var reply: (any Sendable)?
    /// Follow-up flows of ``ReceivingService``s, in declaration order.
    var flows: [[any Sendable]] = []

    mutating func merge(_ other: ServiceResult) {
        if reply == nil { reply = other.reply }
        flows += other.flows
    }
}

/// An `.observe` handler.
struct ActionObserver: Sendable {
    let accepts: @Sendable (any Sendable) -> Bool
    let run: @Sendable (any Sendable) async -> Void
}

enum ErrorTransform {
    /// Set while the action made from an error is sent.
    @TaskLocal static var isActive = false
}
