import ArgumentParser
import Foundation
import KarcAsync
import KarcSession
import Synchronization

extension Shell {
    /// Your own cluster behind the shell, with every flag of `karc`
    /// (`-e`, FILE, `--json`, `--echo`, `--keep-going`, `--timeout`,
    /// `--no-color`, `--history-file`, `--quiet`, `--no-diff`, `--help`,
    /// `--version`, completion scripts) and its exit codes. For a Trellis
    /// cluster, `KarcShellTrellis` has the form that takes the `Cluster`:
    ///
    /// ```swift
    /// import KarcShellTrellis
    ///     /// await Shell.main(name: "shop") { try await Bootstrap { … } }
    /// ```
    ///
    /// The cluster is made after the arguments are parsed (so `--help`
    /// builds nothing), and ``ShellCluster/shutDown()`` is called when the
    /// shell ends.
    public static func main(
        name: String, abstract: String? = nil, version: String = "",
        shellCluster makeCluster: @escaping @Sendable () async throws -> any ShellCluster
    ) async {
        await main(name: name, abstract: abstract, version: version) {
            let cluster = try await makeCluster()
            return (cluster, { await cluster.shutDown() })
        }
    }

    private static func main(
        name: String, abstract: String?, version: String,
        make: @escaping @Sendable () async throws -> (any ShellCluster, @Sendable () async -> Void)
    ) async {
        MainCommand.setUp.withLock {
            $0 = MainCommand.SetUp(
                configuration: CommandConfiguration(
                    commandName: name,
                    abstract: abstract ?? "Drive the \(name) cluster: send typed commands, see replies, events and state diffs.",
                    discussion: """
                        With no FILE and no -e, reads commands from standard input: a prompt on a \
                        terminal, a script otherwise. Commands are TARGET.COMMAND field=value …; \
                        :help lists them. Exit status: 0 when every command succeeded, 1 otherwise; 130, 143 or 129 when \
                        SIGINT, SIGTERM or SIGHUP ended a script. \
                        `\(name) check FILE…` checks transcripts, `\(name) export-test SCRIPT` writes a \
                        script as a Swift test (see their --help).
                        """,
                    version: version),
                make: make)
        }
        // `check` first: the shell's optional FILE argument would take any first word as a script.
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "check" {
            await CheckCommand.main(Array(arguments.dropFirst()))
        } else if arguments.first == "export-test" {
            await ExportTestCommand.main(Array(arguments.dropFirst()))
        } else {
            await MainCommand.main(arguments)
        }
    }
}

/// The command ``Shell/main(name:abstract:version:cluster:)`` runs; its
/// name, help and cluster are set just before it parses.
struct MainCommand: AsyncParsableCommand {
    struct SetUp: Sendable {
        var configuration: CommandConfiguration
        var make: @Sendable () async throws -> (any ShellCluster, @Sendable () async -> Void)
    }

    static let setUp = KarcMutex<SetUp?>(nil)

    static var configuration: CommandConfiguration {
        setUp.withLock { $0?.configuration } ?? CommandConfiguration()
    }

    @OptionGroup var shell: ShellArguments

    func run() async throws {
        guard let make = Self.setUp.withLock({ $0?.make }) else { throw ExitCode.failure }
        let (cluster, shutDown) = try await make()
        let status = await shell.run(cluster)
        await shutDown()
        if status != 0 { throw ExitCode(status) }
    }
}

/// `NAME check FILE…`: the transcripts checked against clusters ``MainCommand`` makes, one a script.
struct CheckCommand: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "\(MainCommand.configuration.commandName ?? "shell") check",
            abstract: "Run transcripts against a fresh cluster each and compare what each command prints with the #= lines under it.",
            discussion: CheckArguments.discussion)
    }

    @OptionGroup var check: CheckArguments

    func run() async throws {
        guard let make = MainCommand.setUp.withLock({ $0?.make }) else { throw ExitCode.failure }
        let status = await Shell.check(check.files, update: check.update, timeout: check.timeout.duration) {
            let (cluster, _) = try await make()
            return cluster
        }
        if status != 0 { throw ExitCode(status) }
    }
}

/// `NAME export-test SCRIPT`: the script run against a cluster ``MainCommand`` makes, written as a Swift test.
struct ExportTestCommand: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "\(MainCommand.configuration.commandName ?? "shell") export-test",
            abstract:
                "Run a script against a fresh cluster and write it as a Swift Testing test that replays it (TrellisTesting's ClusterTestStore).",
            discussion: ExportTestArguments.discussion)
    }

    @OptionGroup var export: ExportTestArguments

    func run() async throws {
        guard let make = MainCommand.setUp.withLock({ $0?.make }) else { throw ExitCode.failure }
        let status = await Shell.exportTest(
            export.script, output: export.output, name: export.name, options: export.options(over: TestExportOptions()),
            timeout: export.timeout.duration
        ) {
            let (cluster, _) = try await make()
            return cluster
        }
        if status != 0 { throw ExitCode(status) }
    }
}
