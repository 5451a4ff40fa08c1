import KarcAsync

/// Reads a target's state, typed, for change reports.
struct StateReader: Sendable {
    /// The state, boxed (what a target shows to tooling).
    let read: nonisolated(nonsending) @Sendable () async -> any Sendable
    /// Reads the state, runs the body, reads it again and publishes the change
    /// to the hub (as coming from the source) when there is one. Typed inside:
    /// no cast on the way, as this runs around every handler an observer sees.
    /// The link, when given, is that of the send the change belongs to, not bound in the task.
    let watch: nonisolated(nonsending) @Sendable (String, ObservationHub, TraceLink?, nonisolated(nonsending) () async -> Void) async -> Void

    /// A reader for a model of type `Model` that `current` returns: its
    /// ``StatefulModel/state``, else the value itself when it is `Equatable`;
    /// `nil` when the model shows no state.
    static func make<Model: Sendable>(for model: Model.Type, _ current: @escaping @Sendable () -> Model) -> StateReader? {
        if let stateful = stateful(for: model, current) { return stateful }
        if let equatable = Model.self as? any (Equatable & Sendable).Type {
            return equatable.valueReader(current)
        }
        return nil
    }

    /// A reader of the ``StatefulModel/state`` of what `current` returns; `nil` when `Model` is not a `StatefulModel`.
    static func stateful<Model: Sendable>(for _: Model.Type, _ current: @escaping @Sendable () -> Model) -> StateReader? {
        (Model.self as? any StatefulModel.Type)?.reader(current)
    }
}

extension StatefulModel {
    /// Reads the state of the model `current` returns; `current` is a
    /// `() -> Self`, typed `Any` where the caller cannot name `Self`.
    fileprivate static func reader(_ current: Any) -> StateReader {
        // Proof for `as!`: the only caller, `StateReader.stateful`, opens `Model.self as? any StatefulModel.Type`
        // and passes its `@Sendable () -> Model`, so this is a `@Sendable () -> Self`.
        let model = current as! @Sendable () -> Self
        return StateReader(
            read: { await model().state },
            watch: { source, hub, link, body in
                // Without the old state, the change is made where the state lies (see `OldStateDemand`).
                guard hub.oldStates.isNeeded(by: source) else {
                    await body()
                    if hub.hasSubscribers { hub.publish(.stateChanged(source: source, old: StateNotKept(), new: await model().state), unbound: link) }
                    return
                }
                let old = await model().state
                await body()
                guard hub.hasSubscribers else { return }
                let new = await model().state
                guard old != new else { return }
                hub.publish(.stateChanged(source: source, old: old, new: new), unbound: link)
                hub.oldStates.wasReported(by: source)
            }
        )
    }
}

// The same watch as `StatefulModel.reader` with another read, written out: one
// generic initializer taking the read as a closure measured 8% slower on
// `cluster.send.store` (one more async call per read, twice per send).
extension Equatable where Self: Sendable {
    /// Reads the value `current` returns (a `() -> Self`, typed `Any`, as above).
    fileprivate static func valueReader(_ current: Any) -> StateReader {
        // Proof for `as!`: the only caller, `StateReader.make`, opens `Model.self as? any (Equatable & Sendable).Type`
        // and passes its `@Sendable () -> Model`, so this is a `@Sendable () -> Self`.
        let value = current as! @Sendable () -> Self
        return StateReader(
            read: { value() },
            watch: { source, hub, link, body in
                // Without the old state, the change is made where the state lies (see `OldStateDemand`).
                guard hub.oldStates.isNeeded(by: source) else {
                    await body()
                    if hub.hasSubscribers { hub.publish(.stateChanged(source: source, old: StateNotKept(), new: value()), unbound: link) }
                    return
                }
                let old = value()
                await body()
                guard hub.hasSubscribers else { return }
                let new = value()
                guard old != new else { return }
                hub.publish(.stateChanged(source: source, old: old, new: new), unbound: link)
                hub.oldStates.wasReported(by: source)
            }
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
    /// `link`: the link of the send whose handler runs, when it is not bound
    /// in the task (a store's handler is given it instead).
    nonisolated(nonsending) func around<T>(link: TraceLink? = nil, _ body: nonisolated(nonsending) () async throws -> T) async throws -> T {
        guard let reader, hub.hasSubscribers else { return try await body() }
        var result: Result<T, any Error>?
        await reader.watch(source, hub, link) {
            do { result = .success(try await body()) } catch { result = .failure(error) }
        }
        // Proof for `!`: `watch` runs its body exactly once, and the body sets `result`.
        return try result!.get()
    }
}
