/// A model whose state ``Cluster/restore(_:)`` can put back: an actor
/// store's model, a dispatcher or a receiving service opts in by taking a
/// state it showed before.
///
/// Value stores and Karc models need nothing: their store sets the value,
/// and a Karc model takes the state through its runtime.
///
/// ```swift
/// actor Inventory: StatefulModel, Restorable {
///     var state = Stock()
///     func restore(_ state: Stock) { self.state = state }
/// }
/// ```
public protocol Restorable: StatefulModel {
    /// Puts `state` in place of the model's state.
    func restore(_ state: State) async throws
}

extension Restorable {
    /// How the cluster restores this model, its change reported by `report`.
    func restorer(report: StateReport) -> Cluster.Restorer {
        Cluster.Restorer(stateType: State.self) { state in
            // `Cluster.restore` checked the state's type before anything was restored.
            guard let state = state as? State else { return }
            try await report.around { try await self.restore(state) }
        }
    }
}
