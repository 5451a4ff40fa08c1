import Karc
import KarcAsync

/// A Karc model mounted in a cluster: the cluster sets it up at bootstrap,
/// routes its `Command` type to its domain (the reply is the domain's answer),
/// reports its events and changes of state to observers, counts its pipes'
/// work for ``Cluster/settled(timeout:)``, and tears it down at shut-down.
///
/// ```swift
/// let cluster = try await Bootstrap {
///     CounterModel.service(.init(environ: Environ()))
/// }
/// let count = try await cluster.send(action: Increment(by: 2))
/// ```
public struct ModelService<Command: Sendable, State: Sendable>: PrimitiveService {
    let modelType: String
    /// The model's `uid`, under which it reports its events and changes.
    let modelUid: String
    let commands: [Any.Type]
    let events: [Any.Type]
    let setUp: @Sendable () async throws -> Void
    let tearDown: @Sendable () async -> Void
    let send: @Sendable (Command) async throws -> any Sendable
    let state: @Sendable () async -> State
    /// Puts a state in place of the model's, as a reduction would.
    let restore: @Sendable (State) async throws -> Void
    /// Whether two states differ (the model's `State` is `Equatable`).
    let differ: @Sendable (State, State) -> Bool

    func build(_ context: BuildContext) async throws -> ServiceNode {
        let cluster = context.cluster
        let name = cluster.register(
            name: context.name ?? modelType, kind: .model, accepts: commands, events: events, invariants: context.invariants
        ) { await state() }
        let monitor = TargetMonitor(hub: cluster.hub, modelUid: modelUid, target: name)
        try await ModelMount.$current.withValue(ModelMount(activity: cluster.activity, monitor: monitor)) {
            try await setUp()
        }
        cluster.onShutDown(tearDown)
        cluster.onReset(name) { [setUp, tearDown, state, differ] in
            let old = await state()
            await tearDown()
            try await ModelMount.$current.withValue(ModelMount(activity: cluster.activity, monitor: monitor)) { try await setUp() }
            let new = await state()
            if cluster.hub.hasSubscribers, differ(old, new) { cluster.hub.publish(.stateChanged(source: name, old: old, new: new)) }
        }
        cluster.onRestore(
            name,
            Cluster.Restorer(stateType: State.self) { [restore] state in
                guard let state = state as? State else { return }
                try await restore(state)
            })
        let send = self.send
        return .leaf(
            ServiceLeaf(target: name, accepts: { $0 is Command }, environment: context.boundEnvironment) { action in
                guard let command = action as? Command else { return ServiceResult() }
                return ServiceResult(reply: try await send(command))
            })
    }
}

extension Model {
    /// This model as a service of a cluster, set up with `config` at bootstrap.
    ///
    /// - Parameter commands: the concrete command types, for tooling (the
    ///   shell's help and completion); defaults to `Command` itself.
    /// - Parameter events: the concrete event types it emits, for tooling (the
    ///   shell checks `:wait` and `:events` names against them); by default
    ///   none are listed, and the shell accepts any name.
    public static func service(_ config: Config, commands: [Any.Type]? = nil, events: [Any.Type]? = nil) -> ModelService<Command, State> {
        let id = config.id
        return ModelService(
            modelType: "\(Self.self)",
            modelUid: uid(id: id),
            commands: commands ?? [Command.self],
            events: events ?? [],
            setUp: { try await setUp(config) },
            tearDown: { await tearDown(id: id) },
            send: { command in try await Domain.get(id: id).send(command) },
            state: { await Domain.getOrDefault(id: id).state },
            restore: { try await Domain.get(id: id).restore(state: $0) },
            differ: { $0 != $1 }
        )
    }
}

/// Reports a mounted model's events and changes of state under its target name.
struct TargetMonitor: ModelMonitor {
    let hub: ObservationHub
    let modelUid: String
    let target: String

    private func source(_ model: String) -> String {
        // Submodels inherit the mount; they report under their own uid.
        model == modelUid ? target : model
    }

    func emitted(model: String, event: any Sendable) {
        hub.publish(.emitted(source: source(model), event: event))
    }

    func stateChanged(model: String, old: any Sendable, new: any Sendable) {
        hub.publish(.stateChanged(source: source(model), old: old, new: new))
    }

    func name(of model: String) -> String { source(model) }

    func pipeFailed(model: String, pipe: String, error: any Error, recovering: Bool) {
        hub.publish(.failed(sequence: 0, error: ModelPipeFailure(target: source(model), pipe: pipe, error: error, recovering: recovering)))
    }
}
