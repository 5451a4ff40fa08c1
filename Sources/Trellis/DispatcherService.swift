import AsyncDispatcher

/// An AsyncDispatcher ``AsyncDispatcher/Dispatcher`` mounted in a cluster:
/// `cluster.send` dispatches its actions (awaiting them, so errors reach the
/// sender) and observers see its state change when it is a ``StatefulModel``.
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
        let target = cluster.register(name: context.name ?? "\(D.self)", kind: .dispatcher, accepts: actions, state: reader?.read)
        let report = StateReport(reader: reader, source: target, hub: cluster.hub)
        return .leaf(ServiceLeaf(accepts: { $0 is any AsyncDispatcher.Action<D> }) { action in
            guard let action = action as? any AsyncDispatcher.Action<D> else { return ServiceResult() }
            try await report.around { try await dispatcher.dispatch(action) }
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
