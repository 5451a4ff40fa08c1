/// A model an actor store, a dispatcher or a receiving service can put back
/// as it started, for ``Cluster/reset()``.
///
/// Value models and Karc models need nothing: a value store keeps the value
/// it was given, a Karc model is set up again. An actor model that is not
/// resettable keeps its state through a reset (``Cluster/unresettableTargets``
/// names it), which may leave the cluster in a state no run of the app reaches.
public protocol ResettableModel: Sendable {
    /// Puts the model back in its initial state.
    func reset() async
}
