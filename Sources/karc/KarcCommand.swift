import ArgumentParser
import Foundation
import KarcDemo
import KarcShell

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

    @Argument(help: "A script to run (- for standard input).")
    var file: String?

    @Option(name: .customShort("e"), help: ArgumentHelp("Run a command (repeatable); with no FILE, karc exits after them.", valueName: "CMD"))
    var commands: [String] = []

    @Flag(help: "Print one JSON object a line (see docs/shell.md).")
    var json = false

    @Flag(help: "Print each command before its output.")
    var echo = false

    @Flag(help: "Go on after a failed command (the exit status is still 1).")
    var keepGoing = false

    @Option(help: ArgumentHelp("How long a command may keep the cluster busy, and :wait's default (250ms, 5s, 1m).", valueName: "DURATION"))
    var timeout: ShellTimeout = ShellTimeout(duration: .seconds(5))

    @Flag(help: "Never colour the output (NO_COLOR does the same).")
    var noColor = false

    @Option(help: ArgumentHelp("Where the prompt keeps its history (/dev/null: nowhere).", valueName: "PATH"))
    var historyFile: String?

    @Flag(help: "Leave out the banner and notices.")
    var quiet = false

    @Option(help: ArgumentHelp("How often the account's messages are swapped with the server.", valueName: "DURATION"))
    var tick: ShellTimeout = ShellTimeout(duration: .seconds(1))

    @Option(help: ArgumentHelp("Where the demo persists the account (default: $XDG_DATA_HOME/karc).", valueName: "PATH"))
    var stateDir: String?

    @Flag(help: "Ignore what earlier runs persisted.")
    var fresh = false

    func run() async throws {
        var options = ShellOptions()
        options.json = json
        options.echo = echo
        options.keepGoing = keepGoing
        options.timeout = timeout.duration
        options.quiet = quiet
        options.historyFile = historyFile
        options.color = !noColor && ProcessInfo.processInfo.environment["NO_COLOR"] == nil && isatty(STDOUT_FILENO) == 1
        var demo = DemoCluster.Options()
        demo.tick = tick.duration
        demo.stateDirectory = stateDir
        demo.fresh = fresh
        let cluster = try await DemoCluster.make(demo)
        let status = await Shell.run(ClusterShell(name: "demo", cluster: cluster), options: options, commands: commands, script: file)
        await cluster.shutDown()
        if status != 0 { throw ExitCode(status) }
    }
}

/// A `--timeout` or `--tick` value: `250ms`, `5s`, `1m`.
struct ShellTimeout: ExpressibleByArgument {
    let duration: Duration

    init(duration: Duration) {
        self.duration = duration
    }

    init?(argument: String) {
        guard let duration = ShellDuration.parse(argument), duration > .zero else { return nil }
        self.duration = duration
    }

    var defaultValueDescription: String { ShellDuration.describe(duration) }
}


