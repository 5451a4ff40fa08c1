import ArgumentParser
import Foundation
import KarcDemo
import KarcShell
import KarcShellTrellis

/// `karc`: the shell in front of the live demo cluster.
@main
struct KarcCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "karc",
        abstract: "Drive a live karc cluster: send typed commands, see replies, events and state diffs.",
        discussion: """
            Runs the demo cluster: counter (a Flux dispatcher), identity and articles \
            (Trellis stores, articles guarded by a middleware), account (a Karc model \
            whose messages are answered a tick later). With no FILE and no -e, reads \
            commands from standard input: a prompt on a terminal, a script otherwise. \
            Commands are TARGET.COMMAND field=value …; :help lists them. Exit status: \
            0 when every command succeeded, 1 otherwise.
            """,
        version: "karc 0.3.0"
    )

    /// The shell's flags, as every embedding of the shell has them.
    @OptionGroup var shell: ShellArguments

    @Option(help: ArgumentHelp("How often the account's messages are swapped with the server.", valueName: "DURATION"))
    var tick = DurationArgument(.seconds(1))

    @Option(help: ArgumentHelp("Where the demo persists the account (default: $XDG_DATA_HOME/karc).", valueName: "PATH"))
    var stateDir: String?

    @Flag(help: "Ignore what earlier runs persisted.")
    var fresh = false

    func run() async throws {
        var demo = DemoCluster.Options()
        demo.tick = tick.duration
        demo.stateDirectory = stateDir
        demo.fresh = fresh
        let cluster = try await DemoCluster.make(demo)
        let status = await shell.run(ClusterShell(name: "demo", cluster: cluster))
        await cluster.shutDown()
        if status != 0 { throw ExitCode(status) }
    }
}
