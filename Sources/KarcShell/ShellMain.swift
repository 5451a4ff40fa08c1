import ArgumentParser
import KarcSession

extension Shell {
    /// Your own cluster behind the shell, with every flag of `karc`
    /// (`-e`, FILE, `--json`, `--echo`, `--keep-going`, `--timeout`,
    /// `--no-color`, `--history-file`, `--quiet`, `--no-diff`, `--help`,
    /// `--version`, completion scripts), its `check` and `export-test`
    /// subcommands and its exit codes. For a Trellis cluster,
    /// `KarcShellTrellis` has the form that takes the `Cluster`:
    ///
    /// ```swift
    /// import KarcShellTrellis
    /// await Shell.main(name: "shop") { try await Bootstrap { … } }
    /// ```
    ///
    /// The cluster is made after the arguments are parsed (so `--help`
    /// builds nothing), and ``ShellCluster/shutDown()`` is called when the
    /// shell ends. `subcommands` are added beside `check` and `export-test`.
    public static func main(
        name: String, abstract: String? = nil, version: String = "", subcommands: [ShellSubcommand] = [],
        shellCluster makeCluster: @escaping @Sendable () async throws -> any ShellCluster
    ) async {
        await main(
            name: name, abstract: abstract, version: version, subcommands: subcommands, arguments: NoArguments.self
        ) { _, _ in try await makeCluster() }
    }

    /// The same, with arguments of your own (`Arguments`' options and flags,
    /// beside the shell's) that `makeCluster` reads, and told what the
    /// cluster is for: the shell, or one of `check`'s transcripts or
    /// `export-test`'s script, each of which wants a fresh cluster.
    ///
    /// - Parameters:
    ///   - discussion: what `--help` says after the abstract (by default: how
    ///     commands are read); the exit statuses follow it, and the subcommands.
    ///   - testExport: how a test `:export-test` and `export-test` write makes
    ///     its cluster, unless `--test-factory` says otherwise.
    public static func main<Arguments: ParsableArguments & Sendable>(
        name: String, abstract: String? = nil, discussion: String? = nil, version: String = "",
        testExport: TestExportOptions = TestExportOptions(), subcommands: [ShellSubcommand] = [], arguments: Arguments.Type,
        shellCluster makeCluster: @escaping @Sendable (Arguments, ShellClusterUse) async throws -> any ShellCluster
    ) async {
        let setUp = ShellMainSetUp(
            name: name,
            abstract: abstract ?? "Drive the \(name) cluster: send typed commands, see replies, events and state diffs.",
            discussion: (discussion ?? ShellMainSetUp.discussion(name: name)) + "\n\n" + ShellMainSetUp.exitStatuses, version: version,
            testExport: testExport
        ) { arguments, use in
            // `arguments` is always an `Arguments`: the commands below parse one and hand it over.
            guard let arguments = arguments as? Arguments else { throw ExitCode.failure }
            return try await makeCluster(arguments, use)
        }
        // Subcommands first: the shell's optional FILE argument would take any first word as a script.
        let given = Array(CommandLine.arguments.dropFirst())
        let rest = Array(given.dropFirst())
        await ShellMainSetUp.$current.withValue(setUp) {
            let named = ["check", "export-test", "export-diagram", "explore"] + subcommands.map(\.name)
            if !named.contains(given.first ?? ""), given.contains(where: { $0 == "--help" || $0 == "-h" }) {
                // ArgumentParser lists subcommands it dispatches itself; these are dispatched above it.
                let builtIn = [
                    ("check", CheckCommand<Arguments>.configuration.abstract),
                    ("export-test", ExportTestCommand<Arguments>.configuration.abstract),
                    ("export-diagram", ExportDiagramCommand<Arguments>.configuration.abstract),
                    ("explore", ExploreCommand<Arguments>.configuration.abstract),
                ]
                print(
                    MainCommand<Arguments>.helpMessage(columns: 80)
                        + ShellMainSetUp.subcommandsSection(name: name, builtIn + subcommands.map { ($0.name, $0.abstract()) }, columns: 80),
                    terminator: "")
                return
            }
            switch given.first {
            case "check": await CheckCommand<Arguments>.main(rest)
            case "export-test": await ExportTestCommand<Arguments>.main(rest)
            case "export-diagram": await ExportDiagramCommand<Arguments>.main(rest)
            case "explore": await ExploreCommand<Arguments>.main(rest)
            case let first? where subcommands.contains(where: { $0.name == first }):
                await subcommands.first { $0.name == first }?.run(rest)
            default: await MainCommand<Arguments>.main(given)
            }
        }
    }
}

/// No arguments beyond the shell's.
struct NoArguments: ParsableArguments {}
