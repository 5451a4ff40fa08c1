import KarcSession
import KarcSessionTrellis

extension ClusterEndpoint {
    /// The cluster as a session of the app's own sees it beside the attached
    /// shells (`karc serve --inspect`): a change one of their commands made
    /// says so (`by another shell: counter.increment`), not `by the app`.
    package func observedCluster() -> any ShellCluster {
        let shell = ClusterShell(name: name, cluster: state.cluster, catalog: state.catalog, bufferSize: configuration.recordBuffer)
        return SharedCluster(base: shell, traces: state.traces)
    }
}
