import Karc

/// Builds the services, sets up the models they mount, runs their
/// `.bootstrap` handlers and starts their emitters; returns the running cluster.
///
/// ```swift
/// let cluster = try await Bootstrap {
///     Group {
///         Store(model: IdentityModel.self)
///             .mutate(on: IdentityAction.self) { model, action, send in … }
///             .with(model: identityModel)
///     }
/// }
/// try await cluster.send(action: IdentityAction.logout)
/// ```
///
/// - Throws: the first error building the tree raised (a store without a
///   model, a model that failed to set up, a bootstrap handler that threw);
///   what was set up already is torn down first.
public func Bootstrap(@ServiceBuilder _ content: sending () -> Group) async throws -> Cluster {
    try await Bootstrap(historyCapacity: Cluster.defaultHistoryCapacity, content)
}

/// ``Bootstrap(_:)`` keeping the last `historyCapacity` actions in
/// ``Cluster/history`` (0 keeps none).
public func Bootstrap(historyCapacity: Int, @ServiceBuilder _ content: sending () -> Group) async throws -> Cluster {
    let cluster = Cluster(historyCapacity: historyCapacity)
    var environment = EnvironmentValues()
    // Weak: the tree the cluster owns holds this closure.
    environment.send = Send { [weak cluster] action in
        guard let cluster else { throw TrellisError.shutDown }
        try await cluster.send(action: action)
    }
    let tree = content()
    do {
        // The models set up here, and the tasks they start, belong to the cluster's pool.
        try await ModelPool.$current.withValue(cluster.pool) {
            let root = try await buildService(tree, BuildContext(cluster: cluster, environment: environment))
            cluster.install(root: root)
            try await cluster.runStartUp()
        }
    } catch {
        await cluster.shutDown()
        throw error
    }
    return cluster
}
