import ArgumentParser
import Foundation
import KarcExplore
import KarcScriptTools
import KarcSession

/// The app's command: its subcommands, the shell (`shell`, the default:
/// `NAME [FILE]` runs it) and the tools, with those the app adds.
struct ShellRootCommand<App: ShellApp>: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: App.name, abstract: App.abstract, discussion: App.discussion + "\n\n" + exitStatuses, version: App.version,
            subcommands: [
                ShellCommand<App>.self, CheckCommand<App>.self, ExportTestCommand<App>.self, ExportDiagramCommand<App>.self,
                ExploreCommand<App>.self,
            ] + App.subcommands,
            defaultSubcommand: ShellCommand<App>.self)
    }

    /// The paragraph that ends every app's `--help`: the statuses a script exits with.
    static var exitStatuses: String {
        """
        Exit status: 0 when every command succeeded, 1 otherwise; 64 for bad \
        command-line arguments; 130, 143 or 129 when SIGINT, SIGTERM or SIGHUP ended a script.
        """
    }

    /// As ArgumentParser's, but `NAME --help` shows the shell's own help (its
    /// flags are what a user of `NAME` looks for) above the subcommands.
    static func main() async {
        let given = Array(CommandLine.arguments.dropFirst())
        guard given == ["--help"] || given == ["-h"] || given == ["help"] else {
            await main(given)
            return
        }
        let root = helpMessage(columns: 80)
        let subcommands = root.range(of: "\nSUBCOMMANDS:\n").map { String(root[$0.lowerBound...]) } ?? ""
        print(ShellCommand<App>.helpMessage(columns: 80) + subcommands)
    }
}

/// The shell itself: its flags, and the app's own options.
struct ShellCommand<App: ShellApp>: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "shell", abstract: App.abstract, usage: "\(App.name) [<options>] [<file>]",
            discussion: App.discussion + "\n\n" + ShellRootCommand<App>.exitStatuses, version: App.version)
    }

    @OptionGroup var shell: ShellArguments
    @OptionGroup var inspector: InspectArguments
    @OptionGroup var arguments: App.Arguments
    @OptionGroup var live: App.LiveArguments

    /// A script named like a word that is no file was most likely meant as a
    /// subcommand (`shop serve` where the app has none): said so, with the
    /// subcommands there are, before a cluster is made.
    func validate() throws {
        guard let file = shell.file, file != "-", !file.isEmpty, file.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }),
            !FileManager.default.fileExists(atPath: file)
        else { return }
        let names = ShellRootCommand<App>.configuration.subcommands.map { $0.configuration.commandName ?? "" }.filter { !$0.isEmpty && $0 != "shell" }
        throw ValidationError(
            "no such script: \(file), nor a subcommand of \(App.name): its subcommands are \(names.joined(separator: ", ")) (\(App.name) --help)")
    }

    func run() async throws {
        let cluster = try await App.shellCluster(for: ClusterLaunch(use: .shell, arguments: arguments, live: live))
        var options = shell.options
        options.testExport = shell.testExport(over: App.testExport)
        let status = await shell.run(cluster, options: options, inspector: inspector)
        await cluster.shutDown()
        if status != 0 { throw ExitCode(status) }
    }
}

/// `NAME check FILE…`: the transcripts, each against a fresh cluster.
struct CheckCommand<App: ShellApp>: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "check",
            abstract: "Run transcripts against a fresh \(App.name) cluster each and compare what each command prints with the #= lines under it.",
            discussion: CheckArguments.discussion)
    }

    @OptionGroup var check: CheckArguments
    @OptionGroup var arguments: App.Arguments

    func run() async throws {
        let status = await Shell.check(
            check.files, update: check.update, timeout: check.timeout.duration, testExport: App.testExport, interrupts: .signals,
            cluster: App.freshClusters(for: .check, arguments))
        if status != 0 { throw ExitCode(status) }
    }
}

/// `NAME export-test SCRIPT`: the script against a fresh cluster, written as a Swift test.
struct ExportTestCommand<App: ShellApp>: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "export-test",
            abstract:
                "Run a script against a fresh \(App.name) cluster and write it as a Swift Testing test that replays it (TrellisTesting's ClusterTestStore).",
            discussion: ExportTestArguments.discussion
                + (App.testExport.factory.map { " Here the test makes its cluster with `\($0)`, unless told otherwise." } ?? ""))
    }

    @OptionGroup var export: ExportTestArguments
    @OptionGroup var arguments: App.Arguments

    func run() async throws {
        let status = await Shell.exportTest(
            export.script, output: export.output, name: export.name, options: export.options(over: App.testExport),
            timeout: export.timeout.duration, interrupts: .signals, cluster: App.freshClusters(for: .exportTest, arguments))
        if status != 0 { throw ExitCode(status) }
    }
}

/// `NAME export-diagram SCRIPT`: the script against a fresh cluster, its flow written as a Mermaid sequence diagram.
struct ExportDiagramCommand<App: ShellApp>: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "export-diagram",
            abstract:
                "Run a script against a fresh \(App.name) cluster and write its flow as a Mermaid sequence diagram (Markdown that GitHub draws).",
            discussion: ExportDiagramArguments.discussion)
    }

    @OptionGroup var export: ExportDiagramArguments
    @OptionGroup var arguments: App.Arguments

    func run() async throws {
        let status = await Shell.exportDiagram(
            export.script, output: export.output, commands: export.commands, timeout: export.timeout.duration, interrupts: .signals,
            cluster: App.freshClusters(for: .exportDiagram, arguments))
        if status != 0 { throw ExitCode(status) }
    }
}

/// `export-diagram`'s flags: the script, where to write, which commands.
struct ExportDiagramArguments: ParsableArguments {
    @Argument(help: ArgumentHelp("The script whose flow to draw.", valueName: "SCRIPT"))
    var script: String

    @Option(name: .shortAndLong, help: ArgumentHelp("Where to write the diagram (default: standard output).", valueName: "FILE.md"))
    var output: String?

    // `.unconditional`: `--commands -1` is a range to refuse with a reason, not a missing value.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Which commands' flows, by their number in the script's :history: N or N-M (default: all).", valueName: "RANGE"))
    var commands: String?

    @Option(
        help: ArgumentHelp("How long a command may keep the cluster busy (250ms, 5s, 1m).", valueName: "DURATION"), transform: DurationArgument.parse)
    var timeout = DurationArgument(.seconds(5))

    static let discussion = """
        Each send the script makes is an arrow from the shell to its target, each send it causes an arrow \
        between targets, replies and failures arrows back; events, changes of state and redirects are notes \
        on their lifeline. The file is written whole or not at all.
        """
}

/// `NAME explore`: generated command sequences against fresh clusters, the first failure shrunk.
struct ExploreCommand<App: ShellApp>: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "explore",
            abstract:
                "Send generated command sequences to fresh \(App.name) clusters until one breaks an invariant, hangs, crashes or fails with a bug's error, then shrink it to a script.",
            discussion: ExploreArguments.discussion)
    }

    @OptionGroup var explore: ExploreArguments
    @OptionGroup var arguments: App.Arguments

    func run() async throws {
        let arguments = self.arguments
        let make: InProcessExplore.MakeCluster = { clock in try await App.freshCluster(for: .explore(clock: clock), arguments) }
        if explore.worker {
            _ = await Shell.exploreWorker(resultFD: 3, settings: explore.stepSettings, cluster: make)
            return
        }
        let status = await Shell.explore(
            name: ProgramName.current, explore: explore, testExport: App.testExport,
            workerArguments: ["explore"] + Array(CommandLine.arguments.dropFirst(2)) + ["--worker"],
            commandLine: ExploreCommandLine(Array(CommandLine.arguments.dropFirst(2))), cluster: make)
        if status != 0 { throw ExitCode(status) }
    }
}

extension ShellApp {
    /// A tool's fresh cluster (`check`'s, `explore`'s, …): with the app's own
    /// options and none of the live cluster's.
    static func freshCluster(for use: ShellClusterUse, _ arguments: Arguments) async throws -> any ShellCluster {
        try await shellCluster(for: ClusterLaunch(use: use, arguments: arguments, live: nil))
    }

    /// What makes a tool's fresh clusters, one a call (``freshCluster(for:_:)``).
    static func freshClusters(for use: ShellClusterUse, _ arguments: Arguments) -> @Sendable () async throws -> any ShellCluster {
        { try await freshCluster(for: use, arguments) }
    }
}
