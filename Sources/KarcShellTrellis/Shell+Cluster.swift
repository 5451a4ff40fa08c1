import ArgumentParser
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
    /// builds nothing), and shut down when the shell ends. `subcommands`
    /// are added beside `check`, `export-test`, `export-diagram` and
    /// `explore`. `invariants` hold beside those the cluster's targets
    /// declare, each for every target whose state is of its type: the shell
    /// checks them after every command, and `explore` looks for a sequence
    /// that breaks one.
    public static func main(
        name: String, abstract: String? = nil, version: String = "", subcommands: [ShellSubcommand] = [], invariants: [Invariant] = [],
        cluster makeCluster: @escaping @Sendable () async throws -> Cluster
    ) async {
        await main(name: name, abstract: abstract, version: version, subcommands: subcommands) {
            ClusterShell(name: name, cluster: try await makeCluster(), invariants: invariants)
        }
    }

    /// The same, with arguments of your own that `makeCluster` reads, and
    /// told what the cluster is for (``ShellClusterUse``).
    public static func main<Arguments: ParsableArguments & Sendable>(
        name: String, abstract: String? = nil, discussion: String? = nil, version: String = "",
        testExport: TestExportOptions = TestExportOptions(), subcommands: [ShellSubcommand] = [], invariants: [Invariant] = [],
        arguments: Arguments.Type, cluster makeCluster: @escaping @Sendable (Arguments, ShellClusterUse) async throws -> Cluster
    ) async {
        await main(
            name: name, abstract: abstract, discussion: discussion, version: version, testExport: testExport, subcommands: subcommands,
            arguments: arguments
        ) { arguments, use in ClusterShell(name: name, cluster: try await makeCluster(arguments, use), invariants: invariants) }
    }
}
