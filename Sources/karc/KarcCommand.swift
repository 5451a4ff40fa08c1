import ArgumentParser
import Foundation
import KarcDemo
import KarcShell
import KarcShellTrellis

/// `karc`: the shell in front of the live demo cluster, as any app's is,
/// with the demo's options and `serve` and `attach` added.
@main
enum KarcCommand: ShellApp {
    typealias Arguments = DemoArguments
    typealias LiveArguments = DemoLiveArguments

    static let name = "karc"
    static let abstract = "Drive a live karc cluster: send typed commands, see replies, events and state diffs."
    static let discussion = """
        Runs the demo cluster: counter (a Flux dispatcher: increment, reset), identity \
        (a Trellis store: log in and out), articles (a Trellis store guarded by a \
        middleware that refuses a guest: add, like, remove), account (a Karc model: \
        register, then messages answered a tick later) and auth (a Compose component \
        tree: log-in, sign-up and reset-password screens behind a router, driven \
        through their buttons and fields). With no FILE and no -e, reads \
        commands from standard input: a prompt on a terminal, a script otherwise. \
        Commands are TARGET.COMMAND field=value …; :help lists them.
        """
    static let version = "karc 0.3.0"
    /// How a test generated from a demo session makes its cluster.
    static let testExport = TestExportOptions(factory: "try await DemoCluster.makeForTesting()", imports: ["KarcDemo"])
    static let subcommands: [any ParsableCommand.Type] = [Serve.self, Attach.self]

    static func shellCluster(for launch: ClusterLaunch<KarcCommand>) async throws -> any ShellCluster {
        if let live = launch.live {
            return ClusterShell(name: "demo", cluster: try await DemoCluster.make(launch.arguments.options(live: live)))
        }
        return try await launch.arguments.freshDemo(for: launch.use)
    }
}

/// The demo cluster's options, for every use of it.
struct DemoArguments: ParsableArguments, Sendable {
    @Option(
        help: ArgumentHelp(
            "How often the account's messages are swapped with the server (default: 1s; 50ms while export-test or export-diagram runs a script).",
            valueName: "DURATION"))
    var tick: DurationArgument?

    /// The live demo's options: persisted where `live` says.
    func options(live: DemoLiveArguments) -> DemoCluster.Options {
        var options = DemoCluster.Options()
        options.tick = tick?.duration ?? .seconds(1)
        options.stateDirectory = live.stateDir
        options.fresh = live.fresh
        return options
    }

    /// A demo cluster of its own for one transcript or script: fresh,
    /// persisting only in a scratch directory removed when it shuts down.
    func freshDemo(for use: ShellClusterUse) async throws -> ClusterShell {
        var options = DemoCluster.Options()
        options.tick = tick?.duration ?? (use == .exportTest ? .milliseconds(50) : .seconds(1))
        let scratch = NSTemporaryDirectory() + "karc-\(use == .check ? "check" : "fresh")-\(UUID().uuidString)"
        // export-diagram's waits (`:wait`) end sooner on a short tick, as export-test's.
        if use == .exportDiagram, tick == nil { options.tick = .milliseconds(50) }
        options.stateDirectory = scratch
        options.fresh = true
        // explore moves time itself, between commands.
        if case .explore(let clock) = use { options.clock = clock }
        let cluster = try await DemoCluster.make(options)
        return ClusterShell(name: "demo", cluster: cluster, catalog: ClusterShell.catalog(of: cluster)) {
            try? FileManager.default.removeItem(atPath: scratch)
        }
    }
}

/// The live demo's own options: where it persists (the shell's and `serve`'s;
/// `check`, `export-test`, `export-diagram` and `explore` run on a fresh demo that persists nothing).
struct DemoLiveArguments: ParsableArguments, Sendable {
    @Option(help: ArgumentHelp("Where the demo persists the account (default: $XDG_DATA_HOME/karc).", valueName: "PATH"))
    var stateDir: String?

    @Flag(help: "Ignore what earlier runs persisted.")
    var fresh = false
}
