import AsyncDispatcher
import KarcAsync
import KarcSynchronization
import Synchronization

/// An AsyncDispatcher `Dispatcher` mounted in a cluster:
/// `cluster.send` dispatches its actions (awaiting them, so errors reach the
/// sender) and observers see its state change when it is a ``StatefulModel``.
/// A dispatcher that is a ``ResettableModel`` is reset by ``Cluster/reset()``,
/// one that is ``Restorable`` restored by ``Cluster/restore(_:)``.
///
/// ```swift
/// let cluster = try await Bootstrap {
///     counterStore.service(actions: [CounterStore.Increment.self, CounterStore.Reset.self])
/// }
/// try await cluster.send(action: CounterStore.Increment())
/// ```
public struct DispatcherService<D: Dispatcher>: PrimitiveService {
    let dispatcher: D
    let actions: [any AsyncDispatcher.Action<D>.Type]

    func build(_ context: BuildContext) async throws -> ServiceNode {
        let dispatcher = self.dispatcher
        let reader = StateReader.stateful(for: D.self) { dispatcher }
        let cluster = context.cluster
        let target = cluster.register(
            name: context.name ?? "\(D.self)", kind: .dispatcher, accepts: actions, invariants: context.invariants, state: reader?.read)
        let report = StateReport(reader: reader, source: target, hub: cluster.hub)
        let routes = ActionRoutes(dispatching: dispatcher)
        if let resettable = dispatcher as? any ResettableModel {
            cluster.onReset(target) { try await report.around { await resettable.reset() } }
        }
        if let restorable = dispatcher as? any Restorable { cluster.onRestore(target, restorable.restorer(report: report)) }
        return .leaf(
            ServiceLeaf(target: target, accepts: { routes.route(for: $0) != nil }, environment: context.boundEnvironment) { action in
                guard let route = routes.route(for: action) else { return ServiceResult() }
                try await report.around { try await route(action) }
                return ServiceResult()
            })
    }
}

extension Dispatcher {
    /// This dispatcher as a service of a cluster. It takes every action whose
    /// `Dispatcher` is this type; `actions` lists them for tooling (the
    /// shell's help and completion).
    public nonisolated func service(actions: [any AsyncDispatcher.Action<Self>.Type]) -> DispatcherService<Self> {
        DispatcherService(dispatcher: self, actions: actions)
    }
}

/// How to dispatch each action type, worked out once per type.
///
/// Whether an action is an `Action<D>` takes a cast to a constrained
/// existential, which the runtime answers by demangling a type name every
/// time: a tenth of what a shell command cost. Here that cast runs once per
/// action type, to open the existential and keep a route that casts to the
/// concrete type, a comparison of type pointers. Not generic itself: the
/// table's type then names no `D`, so reading it looks up no metadata.
final class ActionRoutes: Sendable {
    /// Dispatches an action (of the type it was made for) to the dispatcher.
    typealias Route = @Sendable (any Sendable) async throws -> Void

    private let routes = KarcMutex<[ObjectIdentifier: Route?]>([:])
    /// The route for an action's type, worked out (the cast above); nil when it is not an action of the dispatcher.
    private let make: @Sendable (any Sendable) -> Route?

    init<D: Dispatcher>(dispatching dispatcher: D) {
        make = { action in (action as? any AsyncDispatcher.Action<D>).map { Self.route(for: $0, to: dispatcher) } }
    }

    /// The route for `action`'s type; nil when it is not an action of the dispatcher.
    func route(for action: any Sendable) -> Route? {
        let key = ObjectIdentifier(type(of: action))
        if let known = routes.withLock({ $0[key] }) { return known }
        let route = make(action)
        routes.withLock { $0[key] = route }
        return route
    }

    private static func route<A: AsyncDispatcher.Action>(for _: A, to dispatcher: A.Dispatcher) -> Route {
        { action in
            // Routes are kept by the action's dynamic type, so this cast succeeds.
            guard let action = action as? A else { return }
            try await dispatcher.dispatch(action)
        }
    }
}
