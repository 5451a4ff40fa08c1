/// A model an actor store can put back as it started, for ``Cluster/reset()``.
///
/// Value models need nothing: their store keeps the value it was given.
public protocol ResettableModel: Sendable {
    /// Puts the model back in its initial state.
    func reset() async
}
