/// A cluster that keeps the records it is told for a shell, and can stop
/// (`ClusterShell`): explore reads none of them.
package protocol ObservingCluster {
    /// Stops taking the cluster's records; the cluster goes on.
    func stopObserving()
}
