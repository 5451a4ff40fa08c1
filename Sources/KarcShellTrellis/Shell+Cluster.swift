import KarcShell
import Trellis

extension Shell {
    /// Your own Trellis cluster behind the shell, with every flag of `karc`
    /// and its exit codes; a whole `main.swift`:
    ///
    /// ```swift
    /// import KarcShellTrellis
    /// import Trellis
    /// await Shell.main(name: "shop") { try await Bootstrap { … } }
    /// ```
    ///
    /// The cluster is built after the arguments are parsed (so `--help`
    /// builds nothing), and shut down when the shell ends.
    public static func main(
        name: String, abstract: String? = nil, version: String = "",
        cluster makeCluster: @escaping @Sendable () async throws -> Cluster
    ) async {
        await main(name: name, abstract: abstract, version: version) { ClusterShell(name: name, cluster: try await makeCluster()) }
    }
}
