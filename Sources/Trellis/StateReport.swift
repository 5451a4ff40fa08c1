/// Reads a target's state, typed, for change reports.
struct StateReader: Sendable {
    let read: nonisolated(nonsending) @Sendable () async -> any Sendable
    let changed: @Sendable (any Sendable, any Sendable) -> Bool

    /// A reader for a model of type `Model` that `current` returns: its
    /// ``StatefulModel/state``, else the value itself when it is `Equatable`;
    /// `nil` when the model shows no state.
    static func make<Model: Sendable>(for model: Model.Type, _ current: @escaping @Sendable () -> Model) -> StateReader? {
        if let stateful = stateful(for: model, current) { return stateful }
        if let equatable = Model.self as? any (Equatable & Sendable).Type {
            return equatable.valueReader { current() }
        }
        return nil
    }

    /// A reader of the ``StatefulModel/state`` of what `current` returns; `nil` when `Model` is not a `StatefulModel`.
    static func stateful<Model: Sendable>(for _: Model.Type, _ current: @escaping @Sendable () -> Model) -> StateReader? {
        (Model.self as? any StatefulModel.Type)?.reader { current() }
    }
}

extension StatefulModel {
    /// Reads the state of the model `current` returns (a `Self`, typed `Any` where the caller cannot name it).
    fileprivate static func reader(_ current: @escaping @Sendable () -> any Sendable) -> StateReader {
        StateReader(
            // Proof for `as!`: the only caller, `StateReader.stateful`, opens `Model.self as? any StatefulModel.Type`, so `current()` is a `Self`.
            read: { await (current() as! Self).state },
            changed: { ($0 as? State) != ($1 as? State) }
        )
    }
}

extension Equatable where Self: Sendable {
    fileprivate static func valueReader(_ current: @escaping @Sendable () -> any Sendable) -> StateReader {
        StateReader(
            read: { current() },
            changed: { ($0 as? Self) != ($1 as? Self) }
        )
    }
}

/// Where a target (a store, a receiving service, a dispatcher) reports the
/// changes of its state.
struct StateReport: Sendable {
    let reader: StateReader?
    let source: String
    let hub: ObservationHub

    /// Runs `body` and reports the change of state it made (also when it
    /// throws). Without an observer there is nobody to tell: no state is read.
    /// Runs on the caller's actor, so a handler isolated to its model reads
    /// the state without leaving it.
    nonisolated(nonsending) func around<T>(_ body: nonisolated(nonsending) () async throws -> T) async throws -> T {
        guard let reader, hub.hasSubscribers else { return try await body() }
        let old = await reader.read()
        do {
            let result = try await body()
            await reportChange(reader, from: old)
            return result
        } catch {
            await reportChange(reader, from: old)
            throw error
        }
    }

    private nonisolated(nonsending) func reportChange(_ reader: StateReader, from old: any Sendable) async {
        guard hub.hasSubscribers else { return }
        let new = await reader.read()
        if reader.changed(old, new) { hub.publish(.stateChanged(source: source, old: old, new: new)) }
    }
}
