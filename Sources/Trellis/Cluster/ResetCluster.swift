/// Resets the cluster (``Cluster/reset()``) when sent and no service takes
/// it: what a service returns in its flow on logout ("reset the dispatcher"):
/// `return .single(action: ResetCluster())` in an `ActionFlow<AnyAction>`.
///
/// Middlewares see it as any action. Sent from a value store's own handler,
/// that store resets once the handler has returned.
public struct ResetCluster: Action, Equatable {
    /// The action.
    public init() {}
}
