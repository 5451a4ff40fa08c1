import KarcAsync
import Synchronization

/// A service around one model: it changes the model only in its
/// ``mutate(on:_:)`` handlers, for the actions they name.
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
        let reader = StateReader.make(for: Model.self, cell: cell)
        let target = context.cluster.register(
            name: context.name ?? "\(Model.self)",
            kind: .store,
            accepts: handlers.map(\.actionType),
            state: reader?.read
        )
        let hub = context.cluster.hub
        let send = context.environment.send
        let leaves = handlers.map { handler in
            ServiceNode.leaf(ServiceLeaf(accepts: handler.accepts) { action in
                try await handler.run(cell, action, send, StateReport(reader: reader, source: target, hub: hub))
                return ServiceResult()
            })
        }
        return .children(leaves, serial: true)
    }
}

/// A model that shows its state to observers of the cluster (the shell diffs it).
///
/// An actor conforms with an isolated `var state`.
public protocol StatefulModel: Sendable {
    associatedtype State: Equatable & Sendable
    var state: State { get async }
}

struct StoreHandler<Model: Sendable>: Sendable {
    let actionType: Any.Type
    let accepts: @Sendable (any Sendable) -> Bool
    /// Runs the handler and reports the change of state it made.
    let run: @Sendable (StoreCell<Model>, any Sendable, Send, StateReport) async throws -> Void
}

/// Where a handler reports a change of its store's state.
struct StateReport: Sendable {
    let reader: StateReader?
    let source: String
    let hub: ObservationHub

    /// Runs `body` and reports the change of state it made (also when it
    /// throws). Without an observer there is nobody to tell: no state is read.
    /// Runs on the caller's actor, so a handler isolated to its model reads
    /// the state without leaving it.
    nonisolated(nonsending) func around<T>(_ body: nonisolated(nonsending) () async throws -> T) async throws -> T {
        try await StateReader.reporting(reader, source: source, hub: hub, body)
    }
}

/// The model a store owns. Value models are changed one handler at a time.
final class StoreCell<Model: Sendable>: Sendable {
    private let value: Mutex<Model>
    private let lock = AsyncLock()

    init(_ model: Model) { value = Mutex(model) }

    var current: Model { value.withLock { $0 } }

    /// Runs `body` on the value alone; changes are kept even when it throws.
    func mutate(_ body: @escaping @Sendable (inout Model) async throws -> Void) async throws {
        try await lock.withLock {
            var model = self.value.withLock { $0 }
            defer { self.value.withLock { [model] in $0 = model } }
            try await body(&model)
        }
    }
}

/// Reads a store's state, typed, for change reports.
struct StateReader: Sendable {
    let read: nonisolated(nonsending) @Sendable () async -> any Sendable
    let changed: @Sendable (any Sendable, any Sendable) -> Bool

    /// Runs `body` and reports the change of state it made (also when it
    /// throws). Without an observer there is nobody to tell: no state is read.
    nonisolated(nonsending) static func reporting<T>(
        _ reader: StateReader?, source: String, hub: ObservationHub, _ body: nonisolated(nonsending) () async throws -> T
    ) async throws -> T {
        guard let reader, hub.hasSubscribers else { return try await body() }
        let old = await reader.read()
        do {
            let result = try await body()
            await reader.reportChange(from: old, source: source, hub: hub)
            return result
        } catch {
            await reader.reportChange(from: old, source: source, hub: hub)
            throw error
        }
    }

    nonisolated(nonsending) func reportChange(from old: any Sendable, source: String, hub: ObservationHub) async {
        guard hub.hasSubscribers else { return }
        let new = await read()
        if changed(old, new) { hub.publish(.stateChanged(source: source, old: old, new: new)) }
    }

    static func make<Model: Sendable>(for _: Model.Type, cell: StoreCell<Model>) -> StateReader? {
        if let stateful = Model.self as? any StatefulModel.Type {
            return stateful.reader { cell.current }
        }
        if let equatable = Model.self as? any (Equatable & Sendable).Type {
            return equatable.valueReader(cell: cell)
        }
        return nil
    }
}

extension StatefulModel {
    /// Reads the state of the model `current` returns (a `Self`, typed `Any` where the caller cannot name it).
    static func reader(_ current: @escaping @Sendable () -> any Sendable) -> StateReader {
        StateReader(
            // Proof for `as!`: every caller opens `Model.self as? any StatefulModel.Type`, so `current()` is a `Self`.
            read: { await (current() as! Self).state },
            changed: { ($0 as? State) != ($1 as? State) }
        )
    }
}

extension Equatable where Self: Sendable {
    static func valueReader<Model>(cell: StoreCell<Model>) -> StateReader {
        StateReader(
            read: { cell.current },
            changed: { ($0 as? Self) != ($1 as? Self) }
        )
    }
}

extension Store where Model: Actor {
    /// Handles actions of type `A` (a concrete type, a protocol or an enum)
    /// on the model actor: the handler is isolated to it, so it calls the
    /// model without `await` and no other handler runs between its steps
    /// (until it suspends).
    public func mutate<A: Sendable>(on _: A.Type, _ handler: @escaping @Sendable (isolated Model, A, Send) async throws -> Void) -> Store {
        adding(StoreHandler(actionType: A.self, accepts: { $0 is A }) { cell, action, send, report in
            guard let action = action as? A else { return }
            try await Self.perform(on: cell.current, action, send, report, handler)
        })
    }

    /// One hop onto the model for the handler and both state reads around it.
    private static func perform<A>(
        on model: isolated Model, _ action: A, _ send: Send, _ report: StateReport,
        _ handler: @Sendable (isolated Model, A, Send) async throws -> Void
    ) async throws {
        try await report.around { try await handler(model, action, send) }
    }
}

// Value models are `Equatable`: that tells the two `mutate` forms apart (an actor
// is not Equatable), and it is what change reports compare.
extension Store where Model: Equatable {
    /// Handles actions of type `A` by changing the value model in place.
    public func mutate<A: Sendable>(on _: A.Type, _ handler: @escaping @Sendable (inout Model, A, Send) async throws -> Void) -> Store {
        adding(StoreHandler(actionType: A.self, accepts: { $0 is A }) { cell, action, send, report in
            guard let action = action as? A else { return }
            try await report.around {
                try await cell.mutate { model in try await handler(&model, action, send) }
            }
        })
    }
}
