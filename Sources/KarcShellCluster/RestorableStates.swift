/// The states of a cluster's targets at one moment (``RestorableShellCluster/snapshot()``).
public struct RestorableStates: Sendable {
    /// Each restorable target's state, by target name.
    public var states: [String: any Sendable]
    /// The targets that show a state but cannot be restored, in the cluster's order.
    public var left: [String]

    /// The states of `states`' targets; `left` names those left out.
    public init(states: [String: any Sendable], left: [String] = []) {
        self.states = states
        self.left = left
    }
}
