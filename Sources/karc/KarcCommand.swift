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
            0 when every command succeeded, 1 otherwise. `karc check FILE…` checks \
            transcripts, `karc export-test SCRIPT` writes a script as a Swift test, \
            `karc serve` runs the demo for `karc attach` to drive from another \
            terminal (see their --help).
            """,
        version: "karc 0.3.0"
    )

    /// Subcommands first: the shell's optional FILE argument would take any first word as a script.
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "check" {
            await Check.main(Array(arguments.dropFirst()))
        } else if arguments.first == "export-test" {
            await ExportTest.main(Array(arguments.dropFirst()))
        } else if arguments.first == "serve" {
            await Serve.main(Array(arguments.dropFirst()))
        } else if arguments.first == "attach" {
            await Attach.main(Array(arguments.dropFirst()))
        } else {
            await main(arguments)
        }
    }

    /// The shell's flags, as every embedding of the shell has them.
    @OptionGroup var shell: ShellArguments

    @OptionGroup var demo: DemoArguments

    /// How a test generated from a demo session makes its cluster.
    static let testExport = TestExportOptions(factory: "try await DemoCluster.makeForTesting()", imports: ["KarcDemo"])

    func run() async throws {
        let cluster = try await DemoCluster.make(demo.options)
        var options = shell.options
        options.testExport = shell.testExport(over: Self.testExport)
        let status = await Shell.run(ClusterShell(name: "demo", cluster: cluster), options: options, commands: shell.commands, script: shell.file)
        await cluster.shutDown()
        if status != 0 { throw ExitCode(status) }
    }
}

/// The demo cluster's own options.
struct DemoArguments: ParsableArguments {
    @Option(help: ArgumentHelp("How often the account's messages are swapped with the server.", valueName: "DURATION"))
    var tick = DurationArgument(.seconds(1))

    @Option(help: ArgumentHelp("Where the demo persists the account (default: $XDG_DATA_HOME/karc).", valueName: "PATH"))
    var stateDir: String?

    @Flag(help: "Ignore what earlier runs persisted.")
    var fresh = false

    var options: DemoCluster.Options {
        var options = DemoCluster.Options()
        options.tick = tick.duration
        options.stateDirectory = stateDir
        options.fresh = fresh
        return options
    }
}

/// `karc check`: transcripts against a fresh demo cluster each, which
/// persists nothing outside a scratch directory.
struct Check: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "karc check",
        abstract: "Run transcripts against a fresh demo cluster each and compare what each command prints with the #= lines under it.",
        discussion: CheckArguments.discussion)

    @OptionGroup var check: CheckArguments

    @Option(help: ArgumentHelp("How often the account's messages are swapped with the server.", valueName: "DURATION"))
    var tick = DurationArgument(.seconds(1))

    func run() async throws {
        let scratch = NSTemporaryDirectory() + "karc-check-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let tick = tick.duration
        let status = await Shell.check(check.files, update: check.update, timeout: check.timeout.duration) {
            try await Self.freshDemo(tick: tick, in: scratch)
        }
        if status != 0 { throw ExitCode(status) }
    }

    /// A demo cluster of its own: fresh, persisting only in `scratch`.
    static func freshDemo(tick: Duration, in scratch: String) async throws -> ClusterShell {
        var options = DemoCluster.Options()
        options.tick = tick
        options.stateDirectory = scratch
        options.fresh = true
        return ClusterShell(name: "demo", cluster: try await DemoCluster.make(options))
    }
}

/// `karc export-test SCRIPT`: the script run against a fresh demo cluster,
/// written as a Swift Testing test that replays it.
struct ExportTest: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "karc export-test",
        abstract:
            "Run a script against a fresh demo cluster and write it as a Swift Testing test that replays it (TrellisTesting's ClusterTestStore).",
        discussion: ExportTestArguments.discussion
            + " Here the test makes its cluster with `try await DemoCluster.makeForTesting()` and imports KarcDemo, unless told otherwise.")

    @OptionGroup var export: ExportTestArguments

    @Option(help: ArgumentHelp("How often the account's messages are swapped with the server while the script runs.", valueName: "DURATION"))
    var tick = DurationArgument(.milliseconds(50))

    func run() async throws {
        let scratch = NSTemporaryDirectory() + "karc-export-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let tick = tick.duration
        let status = await Shell.exportTest(
            export.script, output: export.output, name: export.name, options: export.options(over: KarcCommand.testExport),
            timeout: export.timeout.duration
        ) {
            try await Check.freshDemo(tick: tick, in: scratch)
        }
        if status != 0 { throw ExitCode(status) }
    }
}
