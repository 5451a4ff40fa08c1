import ArgumentParser
import Foundation
import Synchronization
import Trellis

extension Shell {
    /// Your own cluster behind the shell, with every flag of `karc`
    /// (`-e`, FILE, `--json`, `--echo`, `--keep-going`, `--timeout`,
    /// `--no-color`, `--history-file`, `--quiet`, `--help`, `--version`,
    /// completion scripts) and its exit codes. A whole `main.swift`:
    ///
    /// ```swift
    /// import KarcShell
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
        await main(name: name, abstract: abstract, version: version) {
            let cluster = try await makeCluster()
            return (ClusterShell(name: name, cluster: cluster), { await cluster.shutDown() })
        }
    }

    /// ``main(name:abstract:version:cluster:)`` for any ``ShellCluster``.
    public static func main(
        name: String, abstract: String? = nil, version: String = "",
        shellCluster makeCluster: @escaping @Sendable () async throws -> any ShellCluster
    ) async {
        await main(name: name, abstract: abstract, version: version) { (try await makeCluster(), {}) }
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
                        :help lists them. Exit status: 0 when every command succeeded, 1 otherwise.
                        """,
                    version: version),
                make: make)
        }
        await MainCommand.main()
    }
}

/// The command ``Shell/main(name:abstract:version:cluster:)`` runs; its
/// name, help and cluster are set just before it parses.
struct MainCommand: AsyncParsableCommand {
    struct SetUp: Sendable {
        var configuration: CommandConfiguration
        var make: @Sendable () async throws -> (any ShellCluster, @Sendable () async -> Void)
    }

    static let setUp = Mutex<SetUp?>(nil)

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
