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
    /// are added beside `check` and `export-test`.
    public static func main(
        name: String, abstract: String? = nil, version: String = "", subcommands: [ShellSubcommand] = [],
        cluster makeCluster: @escaping @Sendable () async throws -> Cluster
    ) async {
        await main(name: name, abstract: abstract, version: version, subcommands: subcommands) {
            ClusterShell(name: name, cluster: try await makeCluster())
        }
    }

    /// The same, with arguments of your own that `makeCluster` reads, and
    /// told what the cluster is for (``ShellClusterUse``).
    public static func main<Arguments: ParsableArguments & Sendable>(
        name: String, abstract: String? = nil, discussion: String? = nil, version: String = "",
        testExport: TestExportOptions = TestExportOptions(), subcommands: [ShellSubcommand] = [], arguments: Arguments.Type,
        cluster makeCluster: @escaping @Sendable (Arguments, ShellClusterUse) async throws -> Cluster
    ) async {
        await main(
            name: name, abstract: abstract, discussion: discussion, version: version, testExport: testExport, subcommands: subcommands,
            arguments: arguments
        ) { arguments, use in ClusterShell(name: name, cluster: try await makeCluster(arguments, use)) }
    }
}
