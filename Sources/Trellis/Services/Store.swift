import KarcAsync
import Synchronization

/// A service around one model: it changes the model only in its
/// `mutate(on:_:)` handlers, for the actions they name.
///
/// The model is an actor (handlers get the actor) or an `Equatable` value
/// (handlers get it `inout`, one at a time, and the store keeps every change). It comes from a
/// `.with(model:)` above the store, so tests can inject another one. Each
/// store owns its own model cell: two sibling stores of one model type never
/// share state.
///
/// When the model conforms to ``StatefulModel`` (or is an `Equatable` value),
/// the cluster reports each change of its state to observers.
public struct Store<Model: Sendable>: PrimitiveService {
    let handlers: [StoreHandler<Model>]

    /// A store of `model`; give it its value with `with(model:)`.
    public init(model: Model.Type) {
        self.handlers = []
    }

    init(handlers: [StoreHandler<Model>]) { self.handlers = handlers }

    func adding(_ handler: StoreHandler<Model>) -> Store {
        Store(handlers: handlers + [handler])
    }

    func build(_ context: BuildContext) async throws -> ServiceNode {
        guard let model = context.models[ObjectIdentifier(Model.self)] as? Model else {
            throw TrellisError.missingModel(store: "Store<\(Model.self)>", path: context.pathDescription)
        }
        let cell = StoreCell(model)
        let reader = StateReader.make(for: Model.self) { cell.current }
        let target = context.cluster.register(
            name: context.name ?? "\(Model.self)",
            kind: .store,
            accepts: handlers.map(\.actionType),
            invariants: context.invariants,
            state: reader?.read
        )
        let report = StateReport(reader: reader, source: target, hub: context.cluster.hub)
        if let resettable = model as? any ResettableModel {
            context.cluster.onReset(target) { try await report.around { await resettable.reset() } }
        } else if !(Model.self is AnyObject.Type) {
            // A value model: the value `.with(model:)` gave, back through the cell (its lock, its report).
            context.cluster.onReset(target) { try await cell.mutate(reporting: report) { $0 = model } }
        }
        if let restorable = model as? any Restorable {
            context.cluster.onRestore(target, restorable.restorer(report: report))
        } else if !(Model.self is AnyObject.Type), !(Model.self is any StatefulModel.Type) {
            // A value model shows itself: a state it showed is a model to put in the cell.
            context.cluster.onRestore(
                target,
                Cluster.Restorer(stateType: Model.self) { state in
                    guard let state = state as? Model else { return }
                    try await cell.mutate(reporting: report) { $0 = state }
                })
        }
        let send = context.environment.send
        let leaves = handlers.map { handler in
            let runs = handler.runs(cell, send, report)
            return ServiceNode.leaf(
                ServiceLeaf(
                    target: target, accepts: handler.accepts, environment: context.boundEnvironment,
                    run: runs.run, runLinked: runs.runLinked)
            )
        }
        return .children(leaves, serial: true)
    }
}

/// A model that shows its state to observers of the cluster (the shell diffs it).
///
/// An actor conforms with an isolated `var state`.
public protocol StatefulModel: Sendable {
    /// The model's state type.
    associatedtype State: Equatable & Sendable
    /// The model's state now.
    var state: State { get async }
}

struct StoreHandler<Model: Sendable>: Sendable {
    let actionType: Any.Type
    let accepts: @Sendable (any Sendable) -> Bool
    /// The leaf's runs of the handler on a store's cell, with its send and
    /// its report, made once when the store is built: a send's leaf calls the
    /// handler with no closure between (an async call on the way is a switch
    /// of executor more a send, docs/performance.md).
    let runs: @Sendable (StoreCell<Model>, Send, StateReport) -> StoreLeafRuns
}

/// A store handler's ``ServiceLeaf/run`` and ``ServiceLeaf/runLinked``.
struct StoreLeafRuns: Sendable {
    let run: nonisolated(nonsending) @Sendable (any Sendable) async throws -> ServiceResult
    let runLinked: nonisolated(nonsending) @Sendable (any Sendable, TraceLink) async throws -> ServiceResult

    /// Runs `body(action, send, link)`: reporting the change of state it
    /// made as the work of the send's link, when one is given.
    static func calling(
        _ send: Send, _ body: nonisolated(nonsending) @escaping @Sendable (any Sendable, Send, TraceLink?) async throws -> Void
    ) -> StoreLeafRuns {
        StoreLeafRuns(
            run: { action in
                try await body(action, send, nil)
                return ServiceResult()
            },
            runLinked: { action, link in
                try await body(action, send.linked(link), link)
                return ServiceResult()
            })
    }
}

extension Store where Model: Actor {
    /// Handles actions of type `A` (a concrete type, a protocol or an enum)
    /// on the model actor: the handler is isolated to it, so it calls the
    /// model without `await` and no other handler runs between its steps
    /// (until it suspends).
    public func mutate<A: Sendable>(on _: A.Type, _ handler: @escaping @Sendable (isolated Model, A, Send) async throws -> Void) -> Store {
        // Written out, not through `StoreLeafRuns.calling`: the closure between is an async call more a send.
        adding(
            StoreHandler(actionType: A.self, accepts: { $0 is A }) { cell, send, report in
                StoreLeafRuns(
                    run: { action in
                        if let action = action as? A { try await Self.perform(on: cell.current, action, send, report, nil, handler) }
                        return ServiceResult()
                    },
                    runLinked: { action, link in
                        if let action = action as? A {
                            try await Self.perform(on: cell.current, action, send.linked(link), report, link, handler)
                        }
                        return ServiceResult()
                    })
            })
    }

    /// One hop onto the model for the handler and both state reads around it.
    /// ``StateReport/around(link:_:)`` written out: its call, and its body's,
    /// were two async calls more a send, observed or not.
    private static func perform<A>(
        on model: isolated Model, _ action: A, _ send: Send, _ report: StateReport, _ link: TraceLink?,
        _ handler: @Sendable (isolated Model, A, Send) async throws -> Void
    ) async throws {
        guard let reader = report.reader, report.hub.hasSubscribers else { return try await handler(model, action, send) }
        var failure: (any Error)?
        await reader.watch(report.source, report.hub, link) {
            do { try await handler(model, action, send) } catch { failure = error }
        }
        if let failure { throw failure }
    }
}

// Value models are `Equatable`: that tells the two `mutate` forms apart (an actor
// is not Equatable), and it is what change reports compare.
extension Store where Model: Equatable {
    /// Handles actions of type `A` by changing the value model in place.
    ///
    /// Handlers run one at a time. An action the handler sends to this same
    /// store (directly, through a middleware's redirect, or through other
    /// services it reaches) runs once the handler has returned and its change
    /// is kept: `send` returns at once for it, and an error it throws is
    /// thrown to whoever sent the action this handler is handling.
    public func mutate<A: Sendable>(on _: A.Type, _ handler: @escaping @Sendable (inout Model, A, Send) async throws -> Void) -> Store {
        adding(
            StoreHandler(actionType: A.self, accepts: { $0 is A }) { cell, send, report in
                .calling(send) { action, send, link in
                    guard let action = action as? A else { return }
                    try await cell.mutate(reporting: report, link: link) { model in try await handler(&model, action, send) }
                }
            })
    }

    /// Handles actions of type `A` by changing the value model in place,
    /// with a handler that does not suspend: chosen for a closure with no
    /// `await` in it. The same as the handler that may suspend, but the
    /// model is changed where it lies, so a change costs what it changes,
    /// not a copy of the whole model.
    public func mutate<A: Sendable>(on _: A.Type, _ handler: @escaping @Sendable (inout Model, A, Send) throws -> Void) -> Store {
        adding(
            StoreHandler(actionType: A.self, accepts: { $0 is A }) { cell, send, report in
                .calling(send) { action, send, link in
                    guard let action = action as? A else { return }
                    try await cell.mutateInPlace(reporting: report, link: link) { model in try handler(&model, action, send) }
                }
            })
    }
}
